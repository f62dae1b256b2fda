"""Engine results as UCI text: the ``info`` line of an iteration and the ``bestmove`` line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.engine.score import uci_score

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.engine import Info


def info_line(info: Info, show_wdl: bool = False) -> str:
    """``info depth .. seldepth .. multipv .. score .. [wdl W D L] nodes .. nps .. time .. pv``."""
    bound = info.bound
    parts = [
        f"info depth {info.depth}",
        f"seldepth {max(info.seldepth, info.depth)}",
        f"multipv {info.multipv}",
    ]
    if info.score is not None:
        parts.append(f"score {uci_score(info.score.relative)}" + (f" {bound}" if bound else ""))
    if show_wdl and info.wdl is not None:
        win, draw, loss = info.wdl
        parts.append(f"wdl {win} {draw} {loss}")
    parts += [
        f"nodes {info.nodes}",
        f"nps {info.nps}",
    ]
    if info.tbhits is not None:
        parts.append(f"tbhits {info.tbhits}")
    if info.hashfull is not None:
        parts.append(f"hashfull {info.hashfull}")
    parts.append(f"time {info.time_ms}")
    if info.pv:
        parts.append("pv " + " ".join(m.uci() for m in info.pv))
    return " ".join(parts)


def bestmove_line(board: Board, best: Move | None, ponder: Move | None) -> str:
    """``bestmove M [ponder P]``; ``0000`` without a move; a ponder move only if legal."""
    if best is None or not best:
        return "bestmove 0000"
    line = f"bestmove {best.uci()}"
    if ponder is not None and ponder:
        after = board.copy()
        after.push(best)
        if after.is_legal(ponder):
            line += f" ponder {ponder.uci()}"
    return line
