"""Search speed with the learnt evaluation (net) beside the classical one, measured in one run.

Searches the ``plies bench`` positions to a fixed depth, alternately with the
classical evaluation and with a net (``--net FILE``, or a seeded random net of
``--hidden`` width written to a temporary file), ``--repeat`` times, and prints
for each the node count (the behaviour signature: the classical one must equal
``plies bench``'s) and the speed in nodes per CPU second of this process (the
search runs in the calling thread; other load on a shared machine does not
inflate CPU time as it does wall time), best of the repeats, and the ratio.
It also times perft (make/unmake without evaluation) on a position without a
net, so runs of two checkouts show what the accumulator hooks cost the
classical engine. Run it under an older checkout's ``PYTHONPATH`` (no net
support there) to get that checkout's classical figures only.

Usage: python benchmarks/bench_nnue.py [--depth D] [--repeat N] [--net FILE] [--hidden H]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

import plies.core as core
from harness import clocked, in_turn, machine_line
from plies.board import Board
from plies.engine import Engine, Limit
from plies.uci.bench import BENCH_HASH_MB, BENCH_POSITIONS

PERFT_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFT_DEPTH = 4


def random_net(path: Path, hidden: int, seed: int = 1) -> Path:
    """Write a seeded random net of the spec's format (weights in range, varied activations)."""
    rng = np.random.default_rng(seed)
    np.savez(
        path,
        ft_weight=np.clip(rng.normal(0, 0.1, (768, hidden)), -1.98, 1.98).astype(np.float32),
        ft_bias=rng.uniform(-0.2, 0.8, hidden).astype(np.float32),
        out_weight=rng.uniform(-1.0, 1.0, 2 * hidden).astype(np.float32),
        out_bias=np.array([0.01], dtype=np.float32),
        scale=np.array([400.0], dtype=np.float32),
        format=np.array([1], dtype=np.int64),
    )
    return path


def bench(engine: Engine, depth: int) -> tuple[int, float]:
    """Nodes and CPU seconds of the bench searches (tables cleared before each position)."""
    nodes = 0
    cpu = 0.0
    for _, fen in BENCH_POSITIONS:
        engine.new_game()
        board = Board(fen)
        search = clocked(lambda board=board: engine.search(board, Limit(depth=depth)))
        cpu += search.cpu
        nodes += search.value.nodes
    return nodes, cpu


def perft_speed() -> tuple[int, float]:
    """Nodes and CPU seconds of a perft without a net."""
    pos = core.copy_position(Board(PERFT_FEN).core_position())
    perft = clocked(lambda: int(core.perft_nodes(pos, PERFT_DEPTH)))
    return perft.value, perft.cpu


def main() -> None:
    """Run the benches alternately and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=13, help="bench depth (default 13)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--net", type=Path, help="net file (default: a random one)")
    parser.add_argument("--hidden", type=int, default=128, help="random net width (128)")
    args = parser.parse_args()
    print(machine_line(), flush=True)

    has_net = hasattr(core, "attach_net")
    classical = Engine(BENCH_HASH_MB)
    if has_net:
        classical.set_net(None)  # the packaged net is the default since it shipped
    classical.warm_up()
    with_net = None
    if has_net:
        with tempfile.TemporaryDirectory() as tmp:
            path = args.net or random_net(Path(tmp) / "random.npz", args.hidden)
            with_net = Engine(BENCH_HASH_MB)
            with_net.set_option("EvalFile", str(path))
            with_net.set_option("UseNet", "true")
        with_net.search(Board(), Limit(depth=3))  # compile outside the timing
    perft_speed()

    measures = {"classical": lambda: bench(classical, args.depth)}
    if with_net is not None:
        measures["net"] = lambda: bench(with_net, args.depth)
    measures["perft"] = perft_speed
    runs = dict(zip(measures, in_turn(list(measures.values()), args.repeat), strict=True))
    best = {name: r.timing(lambda n: n[0] / n[1], highest=True) for name, r in runs.items()}
    signature = {name: r.results[-1][0] for name, r in runs.items()}

    for name, t in best.items():
        print(f"{name:<10} nodes {signature[name]:>9}   {t.best / 1000:8.0f} k nodes/CPU s "
              f"(median {t.median / 1000:.0f} k of {t.runs}, load {t.load:.1f})")
    if "net" in best:
        net = with_net.net if with_net is not None else None
        width = net.hidden if net is not None else 0
        speed = best["net"].best / best["classical"].best
        print(f"net / classical speed: {speed:.2f} (hidden {width})")


if __name__ == "__main__":
    main()
