"""Analysis for one browser tab: a PGN or FEN in, the engine's verdict on every position out.

Positions are searched one after another (one search at a time), each within a short
limit, and every verdict is sent as soon as it is known, so the page can fill in the
evaluation graph while the engine works. Stepping through moves only redraws the board.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from plies.board import Board, InvalidFenError, Move
from plies.board.svg import render_board
from plies.engine import Info, Limit
from plies.engine.limits import ANALYSIS_MOVETIME_MS
from plies.engine.score import Cp, Mate, PovScore, pov, score_int
from plies.web.errors import ApiError
from plies.web.fields import get_int, get_str
from plies.web.notation import info_json, pv_san, score_fields
from plies.web.pgn import MAX_PLIES, MainLine, read_main_line
from plies.web.runner import Emit, Post, RunnerSession, SearchRunner

PgnReader = Callable[[str], Awaitable[MainLine]]

MIN_MOVETIME_MS = 10
MAX_MOVETIME_MS = 30_000
#: Engine time for a whole analysis by default: a long game gets less per position.
BUDGET_MS = 300_000
#: The graph's reach either way, in centipawns from White's side (the page draws up to
#: this): a mate or a won game sits at its edge.
GRAPH_CP = 1000
START_FEN = Board().fen()


async def _read_in_thread(text: str) -> MainLine:
    """Read a PGN in a thread of this process (no time limit: for use without a server)."""
    return await asyncio.to_thread(read_main_line, text, MAX_PLIES)


def graph_cp(score: PovScore) -> int:
    """Where the graph puts ``score``: White's centipawns, capped at ``GRAPH_CP``."""
    return max(-GRAPH_CP, min(GRAPH_CP, score_int(score.white())))


def movetime_within(requested_ms: int, positions: int, budget_ms: int) -> int:
    """The time per position: as requested, unless ``positions`` of it exceed the budget."""
    return max(MIN_MOVETIME_MS, min(requested_ms, budget_ms // max(1, positions)))


class AnalysisSession(RunnerSession):
    """One tab's analysis: the positions of a game and the engine going through them.

    Positions are kept as FEN strings (about 70 bytes each) with the moves in UCI and
    SAN; one board follows the engine from the start to the end, so each search still
    sees the game's history (repetitions) and no board per position is kept.
    """

    def __init__(
        self,
        emit: Emit,
        post: Post,
        runner: SearchRunner | None = None,
        read_pgn: PgnReader = _read_in_thread,
        budget_ms: int = BUDGET_MS,
    ) -> None:
        """An empty analysis; ``emit`` sends JSON to the tab, ``read_pgn`` reads a PGN."""
        super().__init__(emit, post, runner)
        self._read_pgn = read_pgn
        self.budget_ms = budget_ms
        self.fens: list[str] = [START_FEN]
        self.moves: list[str] = []
        self.sans: list[str] = []
        self.flipped = False
        self.movetime_ms = ANALYSIS_MOVETIME_MS
        self._next = 0
        self._cursor = Board()
        """The position the engine is at (index ``_next``), with the moves that led there."""

    async def handle(self, message: dict[str, Any]) -> None:
        """Act on one analysis message; ``ApiError`` if it is bad (nothing changes)."""
        kind = get_str(message, "type", max_len=32)
        if kind == "analyse":
            await self._analyse(message)
        elif kind == "view":
            self.send_position(get_int(message, "index", 0, len(self.fens) - 1))
        elif kind == "flip":
            index = get_int(message, "index", 0, len(self.fens) - 1, 0)
            self.flipped = not self.flipped
            self.send_position(index)
        elif kind == "stop":
            self._runner.cancel()
            self._emit({"type": "analysis_done", "stopped": True})
        else:
            raise ApiError(f"unknown message type {kind!r}")

    async def _analyse(self, message: dict[str, Any]) -> None:
        """Read the game or position and start going through it."""
        movetime = get_int(message, "movetime", 10, MAX_MOVETIME_MS, ANALYSIS_MOVETIME_MS)
        pgn = get_str(message, "pgn", "")
        fen = get_str(message, "fen", "", max_len=200).strip()
        if pgn.strip():
            line = await self._read_pgn(pgn)
            fens, moves, sans = list(line.fens), list(line.moves), list(line.sans)
        elif fen:
            fens, moves, sans = [fen], [], []
        else:
            raise ApiError("paste a PGN or a FEN to analyse")
        try:
            root = Board(fens[0])
            root.check_playable()  # a kingless or otherwise unplayable position is refused
        except InvalidFenError as exc:
            raise ApiError(f"bad FEN: {exc}") from None
        fens[0] = root.fen()
        self._runner.cancel()
        self.fens, self.moves, self.sans = fens, moves, sans
        self.movetime_ms = movetime_within(movetime, len(fens), self.budget_ms)
        self._cursor = root
        self._emit(
            {
                "type": "analysis",
                "moves": sans,
                "fens": fens,
                "movetime": self.movetime_ms,
            }
        )
        self.send_position(0)
        self._next = 0
        self._analyse_next()

    def _advance(self) -> bool:
        """Move the engine's board on to the next position; False if that move is illegal."""
        if self._next < len(self.moves):
            move = Move.from_uci(self.moves[self._next])
            if not self._cursor.is_legal(move):
                self._emit({"type": "error", "message": f"illegal move {move.uci()} "
                            f"after {self._next} plies"})  # fmt: skip
                self._emit({"type": "analysis_done", "stopped": True})
                return False
            self._cursor.push(move)
        self._next += 1
        return True

    def _analyse_next(self) -> None:
        """Search the next position, or report that all are done."""
        while self._next < len(self.fens):
            index = self._next
            board = self._cursor
            outcome = board.outcome(claim_draw=False)
            if outcome is None:
                self._runner.start(
                    board,
                    Limit(movetime=self.movetime_ms),
                    info_json,
                    partial(self._on_info, index),
                    partial(self._on_done, index),
                )
                return
            # The mover is mated (python-chess's mate in 0) or the game is drawn.
            score = pov(Mate(0) if outcome.winner is not None else Cp(0), board.turn)
            self._emit(
                {"type": "eval", "index": index, **score_fields(score),
                 "score": outcome.result(), "graph_cp": graph_cp(score), "best": "", "pv": "",
                 "depth": 0}
            )  # fmt: skip
            if not self._advance():
                return
        self._emit({"type": "analysis_done", "stopped": False})

    def _on_info(self, index: int, payload: dict[str, Any]) -> None:
        """The engine's progress on position ``index``."""
        self._emit({"type": "analysis_info", "index": index, **payload})

    def _on_done(self, index: int, result: Info) -> None:
        """One position is done: send its verdict and go on."""
        board = self._cursor
        payload: dict[str, Any] = {"type": "eval", "index": index}
        if result.score is None or result.move is None:
            payload.update(score_fields(None), graph_cp=0, best="", pv="", depth=0)
        else:
            payload.update(
                score_fields(result.score), graph_cp=graph_cp(result.score),
                best=board.san(result.move), pv=pv_san(board, result), depth=result.depth,
            )  # fmt: skip
        self._emit(payload)
        if self._advance():
            self._analyse_next()

    def send_position(self, index: int) -> None:
        """Send position ``index`` (0 = the start) with the move that led to it."""
        board = Board(self.fens[index])
        last = Move.from_uci(self.moves[index - 1]) if index > 0 else None
        self._emit(
            {
                "type": "position",
                "index": index,
                "fen": board.fen(),
                "svg": render_board(board, self.flipped, last),
                "move": self.sans[index - 1] if index > 0 else None,
            }
        )
