"""The child process a user's Python mind runs in: ``python -m plies.agents.mind_child``.

Arguments: ``file PATH NAME`` or ``module MODULE NAME``.  It speaks JSON lines
with :class:`plies.agents.python_player.PythonMindPlayer` on a private copy of
the standard input and output (the mind's own ``print`` goes to standard error,
its ``input()`` reads nothing):

- first it answers ``{"ready": TITLE}``, or ``{"error": REASON}`` and exits;
- ``{"op": "new", "seed": S}`` -> ``{"ok": true}``;
- ``{"op": "move", "root": FEN?, "chess960": B, "moves": [UCI...], "limit": {...}}``
  (``root`` set: the game starts over from that FEN; the moves are those played
  since the last request; ``limit`` a :class:`~plies.engine.limits.Limit`'s fields)
  -> ``{"move": UCI, "score": {"cp": N} | {"mate": N} | null, "depth": D}`` (the score
  from the mover's side, a mate in N moves), ``{"resigned": true}``, or
  ``{"error": REASON, "kind": "crash"|"illegal"}`` when the mind raised or answered
  something that is not a legal move.

The mind is loaded into a :class:`~plies.agents.player.Player` by
:func:`plies.agents.user_code.as_mind`, and asked with ``play(board, limit)``.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from plies.agents.function_player import BadAnswerError, answer_move
from plies.agents.player import Player
from plies.agents.user_code import LoadError, as_mind, load_object

if TYPE_CHECKING:
    from plies.engine.limits import Info


def _where(exc: BaseException, source: str) -> str:
    """`` (FILE line N)`` for the deepest frame of the traceback in the user's code."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == source]
    if not frames:
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if "plies" not in Path(f.filename).parts]
    if not frames:
        return ""
    frame = frames[-1]
    return f" ({Path(frame.filename).name} line {frame.lineno})"


def score_fields(info: Info) -> dict[str, Any]:
    """The score and depth of ``info`` as the parent reads them (the mover's side)."""
    if info.score is None:
        return {"score": None, "depth": info.depth}
    mate = info.score.relative.mate()
    if mate is not None:
        return {"score": {"mate": mate}, "depth": info.depth}
    return {"score": {"cp": info.score.relative.score()}, "depth": info.depth}


def serve(player: Player, source: str, inp: IO[str], out: IO[str]) -> None:
    """Answer requests until the input ends or says ``quit``."""
    from plies.board import Board, Move
    from plies.engine.limits import Limit

    board = Board()

    def say(message: dict[str, Any]) -> None:
        """Write one JSON line, flushed."""
        out.write(json.dumps(message) + "\n")
        out.flush()

    for line in inp:
        request = json.loads(line)
        op = request.get("op")
        if op == "quit":
            return
        if op == "new":
            try:
                player.new_game(request.get("seed"))
            except Exception as exc:
                say({"error": f"{type(exc).__name__}: {exc}{_where(exc, source)}",
                     "kind": "crash"})
                continue
            say({"ok": True})
            continue
        if request.get("root") is not None:
            board = Board(request["root"], chess960=bool(request.get("chess960")))
        for uci in request.get("moves", ()):
            board.push(Move.from_uci(uci))
        try:
            info = player.play(board, Limit(**request.get("limit", {})))
        except BadAnswerError as exc:
            say({"error": exc.detail, "kind": "illegal"})
            continue
        except Exception as exc:
            say({"error": f"{type(exc).__name__}: {exc}{_where(exc, source)}", "kind": "crash"})
            continue
        if info.resigned:
            say({"resigned": True})
            continue
        try:
            move = answer_move(board, info.move)
        except BadAnswerError as exc:
            say({"error": exc.detail, "kind": "illegal"})
            continue
        say({"move": move.uci(), **score_fields(info)})


def _warm_board() -> None:
    """Load the compiled board functions a mind is likely to call, before saying ready.

    Each compiled function loads from the cache on its first call; on a busy machine the
    first move's loads alone could outlast a short move timeout, which would count
    against the mind as a hang.
    """
    from plies.board import Board

    board = Board("r3k2r/pPp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1")
    for move in board.legal_moves:
        board.is_capture(move)
        board.gives_check(move)
        board.san(move)
        board.is_legal(move)
    child = board.copy()
    child.push(child.legal_moves[0])
    child.is_check()
    child.outcome()
    child.fen()
    child.pop()


def main(argv: list[str]) -> int:
    """Load the mind named by ``argv`` and serve the parent on private pipes."""
    # The protocol gets its own copies of the pipes; the mind's prints go to stderr.
    inp = os.fdopen(os.dup(0), "r", encoding="utf-8")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    kind, target, name = argv
    source = str(Path(target).resolve()) if kind == "file" else ""
    try:
        player = as_mind(load_object(kind, target, name), name)
        _warm_board()
    except Exception as exc:
        reason = str(exc) if isinstance(exc, LoadError) else f"{type(exc).__name__}: {exc}"
        out.write(json.dumps({"error": reason + _where(exc, source)}) + "\n")
        out.flush()
        return 1
    out.write(json.dumps({"ready": player.name}) + "\n")
    out.flush()
    serve(player, source, inp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
