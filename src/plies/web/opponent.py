"""A configured player (``plies serve --player``) as a Play page opponent, off the event loop.

The player is made from the server's own spec list (never from a request), started on
first use, asked for each move on a thread of its own, and its answer posted back to
the event loop.  Any player a spec makes can sit here (a ladder player, a mind, an
engine).  A move asked for and then overtaken (undo, a new game) is dropped: its
generation number no longer matches.  A player still silent well past its time is told
to stop.  A player that fails is closed and made afresh for
the next move; the tab hears one line saying what went wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from plies.agents.player import Player, PlayerError
from plies.agents.spec import PlayerSpec
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.web.runner import Post

#: A silent player (no clock, a fixed depth) is given up after this long.
DEPTH_TIMEOUT_S = 60.0
#: Beyond its movetime, a player gets this long to answer before it is declared hung.
GRACE_S = 5.0

Done = Callable[[Info | None, str], None]
"""Called on the event loop with the player's report (None and a reason if it failed)."""


class Opponent:
    """One tab's configured opponent: its player process (or agent) and its move in flight."""

    def __init__(self, spec: PlayerSpec, name: str, post: Post) -> None:
        """Nothing starts until the first move is asked for."""
        self.spec = spec
        self.name = name
        self._post = post
        self._lock = threading.Lock()
        self._player: Player | None = None
        self._generation = 0
        self._game = -1
        self.busy = False
        """Whether a move is being worked out."""

    def ask(self, board: Board, movetime_ms: int | None, depth: int | None, game: int,
            done: Done) -> None:
        """Ask for a move in ``board`` (game number ``game``); ``done`` hears the answer."""
        self._generation += 1
        generation = self._generation
        limit = Limit(movetime=movetime_ms, depth=depth)
        timeout = movetime_ms / 1000 + GRACE_S if movetime_ms else DEPTH_TIMEOUT_S
        self.busy = True

        def work() -> None:
            """Thread body: start the player if needed and ask it."""
            reply: Info | None = None
            reason = ""
            try:
                player = self._ready(game)
                timer = threading.Timer(timeout, player.stop)
                timer.daemon = True
                timer.start()
                try:
                    reply = player.play(board, limit)
                finally:
                    timer.cancel()
            except PlayerError as exc:
                reason = f"{self.name} failed: {exc.detail}"
                self._drop()
            except Exception as exc:  # a player's bug: the tab is told, the server goes on
                reason = f"{self.name} failed: {exc}"
                self._drop()
            self._post(lambda: self._answer(generation, reply, reason, done))

        threading.Thread(target=work, name="play-opponent", daemon=True).start()

    def _answer(self, generation: int, reply: Info | None, reason: str,
                done: Done) -> None:
        """On the event loop: pass the answer on unless it was overtaken."""
        if generation != self._generation:
            return
        self.busy = False
        done(reply, reason)

    def _ready(self, game: int) -> Player:
        """The player, started if needed and told when a new game began."""
        with self._lock:
            player = self._player
            if player is not None and not player.healthy:
                player.close()
                player = None
            if player is None:
                player = self.spec.create()
                self._player = player
                self._game = -1
            fresh = self._game != game
            self._game = game
        if fresh:
            player.new_game(None)
        return player

    def _drop(self) -> None:
        """Close a failed player; the next move starts a fresh one."""
        with self._lock:
            player, self._player = self._player, None
        if player is not None:
            player.close()

    def cancel(self) -> None:
        """Forget the move in flight (its answer will be dropped) and stop its thinking."""
        if not self.busy:
            return
        self._generation += 1
        self.busy = False
        with self._lock:
            player = self._player
        if player is not None:
            player.stop()

    def close(self) -> None:
        """The tab has gone or changed opponent: stop and close the player (on a thread)."""
        self.cancel()
        with self._lock:
            player, self._player = self._player, None
        if player is not None:
            threading.Thread(target=player.close, name="play-opponent-close",
                             daemon=True).start()
