"""Generate connect-four test sets in the format and categories of Pascal Pons' sets.

Pons' public sets (``Test_L3_R1`` end-easy, ``Test_L2_R1`` middle-easy, ``Test_L2_R2``
middle-medium, ``Test_L1_R2`` begin-medium ...) hold 1000 lines ``MOVES SCORE`` each,
classified by the discs already played (L) and the moves left to the end under
perfect play (R).  They could not be downloaded here, so this script makes sets of
the same kind: random games cut at a random length, labelled by an independent
solver (the C++ solver of the ``bitbully`` package, ``pip install bitbully``), and
every label is checked against plies' own solver before it is written.

    python tools/connect4_sets.py --out tests/data/connect4 --count 1000 --seed 12
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from plies.games.connect4 import Connect4
from plies.games.connect4_solver import SIZE, Connect4Solver, win_score

# name: (Pons' file it imitates, fewest and most discs played, fewest and most moves left)
SETS: dict[str, tuple[str, int, int, int, int]] = {
    "end_easy": ("Test_L3_R1", 29, SIZE - 1, 1, 13),
    "middle_easy": ("Test_L2_R1", 15, 28, 1, 13),
    "middle_medium": ("Test_L2_R2", 15, 28, 14, 27),
}


def moves_left(moves: int, score: int) -> int:
    """Return the discs still to be played under perfect play (to the win, or to a full board)."""
    if score == 0:
        return SIZE - moves
    # The winner's last disc is disc number m + 1, with win_score(m) == |score| and m of
    # the winner's parity (the player to move wins when score > 0).
    parity = moves % 2 if score > 0 else (moves + 1) % 2
    for m in range(moves, SIZE):
        if m % 2 == parity and win_score(m) == abs(score):
            return m - moves + 1
    raise ValueError(f"score {score} impossible after {moves} discs")


def random_position(rng: random.Random, length: int) -> str | None:
    """Return ``length`` random moves that leave a game in play, or None if someone won."""
    game = Connect4()
    state = game.initial_state()
    text = []
    for _ in range(length):
        column = rng.choice(list(game.actions(state)))
        state = game.result(state, column)
        if state.winner is not None:
            return None
        text.append(str(column + 1))
    return "".join(text)


def main() -> int:
    """Write one file per set into ``--out``."""
    import bitbully as bb  # the independent peer solver

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("tests/data/connect4"))
    parser.add_argument("--count", type=int, default=1000, help="positions per set")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    peer = bb.BitBully(opening_book=None)
    ours = Connect4Solver()
    version = getattr(bb, "__version__", "0.0.79")
    for name in args.sets.split(","):
        pons_name, fewest, most, left_min, left_max = SETS[name]
        rng = random.Random(f"{args.seed}:{name}")
        seen: set[str] = set()
        lines = []
        start = time.perf_counter()
        while len(lines) < args.count:
            moves = random_position(rng, rng.randint(fewest, most))
            if moves is None or moves in seen:
                continue
            seen.add(moves)
            score = int(peer.mtdf(bb.Board.from_moves([int(c) - 1 for c in moves])))
            if not left_min <= moves_left(len(moves), score) <= left_max:
                continue
            mine = ours.solve(moves, best=False).score
            if mine != score:
                print(f"DISAGREE {moves}: bitbully {score}, plies {mine}", file=sys.stderr)
                return 1
            lines.append(f"{moves} {score}")
        header = (
            f"# {name}: like Pons' {pons_name} ({fewest}-{most} discs played, "
            f"{left_min}-{left_max} moves left under perfect play), {args.count} positions.\n"
            f"# source: tools/connect4_sets.py --seed {args.seed} (random games); scores "
            f"by bitbully {version} (C++ solver), each checked equal by plies' solver.\n"
        )
        (args.out / f"{name}.txt").write_text(header + "\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} positions in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
