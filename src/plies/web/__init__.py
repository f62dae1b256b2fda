"""The local web app behind ``plies serve``: play, analyse, path finding, small games, arena.

A Starlette application (:func:`plies.web.app.create_app`) serves one static page of
hand-written HTML, CSS and JavaScript; chess runs over a websocket per browser tab
(each tab its own game and engine), path finding and the small games over JSON, and
the Arena page's matches and leagues between the server's configured players
(``plies serve --player``) on a thread of their own, polled over JSON.
"""
