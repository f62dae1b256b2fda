"""A user's Python mind (``FILE.py[:NAME]``, ``package.module:NAME``) playing from a child process.

The mind's code never runs in the referee's process: a child
(:mod:`plies.agents.mind_child`) imports it and answers one JSON line per
move.  An exception, an answer that is not a legal move, a child that dies or
a move past the timeout is a :class:`PlayerError` (the game is lost); the child
is then killed, with its process group, and the next game starts a new one.
The mind cannot be told to stop: ``stop()`` kills the child.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chess

from plies.agents.player import PlayerError
from plies.agents.process import NoReplyError, ProcessGoneError
from plies.agents.process_player import ProcessPlayer
from plies.engine.limits import Info
from plies.engine.score import Cp, Mate, PovScore

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Limit
    from plies.sandbox import Jail

# How long a child may take to import the mind and the compiled board (a first run compiles).
LOAD_TIMEOUT_S = 300.0


def child_env(search_path: Sequence[str]) -> dict[str, str]:
    """Our environment, with ``search_path`` (then this process's own path) as PYTHONPATH."""
    env = dict(os.environ)
    entries = [p for p in (*search_path, *sys.path) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(entries))
    return env


class PythonMindPlayer(ProcessPlayer):
    """A user's Python function or class, run in a child process of its own."""

    goodbye = json.dumps({"op": "quit"})

    def __init__(self, name: str, kind: str, target: str, attr: str,
                 search_path: Sequence[str] = (), jail: Jail | None = None) -> None:
        """Start the child and load the mind now, so a mind that cannot load fails at once.

        ``kind`` is 'file' (``target`` a path) or 'module' (a dotted module name);
        ``search_path`` comes before this process's ``sys.path`` in the child's; the child
        runs in ``jail`` if given.
        """
        super().__init__(name, [sys.executable, "-m", "plies.agents.mind_child", kind, target,
                                attr], jail)
        self.kind = kind
        self.target = target
        self.attr = attr
        self.search_path = tuple(search_path)
        self.title = ""
        self._board: Board | None = None
        self._sent: list[chess.Move] = []
        self._root = ""
        self._start()

    def _start(self) -> None:
        """Start the child and wait until it has loaded the mind (PlayerError('start') if not)."""
        self._launch(self.command, env=child_env(self.search_path))
        try:
            hello = self._receive(LOAD_TIMEOUT_S)
        except NoReplyError:
            self._kill()
            raise PlayerError("start", f"{self.name} did not load within "
                              f"{LOAD_TIMEOUT_S:g}s") from None
        except (ProcessGoneError, PlayerError) as exc:
            detail = self._explain(str(exc))
            self._kill()
            raise PlayerError("start", f"{self.name} did not load: {detail}") from None
        if "error" in hello:
            detail = self._explain(str(hello["error"]))
            self._kill()
            raise PlayerError("start", detail)
        self.title = str(hello.get("ready", self.name))
        self.healthy = True
        self._board = None

    def _receive(self, timeout_s: float | None) -> dict[str, Any]:
        """One JSON message from the child."""
        line = self._running().read_line(timeout_s)
        try:
            message = json.loads(line)
        except ValueError:
            raise PlayerError("crash", f"the child said {line[:80]!r}") from None
        if not isinstance(message, dict):
            raise PlayerError("crash", f"the child said {line[:80]!r}")
        return message

    def _ask(self, request: dict[str, Any], timeout_s: float | None) -> dict[str, Any]:
        """Send ``request`` and return the answer; faults become PlayerError (child killed)."""
        with self._answering(timeout_s):
            self._running().send(json.dumps(request))
            answer = self._receive(timeout_s)
        if "error" in answer:
            detail = self._explain(str(answer["error"]))
            self._kill()
            raise PlayerError(str(answer.get("kind", "crash")), detail)
        return answer

    def new_game(self, seed: int | None = None) -> None:
        """Start a fresh child if the last one broke, and let the mind reset."""
        self.last = None
        self._restart_if_broken()
        self._board = None
        try:
            self._ask({"op": "new", "seed": seed}, LOAD_TIMEOUT_S)
        except PlayerError as exc:
            raise PlayerError("start", exc.detail) from None

    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """Send the moves played since the last request and read the mind's move."""
        message: dict[str, Any] = {"op": "move", "limit": dataclasses.asdict(limit)}
        stack = board.move_stack
        n = len(self._sent)
        if self._board is not board or len(stack) < n or stack[:n] != self._sent:
            self._root = board.root().fen()
            message["root"] = self._root
            message["chess960"] = board.chess960
            self._board, self._sent, n = board, [], 0
        new = stack[n:]
        message["moves"] = [m.uci() for m in new]
        self._sent.extend(new)
        try:
            answer = self._ask(message, timeout_s)
        except PlayerError:
            self._board = None
            raise
        if answer.get("resigned"):
            info = Info(resigned=True)
        else:
            try:
                move = chess.Move.from_uci(str(answer.get("move")))
                score = _score(answer.get("score"), bool(board.turn))
                info = Info(move=move, score=score, depth=int(answer.get("depth") or 0))
            except (ValueError, TypeError, KeyError):
                self._kill()
                raise PlayerError("crash", f"the child sent {answer!r:.80}") from None
        self.last = info
        return info


def _score(fields: object, white: bool) -> PovScore | None:
    """The score the child sent (``{"cp": N}`` or ``{"mate": N}``, the mover's side)."""
    if fields is None:
        return None
    if not isinstance(fields, dict):
        raise ValueError(f"not a score: {fields!r}")
    if "mate" in fields:
        return PovScore(Mate(int(fields["mate"])), white)
    return PovScore(Cp(int(fields["cp"])), white)
