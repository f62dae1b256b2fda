"""An outside UCI engine spoken to over plain pipes, for runs of many short searches.

``chess.engine`` runs an asyncio loop in a thread and parses every ``info``
line into python-chess objects, replaying each principal variation on a board.
At a few milliseconds per search (datagen at depth 7) that costs a large share
of the CPU the engine itself uses.  This player writes ``position``/``go`` and
reads lines with a blocking ``select``, keeping only the last score and depth,
so nearly all the CPU goes to the engine.  It keeps :class:`UciPlayer`'s
contract: a crash, a hang or a refused option becomes a :class:`PlayerError`.
Standard chess only (it sets no ``UCI_Chess960``).
"""

from __future__ import annotations

import contextlib
import subprocess

import chess

from plies.agents.player import MATE_CP, MovePlayer, MoveReply, MoveRequest, PlayerError
from plies.agents.process_player import EngineProcessPlayer
from plies.agents.spec import PlayerSpec
from plies.agents.uci_player import READY_TIMEOUT_S, refusal

# How long an engine may take to answer ``uci`` with ``uciok``.
HANDSHAKE_TIMEOUT_S = 10.0


def pipe_player(spec: PlayerSpec) -> MovePlayer:
    """A fresh player from ``spec``, an outside engine over pipes (agents as usual)."""
    if spec.kind == "uci":
        return PipeUciPlayer(spec.name, list(spec.command), dict(spec.options))
    return spec.create()


class PipeUciPlayer(EngineProcessPlayer):
    """A UCI engine driven by ``position``/``go`` over its stdin and stdout."""

    def __init__(self, name: str, command: list[str], options: dict[str, str]) -> None:
        """Start the engine and apply ``options``; a failure raises PlayerError('start')."""
        super().__init__(name, command, options)
        self._root: tuple[chess.Board, str] | None = None
        self._moves: list[str] = []
        self._last: chess.Move | None = None
        self._start()

    def _start(self) -> None:
        """Launch the process (own process group: Ctrl-C is the parent's) and configure it."""
        process = self._launch(self.command, stderr=subprocess.DEVNULL)
        with self._starting():
            process.send("uci")
            known = set()
            for line in process.read_until("uciok", HANDSHAKE_TIMEOUT_S):
                if line.startswith("id name "):
                    self.engine_name = line[8:].strip()
                elif line.startswith("option name "):
                    known.add(line[12:].split(" type ")[0].strip().lower())
            for key in self.options:
                if key.lower() not in known:
                    raise PlayerError("start", f"{self.name}: no option {key!r}")
            for key, value in self.options.items():
                process.send(f"setoption name {key} value {value}")
            process.send("isready")
            refused = refusal(process.read_until("readyok", READY_TIMEOUT_S))
            if refused is not None:
                raise PlayerError("start", f"{self.name}: refused an option: {refused}")
        self.engine_name = self.engine_name or self.name
        self.healthy = True

    def new_game(self, seed: int | None) -> None:
        """Tell the engine a new game starts and wait until it is ready."""
        self._root = None
        self._restart_if_broken()
        with self._starting("never answered isready"):
            process = self._running()
            process.send("ucinewgame\nisready")
            process.read_until("readyok", READY_TIMEOUT_S)

    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Send ``position``/``go`` and wait for ``bestmove`` no longer than the timeout."""
        with self._faults(request.timeout_s):
            process = self._running()
            # One write for both lines: each write wakes the engine.
            process.send(self._position(board) + "\n" + _go_command(board, request))
            lines = process.read_until("bestmove", request.timeout_s)
        score_cp, depth = _last_score(lines)
        return MoveReply(_bestmove(lines[-1]), score_cp, depth)

    def _position(self, board: chess.Board) -> str:
        """The ``position`` command for ``board``: its root and the moves played since."""
        # The referee plays a game on one board, adding moves: its root's FEN (costly in
        # python-chess) is worked out once per game, and only new moves are spelled out.
        stack = board.move_stack
        cached = self._root is not None and self._root[0] is board
        n = len(self._moves)
        if not cached or len(stack) < n or (n and stack[n - 1] != self._last):
            root = board.root().fen()
            self._root = (board, "startpos" if root == chess.STARTING_FEN else f"fen {root}")
            self._moves, n = [], 0
        self._moves.extend(m.uci() for m in stack[n:])
        self._last = stack[-1] if stack else None
        assert self._root is not None
        start = self._root[1]
        return f"position {start} moves {' '.join(self._moves)}" if stack else f"position {start}"


def _go_command(board: chess.Board, request: MoveRequest) -> str:
    """The ``go`` line for the request's budget (clocks, depth, nodes, move time)."""
    b = request.budget
    parts = ["go"]
    if b.time_left_ms is not None:
        own = b.time_left_ms
        opp = own if b.opponent_time_ms is None else b.opponent_time_ms
        white, black = (own, opp) if board.turn == chess.WHITE else (opp, own)
        parts += ["wtime", str(max(0, white)), "btime", str(max(0, black))]
        inc = b.increment_ms or 0
        parts += ["winc", str(inc), "binc", str(inc)]
        if b.moves_to_go:
            parts += ["movestogo", str(b.moves_to_go)]
    if b.depth is not None:
        parts += ["depth", str(b.depth)]
    if b.nodes is not None:
        parts += ["nodes", str(b.nodes)]
    if b.movetime_ms is not None:
        parts += ["movetime", str(b.movetime_ms)]
    return " ".join(parts)


def _last_score(lines: list[str]) -> tuple[int | None, int | None]:
    """The last score (centipawns, mates at ``MATE_CP``) and depth the ``info`` lines gave."""
    score: int | None = None
    depth: int | None = None
    for line in reversed(lines):
        if not line.startswith("info ") or line.startswith("info string"):
            continue
        tokens = line.split()
        for i, token in enumerate(tokens[:-1]):
            if token in ("pv", "string"):
                break  # the rest is moves or text
            if token == "depth" and depth is None:
                with contextlib.suppress(ValueError):
                    depth = int(tokens[i + 1])
            elif token == "score" and score is None and i + 2 < len(tokens):
                kind, value = tokens[i + 1], tokens[i + 2]
                with contextlib.suppress(ValueError):
                    if kind == "cp":
                        score = int(value)
                    elif kind == "mate":
                        moves = int(value)
                        score = MATE_CP - moves if moves > 0 else -MATE_CP - moves
        if score is not None and depth is not None:
            break
    return score, depth


def _bestmove(line: str) -> chess.Move | None:
    """The move of a ``bestmove`` line (the referee judges it); None for ``(none)``."""
    tokens = line.split()
    if len(tokens) < 2 or tokens[1] == "(none)":
        return None
    try:
        return chess.Move.from_uci(tokens[1])
    except ValueError:
        raise PlayerError("illegal", f"unreadable move {tokens[1]!r}") from None
