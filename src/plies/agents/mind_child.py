"""The child process a user's Python mind runs in: ``python -m plies.agents.mind_child``.

Arguments: ``file PATH NAME`` or ``module MODULE NAME``.  It speaks JSON lines
with :class:`plies.agents.python_player.PythonMindPlayer` on a private copy of
the standard input and output (the mind's own ``print`` goes to standard error,
its ``input()`` reads nothing):

- first it answers ``{"ready": TITLE}``, or ``{"error": REASON}`` and exits;
- ``{"op": "new", "seed": S}`` -> ``{"ok": true}``;
- ``{"op": "move", "root": FEN?, "chess960": B, "moves": [UCI...], "budget": {...}}``
  (``root`` set: the game starts over from that FEN; the moves are those played
  since the last request) -> ``{"move": UCI, "score": CP?, "depth": D?}``, or
  ``{"error": REASON, "kind": "crash"|"illegal"}`` when the mind raised or
  answered something that is not a legal move.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import IO, Any

from plies.agents.user_code import LoadedMind, LoadError, as_mind, load_object


class BadAnswerError(Exception):
    """The mind returned something that is not a legal move here."""


def answer_uci(board: Any, answer: object) -> str:
    """The UCI text of the mind's answer (a Move, a UCI or a SAN string), checked legal."""
    from plies.board import Move

    if isinstance(answer, str):
        text = answer.strip()
        for parse in (board.parse_uci, board.parse_san):
            try:
                move = parse(text)
            except ValueError:
                continue
            if not move:  # "0000" or "--": python-chess reads a null move, no move of a game
                break
            return str(move.uci())
        raise BadAnswerError(f"returned {text[:40]!r}, not a legal move in UCI or SAN")
    uci = getattr(answer, "uci", None)
    if not callable(uci):
        raise BadAnswerError(f"returned {type(answer).__name__} {answer!r:.40}, not a move")
    text = str(uci())
    try:
        move = Move.from_uci(text)
    except ValueError:
        raise BadAnswerError(f"returned {text[:40]!r}, not a move") from None
    if not board.is_legal(move):
        raise BadAnswerError(f"returned {text}, not a legal move")
    return text


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


def _thought_fields(thought: Any) -> dict[str, Any]:
    """Score and depth from an Agent's ``last`` (mates on the arena's centipawn scale)."""
    from plies.agents.player import MATE_CP

    if thought is None:
        return {"score": None, "depth": None}
    score = thought.score_cp
    if thought.score_mate is not None:
        sign = 1 if thought.score_mate > 0 else -1
        score = sign * (MATE_CP - abs(thought.score_mate))
    return {"score": score, "depth": thought.depth or None}


def serve(mind: LoadedMind, source: str, inp: IO[str], out: IO[str]) -> None:
    """Answer requests until the input ends or says ``quit``."""
    from plies.board import Board, Move
    from plies.games.budget import Budget

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
                mind.new_game(request.get("seed"))
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
        budget = Budget(**request.get("budget", {}))
        try:
            answer, thought = mind.choose(board.copy(), budget)
        except Exception as exc:
            say({"error": f"{type(exc).__name__}: {exc}{_where(exc, source)}", "kind": "crash"})
            continue
        try:
            uci = answer_uci(board, answer)
        except BadAnswerError as exc:
            say({"error": str(exc), "kind": "illegal"})
            continue
        say({"move": uci, **_thought_fields(thought)})


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
        mind = as_mind(load_object(kind, target, name), name)
        _warm_board()
    except Exception as exc:
        reason = str(exc) if isinstance(exc, LoadError) else f"{type(exc).__name__}: {exc}"
        out.write(json.dumps({"error": reason + _where(exc, source)}) + "\n")
        out.flush()
        return 1
    out.write(json.dumps({"ready": mind.title}) + "\n")
    out.flush()
    serve(mind, source, inp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
