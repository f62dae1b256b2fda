"""The evaluation graph of an analysed game, drawn with matplotlib (Agg, no display needed).

The curve is White's evaluation in pawns after each move, clipped to
+-``CLIP_PAWNS`` so that one big swing does not flatten the rest (a mate
sits on the clip line); the area above zero is light (White better), below
dark (Black better).  Inaccuracies, mistakes and blunders are marked in
yellow, orange and red at the move that made them, labelled with the move.
"""

from __future__ import annotations

from pathlib import Path

import chess

from plies.analysis.game_review import GameAnalysis
from plies.analysis.judgement import Judgement
from plies.engine.score import score_int

CLIP_PAWNS = 6.0
"""Evaluations are drawn within +-this many pawns."""

MARK_COLOURS = {
    Judgement.INACCURACY: "#e6b800",
    Judgement.MISTAKE: "#f08c00",
    Judgement.BLUNDER: "#d62728",
}
"""Marker colour per judgement."""


def _pawns(analysis: GameAnalysis) -> list[float]:
    """White's evaluation in pawns: the start position, then after each move (clipped)."""
    values = []
    for position in analysis.positions():
        cp = score_int(position.score.white())
        values.append(max(-CLIP_PAWNS, min(CLIP_PAWNS, cp / 100)))
    return values


def plot_game(analysis: GameAnalysis, path: str | Path, title: str | None = None) -> None:
    """Draw the evaluation graph of ``analysis`` into the PNG file ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = _pawns(analysis)
    start_ply = analysis.game.board().ply()
    # x: the move number in the usual sense (after White's 1st move: 1, after Black's: 1.5).
    xs = [(start_ply + i) / 2 + 0.5 for i in range(len(values))]
    fig, ax = plt.subplots(figsize=(11, 4.2), dpi=110)
    try:
        ax.fill_between(xs, values, 0, where=[v >= 0 for v in values], color="#f2f2f2",
                        interpolate=True, label="White better")
        ax.fill_between(xs, values, 0, where=[v <= 0 for v in values], color="#3a3a3a",
                        interpolate=True, label="Black better")
        ax.plot(xs, values, color="#1f5fbf", linewidth=1.6)
        ax.axhline(0, color="#888888", linewidth=0.8)
        for judgement, colour in MARK_COLOURS.items():
            marked = [(i + 1, m) for i, m in enumerate(analysis.moves) if m.judgement is judgement]
            if not marked:
                continue
            ax.scatter([xs[i] for i, _ in marked], [values[i] for i, _ in marked], s=60,
                       color=colour, edgecolors="black", linewidths=0.6, zorder=3,
                       label=f"{judgement.label} ({len(marked)})")
            for i, m in marked:
                number = (start_ply + i - 1) // 2 + 1
                dots = "." if m.color == chess.WHITE else "..."
                ax.annotate(f"{number}{dots}{m.san}", (xs[i], values[i]),
                            textcoords="offset points", xytext=(0, 9 if values[i] <= 0 else -15),
                            ha="center", fontsize=8)
        ax.set_ylim(-CLIP_PAWNS - 0.5, CLIP_PAWNS + 0.5)
        if xs:
            ax.set_xlim(xs[0], max(xs[-1], xs[0] + 1))
        ax.set_facecolor("#bdbdbd")
        ax.set_xlabel("move")
        ax.set_ylabel(f"evaluation for White (pawns, clipped at ±{CLIP_PAWNS:g})")
        ax.set_title(title or _title(analysis))
        ax.grid(axis="y", color="#999999", linewidth=0.4, alpha=0.6)
        ax.legend(loc="upper left", fontsize=8, framealpha=0.9, ncol=5)
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)


def _title(analysis: GameAnalysis) -> str:
    """``Anand - Carlsen, 1/2-1/2 (game 1)``."""
    result = analysis.game.headers.get("Result", "*")
    return f"{analysis.white} - {analysis.black}, {result} (game {analysis.number})"
