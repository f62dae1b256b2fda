"""Misjudged leads: where a player's own score said "winning" in games it did not win.

For every game of ``--player`` in a PGN written by ``plies arena --pgn``,
``plies sprt --pgn`` or ``benchmarks/strength.py --pgn`` (move comments
``+1.23/18 0.105s``; plain or compressed, as the archives in ``benchmarks/games/``)
that the player drew or lost, take the position where its
reported score peaked, below mate scores. A draw after a peak of at least
``--draw-peak`` pawns, or a loss after ``--loss-peak``, is a lead that was
either thrown away or never there. A reference engine (Stockfish by default)
searches each such position to ``--depth`` and tells which: when it also rates
the position clearly better, the lead was real and the conversion failed; when it
does not, the evaluation was overconfident.

The peak is the highest of many noisy scores of a game, so it is chosen where the
player's error was most in its favour: the mean overestimate printed is biased
upward. ``tools/calibration.py`` measures the evaluation's bias per material
class over all positions, without that selection.

Usage:
  python tools/misjudged.py games.pgn [--player plies] [--depth 20]
  python tools/misjudged.py games.pgn --engine /usr/games/stockfish --real 1.0
Not a test: it takes about a second per position.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from plies.analysis import PgnFileError, read_games

# The outside engines' paths are declared once, in the benchmarks' harness.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from harness import STOCKFISH

MATE_PAWNS = 100.0
"""A reported mate, in pawns (peaks are looked for below it)."""
_SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")


@dataclass(frozen=True)
class Peak:
    """The position where a player's reported score peaked in a game it did not win."""

    round: str
    outcome: str
    """``draw`` or ``loss``."""
    score: float
    """The player's own score there, pawns from its side."""
    board: chess.Board


def comment_score(comment: str) -> float | None:
    """The mover's score in a move comment (``+1.23/18 ...`` or ``-M3/20``), in pawns."""
    m = _SCORE.match(comment)
    if m is None:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    return sign * (MATE_PAWNS if m.group(2) else float(m.group(3)))


def peaks(path: Path, player: str, draw_peak: float, loss_peak: float) -> Iterator[Peak]:
    """Each drawn or lost game of ``player`` whose reported score peaked high enough."""
    for game in read_games(path):
        if isinstance(game, chess.pgn.Game):
            if player not in (game.headers.get("White"), game.headers.get("Black")):
                continue
            side = chess.WHITE if game.headers.get("White") == player else chess.BLACK
            result = game.headers.get("Result", "*")
            won = "1-0" if side == chess.WHITE else "0-1"
            if result in ("*", won):
                continue
            outcome = "draw" if result == "1/2-1/2" else "loss"
            best: float | None = None
            at: chess.Board | None = None
            node: chess.pgn.GameNode = game
            while node.variations:
                child = node.variations[0]
                board = node.board()
                score = comment_score(child.comment) if board.turn == side else None
                if score is not None and abs(score) < MATE_PAWNS and (best is None or score > best):
                    best, at = score, board
                node = child
            threshold = draw_peak if outcome == "draw" else loss_peak
            if best is not None and at is not None and best >= threshold:
                yield Peak(game.headers.get("Round", "?"), outcome, best, at)


def main() -> int:
    """Find the peaks, ask the reference engine about each, print rows and a summary."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pgn", type=Path, help="games with score comments")
    p.add_argument("--player", default="plies", help="the player's name in the PGN headers")
    p.add_argument("--draw-peak", type=float, default=2.0, help="pawns; drawn games (default 2)")
    p.add_argument("--loss-peak", type=float, default=1.0, help="pawns; lost games (default 1)")
    p.add_argument("--engine", default=STOCKFISH, help="reference UCI engine")
    p.add_argument("--depth", type=int, default=20, help="reference search depth (default 20)")
    p.add_argument("--real", type=float, default=1.0,
                   help="a lead the reference rates at this many pawns or more is real")
    args = p.parse_args()
    if not args.pgn.is_file():
        p.error(f"no such file: {args.pgn}")
    if shutil.which(args.engine) is None:
        p.error(f"reference engine not found: {args.engine}")
    try:
        found = list(peaks(args.pgn, args.player, args.draw_peak, args.loss_peak))
    except PgnFileError as exc:
        p.error(str(exc))
    if not found:
        print(f"no drawn or lost game of {args.player} with such a peak")
        return 0
    real = 0
    gaps = []
    with chess.engine.SimpleEngine.popen_uci(args.engine) as ref:
        for peak in found:
            info = ref.analyse(peak.board, chess.engine.Limit(depth=args.depth))
            score = info["score"].pov(peak.board.turn).score(mate_score=int(MATE_PAWNS * 100))
            theirs = score / 100
            real += theirs >= args.real
            gaps.append(peak.score - theirs)
            print(f"{peak.round:>4} {peak.outcome}  {args.player} {peak.score:+6.2f}  "
                  f"reference {theirs:+6.2f}  {peak.board.fen()}")
    print(f"{len(found)} peaks ({sum(p.outcome == 'draw' for p in found)} draws, "
          f"{sum(p.outcome == 'loss' for p in found)} losses): the reference at depth "
          f"{args.depth} agrees the lead was real (>= {args.real:+.2f}) in {real}, "
          f"not in {len(found) - real}; mean overestimate {sum(gaps) / len(gaps):+.2f} pawns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
