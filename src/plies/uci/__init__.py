"""The UCI front end: parse protocol lines, drive the engine, print replies (one loop only).

Modules: ``protocol`` (text to typed commands), ``options`` (declared options
and value checks), ``channel`` (line reader and locked writer), ``lines``
(info/bestmove text), ``loop`` (the dispatcher), ``startup`` (the engine built in
the background), ``search_job`` (the search or job in flight), ``bench`` and
``evaluation`` (the extra commands).  Nothing heavy is imported here, so
``plies --help`` stays fast.
"""
