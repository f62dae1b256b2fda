"""Calibration of the engine's evaluation against scored training positions.

Reads ``plies datagen --scores`` lines (``FEN | score | result``) and compares the
engine's static evaluation with the reference score of each position:

1. By endgame material class (non-pawn pieces of each side, pawn difference; from the
   view of the side with more pawns, so "R vs R, +1" is the side a pawn up): the mean
   evaluation, the mean reference score and their mean difference. A class whose mean
   difference is large is one the evaluation misjudges systematically, which a search
   cannot fix and a fixed scale rule can.
2. Per output bucket of a residual net: the weight ``s`` on the classical evaluation
   that fits the targets best with the net frozen (``sigmoid((s * hce + net) / 400)``
   against the training target): ``s`` far from 1 would mean the net leaves the classical
   part too loud or too quiet in that phase.

The evaluation is the one the training loss sees: the classical evaluation plus the
residual net's output (a pure net's output alone; no fifty-move fade, no search),
centipawns. The scale table needs a residual net.

Usage:
  python tools/calibration.py positions.txt [--net src/plies/core/nets/default.npz]
  python tools/calibration.py positions.txt --min-rows 100 --top 30
Not a test: it takes about a minute per million positions.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from plies.core.netfile import DEFAULT_NET
from plies.learn.train.kernels import raw_outputs
from plies.learn.train.loader import Dataset, read_dataset
from plies.learn.train.network import BASE_HCE, SCALE, load_base, load_network
from plies.learn.train.residual import hce_centipawns
from plies.learn.train.target import stm_scores, targets

PIECE_LETTERS = "PNBRQK"
"""Feature kind k (1..6) is PIECE_LETTERS[k - 1]."""
MAX_ENDGAME_PIECES = 4
"""A position is an endgame here when both sides hold at most this many non-pawn pieces
(kings left out) together."""
SCALE_GRID = np.linspace(0.2, 1.8, 161)
"""The classical weights tried per bucket."""
WDL = 0.1
"""Weight of the game result in the target (``plies train``'s default)."""


def material(data: Dataset) -> np.ndarray:
    """int64 [n, 2, 7]: piece counts by colour (0 White, 1 Black) and kind (1..6)."""
    f = data.features.astype(np.int64)
    valid = f >= 0
    color = np.where(f >= 384, 1, 0)
    kind = np.where(valid, (f % 384) // 64 + 1, 0)
    counts = np.zeros((len(data), 2, 7), dtype=np.int64)
    for c in range(2):
        for k in range(1, 7):
            counts[:, c, k] = ((kind == k) & (color == c) & valid).sum(axis=1)
    return counts


def side_pieces(counts: np.ndarray) -> str:
    """The non-pawn pieces of one side's kind counts, strongest first ("" for none)."""
    return "".join(PIECE_LETTERS[k - 1] * int(counts[k]) for k in (5, 4, 3, 2))


def class_keys(counts: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Each row's class ("RB vs R, +1") from the side with more pawns (White on a tie),
    and the sign turning a side-to-move value into that side's view (+1 or -1) per row."""
    keys: list[str] = []
    strong = np.where(counts[:, 1, 1] > counts[:, 0, 1], 1, 0)
    for i in range(len(counts)):
        s = int(strong[i])
        us, them = counts[i, s], counts[i, 1 - s]
        keys.append(f"{side_pieces(us) or '-'} vs {side_pieces(them) or '-'}, "
                    f"+{int(us[1] - them[1])}")  # fmt: skip
    return keys, strong


def print_classes(data: Dataset, model: np.ndarray, min_rows: int, top: int) -> None:
    """The endgame classes' mean evaluation against the mean reference score."""
    counts = material(data)
    non_pawn = counts[:, :, 2:6].sum(axis=(1, 2))
    endgame = non_pawn <= MAX_ENDGAME_PIECES
    keys, strong = class_keys(counts)
    # Side-to-move values turned to the view of the side with more pawns.
    view = np.where(data.stm == strong, 1.0, -1.0)
    ours = model * view
    ref = stm_scores(data) * view
    tally = Counter(k for k, e in zip(keys, endgame, strict=True) if e)
    key_array = np.array(keys)
    print(f"endgames (at most {MAX_ENDGAME_PIECES} non-pawn pieces): {int(endgame.sum())} of "
          f"{len(data)} positions; classes with >= {min_rows} rows, most common first")
    print(f"{'class':24s} {'rows':>7s} {'ours':>7s} {'ref':>7s} {'ours-ref':>9s} {'|diff|':>7s}")
    for key, n in tally.most_common(top):
        if n < min_rows:
            break
        m = endgame & (key_array == key)
        print(f"{key:24s} {n:7d} {np.mean(ours[m]):+7.0f} {np.mean(ref[m]):+7.0f} "
              f"{np.mean(ours[m] - ref[m]):+9.0f} {np.mean(np.abs(ours[m] - ref[m])):7.0f}")


def _loss(raw: np.ndarray, target: np.ndarray) -> float:
    """Mean squared error of sigmoid(raw) against the target (the trainer's loss)."""
    return float(np.mean((1 / (1 + np.exp(-raw)) - target) ** 2))


def print_bucket_scales(data: Dataset, hce: np.ndarray, raw: np.ndarray, buckets: int) -> None:
    """Per bucket, the classical weight that fits the targets best with the net frozen."""
    target = targets(data, WDL).astype(np.float64)
    pieces = (data.features >= 0).sum(axis=1)
    bucket = np.clip((pieces - 2) * buckets // 32, 0, buckets - 1)
    base = hce / SCALE
    print(f"\nclassical weight per output bucket, net frozen (target wdl {WDL}):")
    print(f"{'bucket':>6s} {'rows':>8s} {'loss s=1':>9s} {'best s':>7s} {'loss':>9s}")
    for b in range(buckets):
        m = bucket == b
        if not m.any():
            continue
        losses = [_loss(s * base[m] + raw[m], target[m]) for s in SCALE_GRID]
        best = int(np.argmin(losses))
        one = _loss(base[m] + raw[m], target[m])
        print(f"{b:6d} {int(m.sum()):8d} {one:9.6f} {SCALE_GRID[best]:7.2f} {losses[best]:9.6f}")


def main(argv: list[str] | None = None) -> int:
    """Print both calibration tables for a position file."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="datagen lines FEN | score | result")
    ap.add_argument("--net", type=Path, default=DEFAULT_NET, help="residual net file")
    ap.add_argument("--min-rows", type=int, default=50, help="smallest class shown")
    ap.add_argument("--top", type=int, default=25, help="most classes shown")
    args = ap.parse_args(argv)
    try:
        data, _ = read_dataset(args.data)
        net = load_network(args.net)
        residual = load_base(args.net) == BASE_HCE
    except ValueError as exc:
        print(f"calibration: {exc}", file=sys.stderr)
        return 2
    rows = np.arange(len(data), dtype=np.int64)
    raw = raw_outputs(data.features, data.stm, rows, net.arrays())
    if not residual:
        print_classes(data, raw * SCALE, args.min_rows, args.top)
        return 0
    hce = hce_centipawns(data)[:, 0].astype(np.float64)
    print_classes(data, hce + raw * SCALE, args.min_rows, args.top)
    print_bucket_scales(data, hce, raw, net.buckets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
