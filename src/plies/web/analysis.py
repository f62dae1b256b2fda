"""Analysis for one browser tab: a PGN or FEN in, the engine's verdict on every position out.

Positions are searched one after another (one search at a time), each within a short
limit, and every verdict is sent as soon as it is known, so the page can fill in the
evaluation graph while the engine works. Stepping through moves only redraws the board.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import partial
from typing import Any

import chess
import chess.pgn

from plies.board import WHITE, Board, InvalidFenError, Move
from plies.engine import Limit, SearchResult
from plies.web.board_svg import render_board
from plies.web.errors import ApiError
from plies.web.fields import get_int, get_str
from plies.web.notation import info_json, pv_san, score_text, white_score
from plies.web.runner import Post, SearchRunner

Emit = Callable[[dict[str, Any]], None]

#: Longest game analysed, in plies.
MAX_PLIES = 1000
DEFAULT_MOVETIME_MS = 300
MAX_MOVETIME_MS = 30_000
#: Where the graph puts a mate or a finished game, in centipawns from White's side.
MATE_CP = 2000


def positions_from_pgn(text: str) -> tuple[list[Board], list[str]]:
    """The positions of the first game in a PGN (start first) and the moves in SAN."""
    try:
        game = chess.pgn.read_game(io.StringIO(text))
    except (ValueError, KeyError) as exc:
        raise ApiError(f"could not read the PGN: {exc}") from None
    if game is None:
        raise ApiError("no game found in the PGN")
    if game.errors:
        raise ApiError(f"bad PGN: {game.errors[0]}")
    try:
        board = Board(game.board().fen())
    except InvalidFenError as exc:
        raise ApiError(f"bad FEN in the PGN: {exc}") from None
    boards = [board.copy()]
    sans: list[str] = []
    for move in game.mainline_moves():
        if len(sans) >= MAX_PLIES:
            raise ApiError(f"the game is too long to analyse (more than {MAX_PLIES} plies)")
        ours = Move.from_uci(move.uci())
        if not board.is_legal(ours):
            raise ApiError(f"illegal move {move.uci()} after {len(sans)} plies")
        sans.append(board.san(ours))
        board.push(ours)
        boards.append(board.copy())
    return boards, sans


class AnalysisSession:
    """One tab's analysis: the positions of a game and the engine going through them."""

    def __init__(self, emit: Emit, post: Post) -> None:
        """An empty analysis; ``emit`` sends JSON to the tab."""
        self._emit = emit
        self._runner = SearchRunner(post)
        self.boards: list[Board] = [Board()]
        self.sans: list[str] = []
        self.flipped = False
        self.movetime_ms = DEFAULT_MOVETIME_MS
        self._next = 0

    def handle(self, message: dict[str, Any]) -> None:
        """Act on one analysis message; ``ApiError`` if it is bad (nothing changes)."""
        kind = get_str(message, "type", max_len=32)
        if kind == "analyse":
            self._analyse(message)
        elif kind == "view":
            self.send_position(get_int(message, "index", 0, len(self.boards) - 1))
        elif kind == "flip":
            index = get_int(message, "index", 0, len(self.boards) - 1, 0)
            self.flipped = not self.flipped
            self.send_position(index)
        elif kind == "stop":
            self._runner.cancel()
            self._emit({"type": "analysis_done", "stopped": True})
        else:
            raise ApiError(f"unknown message type {kind!r}")

    def _analyse(self, message: dict[str, Any]) -> None:
        """Read the game or position and start going through it."""
        movetime = get_int(message, "movetime", 10, MAX_MOVETIME_MS, DEFAULT_MOVETIME_MS)
        pgn = get_str(message, "pgn", "")
        fen = get_str(message, "fen", "", max_len=200).strip()
        if pgn.strip():
            boards, sans = positions_from_pgn(pgn)
        elif fen:
            try:
                boards, sans = [Board(fen)], []
            except InvalidFenError as exc:
                raise ApiError(f"bad FEN: {exc}") from None
        else:
            raise ApiError("paste a PGN or a FEN to analyse")
        self._runner.cancel()
        self.boards, self.sans, self.movetime_ms = boards, sans, movetime
        self._emit(
            {
                "type": "analysis",
                "moves": sans,
                "fens": [b.fen() for b in boards],
                "movetime": movetime,
            }
        )
        self.send_position(0)
        self._next = 0
        self._analyse_next()

    def _analyse_next(self) -> None:
        """Search the next position, or report that all are done."""
        while self._next < len(self.boards):
            index = self._next
            board = self.boards[index]
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
            winner = outcome.winner
            cp = 0 if winner is None else (MATE_CP if winner == WHITE else -MATE_CP)
            self._emit(
                {"type": "eval", "index": index, "score": outcome.result(), "score_cp": cp,
                 "score_mate": None, "graph_cp": cp, "best": "", "pv": "", "depth": 0}
            )  # fmt: skip
            self._next += 1
        self._emit({"type": "analysis_done", "stopped": False})

    def _on_info(self, index: int, payload: dict[str, Any]) -> None:
        """The engine's progress on position ``index``."""
        self._emit({"type": "analysis_info", "index": index, **payload})

    def _on_done(self, index: int, result: SearchResult) -> None:
        """One position is done: send its verdict and go on."""
        board = self.boards[index]
        info = result.info
        payload: dict[str, Any] = {"type": "eval", "index": index}
        if info is None or result.best_move is None:
            payload.update(score="?", score_cp=None, score_mate=None, graph_cp=0, best="", pv="")
            payload["depth"] = 0
        else:
            cp, mate = white_score(info, board.turn)
            graph = cp if mate is None else (MATE_CP if mate > 0 else -MATE_CP)
            payload.update(
                score=score_text(cp, mate), score_cp=cp, score_mate=mate,
                graph_cp=max(-MATE_CP, min(MATE_CP, graph or 0)),
                best=board.san(result.best_move), pv=pv_san(board, info), depth=info.depth,
            )  # fmt: skip
        self._emit(payload)
        self._next = index + 1
        self._analyse_next()

    def send_position(self, index: int) -> None:
        """Send position ``index`` (0 = the start) with the move that led to it."""
        board = self.boards[index]
        last = board.move_stack[-1] if board.move_stack else None
        self._emit(
            {
                "type": "position",
                "index": index,
                "fen": board.fen(),
                "svg": render_board(board, self.flipped, last),
                "move": self.sans[index - 1] if index > 0 else None,
            }
        )

    @property
    def searching(self) -> bool:
        """Whether this session's engine is searching."""
        return self._runner.searching

    def close(self) -> None:
        """The tab has gone: stop any search."""
        self._runner.cancel()
