"""Does each evaluation term earn its place? Speed, a reference suite, and matches.

Three measurements, each printed beside its peer from the same run:

``speed``
    Nanoseconds per ``evaluate`` call over positions in search order (the
    grandchildren of positions from random games, siblings adjacent, as a
    search meets them), beside a material + piece-square evaluation compiled the
    same way (the floor any evaluation pays).
``suite``
    Quiet positions from Stockfish self-play games, labelled with Stockfish 15.1's
    score at a fixed depth. For the full evaluation and for each term switched
    off, the static score is mapped to an expected game score, ``1 / (1 +
    10**(-cp/400))``, with the best global scale for that evaluation, and
    compared with the label's: the mean squared error (lower is better). A term
    earns its place when switching it off makes the error grow.
``match``
    The full evaluation against the same engine with one term switched off:
    paired openings (each played with both colours), fixed nodes per move,
    through the arena (the harness's ``run_match`` and its tally), one game at a
    time. Each side is this script run as a UCI engine (``uci --off TERM``) whose
    search calls ``evaluate._evaluate`` with that term's weight at 0; each
    configuration compiles into its own numba cache directory so no cached search
    is shared between them.

Usage::

    python benchmarks/eval_ablation.py speed
    python benchmarks/eval_ablation.py suite --positions 1500 --depth 12
    python benchmarks/eval_ablation.py match --games 60 --nodes 6000 [--terms passed,mobility]

Not a test: ``suite`` takes a few minutes (Stockfish labels are cached under
``--work``), ``match`` about five minutes per term at the defaults.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness import (
    STOCKFISH,
    clocked,
    in_turn,
    load_text,
    machine_line,
    run_match,
    score_line,
)

if TYPE_CHECKING:
    import numpy as np

WORK = Path(os.environ.get("TMPDIR", "/tmp")) / "plies-eval-ablation"
# Terms the ablation switches off one at a time (material stays: without it
# there is no chess left to measure).
ABLATED = (
    "psqt", "pawns", "passed", "mobility", "king_safety",
    "bishop_pair", "rooks", "threats", "tempo",
)  # fmt: skip


def weights_without(off: str | None) -> list[int]:
    """The shipped weights with the term ``off`` (if any) at zero."""
    from plies.core.evaluate import TERM_NAMES, WEIGHTS

    w = [int(x) for x in WEIGHTS]
    if off is not None:
        if off not in TERM_NAMES:
            known = ", ".join(TERM_NAMES)
            raise SystemExit(f"eval_ablation: unknown term {off!r} (terms: {known})")
        w[TERM_NAMES.index(off)] = 0
    return w


# -- UCI worker ---------------------------------------------------------------------------


def run_uci_worker(off: str | None, warm: bool) -> int:
    """Serve UCI with the search evaluating through ``evaluate_weighted`` without ``off``.

    The caller must have set NUMBA_CACHE_DIR for this configuration before numba
    loads: cached search code embeds the evaluation it was compiled against.
    """
    import numpy as np
    from numba import njit

    import plies.core.static_eval as static_eval
    from plies.core.evaluate import evaluate_weighted
    from plies.core.position import Position

    weights = np.array(weights_without(off), dtype=np.int64)

    @njit(nogil=True)
    def variant(pos: Position) -> int:
        """The evaluation with this configuration's weights frozen in."""
        return evaluate_weighted(pos, weights)

    # static_eval.py imported the classical ``evaluate`` as ``classical``; the search's
    # compiled functions resolve that global when they are first compiled, not yet.
    static_eval.classical = variant  # type: ignore[attr-defined]
    if warm:
        from plies import Board, Engine, Limit

        engine = Engine(16)
        engine.warm_up()
        fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
        result = engine.search(Board(fen), Limit(depth=7))
        print(f"warm: off={off} depth-7 score {result.score} best {result.move}")
        return 0
    from plies.cli.uci import run

    return run(argparse.Namespace(tune=False))  # plies uci without --tune


def worker_env(off: str | None) -> dict[str, str]:
    """Environment of a worker process: its own numba cache directory."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(WORK / "numba" / (off or "full"))
    return env


def worker_command(off: str | None) -> list[str]:
    """Command line of a UCI worker for one configuration."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "uci"]
    return cmd + (["--off", off] if off else [])


# -- positions ----------------------------------------------------------------------------


def capture_biased(board: Any, rng: random.Random) -> Any:
    """A random legal move of a python-chess board, a capture four times in ten when there
    is one (so that the games reach every phase); None when there is no move."""
    moves = list(board.legal_moves)
    if not moves:
        return None
    captures = [m for m in moves if board.is_capture(m)]
    return rng.choice(captures if captures and rng.random() < 0.4 else moves)


def random_game_positions(games: int, seed: int) -> list[str]:
    """FENs from seeded random games (a mix of phases), one every few plies."""
    import chess

    rng = random.Random(seed)
    fens: list[str] = []
    for _ in range(games):
        board = chess.Board()
        for ply in range(rng.randrange(20, 140)):
            move = capture_biased(board, rng)
            if move is None:
                break
            board.push(move)
            if ply % 7 == 6:
                fens.append(board.fen())
    return fens


def search_order_positions(roots: int, seed: int) -> list[str]:
    """Grandchildren of ``roots`` random-game positions, siblings adjacent (search order)."""
    import chess

    fens = []
    for root in random_game_positions(roots, seed)[:roots]:
        board = chess.Board(root)
        for m in list(board.legal_moves)[:15]:
            board.push(m)
            for m2 in list(board.legal_moves)[:20]:
                board.push(m2)
                fens.append(board.fen())
                board.pop()
            board.pop()
    return fens


def position_arrays(fens: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Stacked piece bitboards and sides to move of the FENs."""
    import numpy as np

    from plies.board import Board
    from plies.board.squares import core_color
    from plies.core import position_arrays as arrays_of
    from plies.core.encoding import PIECE_SLOTS

    n = len(fens)
    bbs = np.zeros((n, PIECE_SLOTS), dtype=np.uint64)
    sides = np.zeros(n, dtype=np.int64)
    for i, fen in enumerate(fens):
        b = Board(fen)
        bbs[i] = arrays_of(b.core_position())[0]
        sides[i] = core_color(b.turn)  # the core's number: white 0
    return bbs, sides


# -- speed --------------------------------------------------------------------------------


def run_speed(args: argparse.Namespace) -> int:
    """Time ``evaluate`` beside a material + PST evaluation over search-order positions."""
    from numba import njit

    from plies.board import Board
    from plies.core.bits import U64, lsb
    from plies.core.eval_weights import MATERIAL_EG, MATERIAL_MG, PST_EG, PST_MG
    from plies.core.evaluate import evaluate
    from plies.core.position import Position

    @njit(nogil=True)
    def material_psqt(pos: Position) -> int:
        """Peer: tapered material and piece-square tables only."""
        mg = 0
        eg = 0
        phase = 0
        for color in range(2):
            sign = 1 - 2 * color
            flip = 56 * color
            for kind in range(1, 7):
                b = pos.pieces[color * 8 + kind]
                while b:
                    sq = lsb(b) ^ flip
                    b &= b - U64(1)
                    mg += sign * (MATERIAL_MG[kind] + PST_MG[kind, sq])
                    eg += sign * (MATERIAL_EG[kind] + PST_EG[kind, sq])
                    phase += (0, 0, 1, 1, 2, 4, 0)[kind]
        phase = min(phase, 24)
        score = (mg * phase + eg * (24 - phase)) // 24
        return score if pos.side == 0 else -score

    @njit(nogil=True)
    def copy_only(pos: Position) -> int:
        """Baseline: what the timing loop itself costs per position."""
        return int(pos.pieces[0] & U64(1)) + pos.side

    def timer(fn: Any) -> Any:
        """A compiled loop calling ``fn`` over every position ``reps`` times."""

        @njit
        def loop(pos: Position, bbs: np.ndarray, sides: np.ndarray, reps: int) -> int:
            """Sum of the scores (so nothing is optimised away)."""
            # Each position copied into one compiled position, as a search holds it.
            total = 0
            for _ in range(reps):
                for i in range(bbs.shape[0]):
                    for k in range(bbs.shape[1]):
                        pos.pieces[k] = bbs[i, k]
                    pos.side = sides[i]
                    total += fn(pos)
            return total

        return loop

    fens = search_order_positions(args.roots, args.seed)
    bbs, sides = position_arrays(fens)
    scratch = Board().core_position()
    loops = {
        "evaluate": timer(evaluate),
        "material+psqt": timer(material_psqt),
        "loop only": timer(copy_only),
    }
    for loop in loops.values():
        loop(scratch, bbs, sides, 1)
    calls = args.reps * len(fens)
    timed = in_turn([lambda loop=loop: clocked(lambda: loop(scratch, bbs, sides, args.reps)).cpu
                     for loop in loops.values()], args.rounds)
    best = {name: r.timing(lambda cpu: cpu / calls).best
            for name, r in zip(loops, timed, strict=True)}
    print(f"{len(fens)} positions in search order, best of {args.rounds} rounds (CPU time)")
    for name, t in best.items():
        print(f"  {name:<14} {t * 1e9:7.1f} ns/call")
    net = {k: best[k] - best["loop only"] for k in ("evaluate", "material+psqt")}
    print(
        f"  net of the loop: evaluate {net['evaluate'] * 1e9:.1f} ns, material+psqt "
        f"{net['material+psqt'] * 1e9:.1f} ns, ratio {net['evaluate'] / net['material+psqt']:.2f}x"
    )
    return 0


# -- suite --------------------------------------------------------------------------------


def build_suite(n: int, depth: int, seed: int) -> list[tuple[str, int]]:
    """Quiet positions from Stockfish self-play, with Stockfish's score (side to move)."""
    import chess
    import chess.engine

    path = WORK / f"suite-{seed}-{n}-d{depth}.json"
    if path.exists():
        return [(f, int(s)) for f, s in json.loads(path.read_text())]
    rng = random.Random(seed)
    suite: list[tuple[str, int]] = []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        sf.configure({"Threads": 1, "Hash": 16})
        while len(suite) < n:
            board = chess.Board()
            for _ in range(8):  # a random opening, so the games differ
                board.push(rng.choice(list(board.legal_moves)))
            candidates = []
            while not board.is_game_over() and board.ply() < 200:
                move = sf.play(board, chess.engine.Limit(nodes=3000)).move
                assert move is not None
                board.push(move)
                if board.ply() >= 16 and not board.is_check() and rng.random() < 0.25:
                    candidates.append(board.fen())
            for fen in candidates:
                b = chess.Board(fen)
                info = sf.analyse(b, chess.engine.Limit(depth=depth))
                score = info["score"].relative
                best = info.get("pv", [None])[0]
                if score.is_mate() or best is None:
                    continue
                cp = score.score()
                # Quiet: the best move wins nothing at once, so a static score can be fair.
                if cp is None or abs(cp) > 1500 or b.is_capture(best) or best.promotion:
                    continue
                suite.append((fen, cp))
            print(f"  suite: {len(suite)} positions labelled", file=sys.stderr)
    suite = suite[:n]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(suite))
    return suite


def expected(cp: np.ndarray) -> np.ndarray:
    """Expected game score of a centipawn advantage (logistic, 400 cp per factor of ten)."""
    import numpy as np

    return 1.0 / (1.0 + np.power(10.0, -cp / 400.0))


def fitted_error(ours: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """Mean squared expected-score error with the best scale of ``ours``, and that scale."""
    import numpy as np

    target = expected(ref)
    scales = np.linspace(0.3, 2.5, 221)
    errors = [float(np.mean((expected(ours * k) - target) ** 2)) for k in scales]
    i = int(np.argmin(errors))
    return errors[i], float(scales[i])


def run_suite(args: argparse.Namespace) -> int:
    """Score the full evaluation and each ablation against Stockfish's labels."""
    import numpy as np

    from plies.board import Board
    from plies.core.evaluate import evaluate_weighted

    suite = build_suite(args.positions, args.depth, args.seed)
    fens = [f for f, _ in suite]
    ref = np.array([s for _, s in suite], dtype=np.float64)
    positions = [Board(fen).core_position() for fen in fens]

    def scores(off: str | None, only_material: bool = False) -> np.ndarray:
        """Static scores of every suite position under one configuration."""
        w = np.array(weights_without(off), dtype=np.int64)
        if only_material:
            w[1:] = 0
        return np.array(
            [evaluate_weighted(pos, w) for pos in positions],
            dtype=np.float64,
        )

    full = scores(None)
    base, scale = fitted_error(full, ref)
    # Bootstrap over positions for an error bar on each difference.
    rng = np.random.default_rng(args.seed)
    picks = rng.integers(0, len(fens), size=(200, len(fens)))
    print(
        f"{len(fens)} quiet positions, Stockfish 15.1 depth {args.depth} labels; "
        f"error = mean squared expected-score error x 1e4 (lower is better)"
    )
    print(f"  {'full evaluation':<22} error {1e4 * base:7.2f}   (best scale {scale:.2f})")
    peer, peer_scale = fitted_error(scores(None, only_material=True), ref)
    print(f"  {'material only (peer)':<22} error {1e4 * peer:7.2f}   (best scale {peer_scale:.2f})")
    print(f"  {'term switched off':<22} {'error':>11} {'change':>9} {'95% range':>17}")
    target = expected(ref)
    for term in ABLATED:
        ours = scores(term)
        err, k = fitted_error(ours, ref)
        full_sq = (expected(full * scale) - target) ** 2
        off_sq = (expected(ours * k) - target) ** 2
        diffs = np.array([np.mean(off_sq[p] - full_sq[p]) for p in picks])
        lo, hi = np.percentile(diffs, [2.5, 97.5])
        print(
            f"  {term:<22} {1e4 * err:11.2f} {1e4 * (err - base):+9.2f} "
            f"   [{1e4 * lo:+6.2f}, {1e4 * hi:+6.2f}]"
        )
    return 0


# -- match --------------------------------------------------------------------------------


def balanced_openings(count: int, seed: int) -> list[Any]:
    """Random 6-ply openings whose full static evaluation is within a pawn of level."""
    import chess

    from plies.arena.openings import random_opening
    from plies.board import Board
    from plies.core import evaluate_position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        opening = random_opening(6, rng)
        board: chess.Board = opening.board()
        b = Board(board.fen())
        if abs(int(evaluate_position(b.core_position()))) < 100:
            out.append(opening)
    return out


def ablation_match(args: argparse.Namespace) -> int:
    """Play the full evaluation against each single-term ablation and print the Elo table."""
    import subprocess

    from rich.console import Console

    from plies.agents.spec import PlayerSpec
    from plies.arena.referee import Adjudication, GameSettings
    from plies.engine.limits import Limit

    terms = args.terms.split(",") if args.terms else list(ABLATED)
    for off in [None, *terms]:
        weights_without(off)  # reject unknown names before any compiling
    # Warm each configuration in turn (each compiles the engine once into its own cache).
    for off in [None, *terms]:
        warm = subprocess.run(
            [*worker_command(off), "--warm"], env=worker_env(off), capture_output=True, text=True
        )
        if warm.returncode != 0:
            print(warm.stderr, file=sys.stderr)
            raise SystemExit(f"eval_ablation: worker for off={off} failed to start")
        print(warm.stdout.strip())

    openings = balanced_openings((args.games + 1) // 2, args.seed)
    settings = GameSettings(
        limit=Limit(nodes=args.nodes),
        move_timeout_s=120.0,
        adjudication=Adjudication(
            resign_moves=4, resign_score=800, draw_after=40, draw_moves=10, draw_score=8,
            max_moves=200,
        ),
    )  # fmt: skip

    def spec(off: str | None) -> PlayerSpec:
        """Arena player for one configuration (its cache directory passed through ``env``)."""
        name = "full" if off is None else f"no-{off}"
        cache = WORK / "numba" / (off or "full")
        command = ("env", f"NUMBA_CACHE_DIR={cache}", *worker_command(off))
        return PlayerSpec(name, "uci", name, None, command, (("Hash", "16"),))

    print(
        f"\nfull evaluation vs one term off: {args.games} games per term, {args.nodes} nodes "
        f"per move, paired random 6-ply openings"
    )
    args.concurrency = 1
    out = Console(highlight=False, soft_wrap=True)
    for off in terms:
        run = run_match([spec(None), spec(off)], args, openings, out, indent="    ",
                        event="plies evaluation ablation", settings=settings)
        print(f"  {score_line('full', f'no-{off}', run.score)} ({run.seconds:.0f} s, "
              f"{load_text(run.loads)})", flush=True)
    return 0


def main() -> int:
    """Parse the command line and run one measurement."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed", help="ns per evaluate() beside a material+PST peer")
    s.add_argument("--roots", type=int, default=20)
    s.add_argument("--reps", type=int, default=20)
    s.add_argument("--rounds", type=int, default=7)
    s.add_argument("--seed", type=int, default=3)
    q = sub.add_parser("suite", help="static evaluation vs Stockfish labels, each term off")
    q.add_argument("--positions", type=int, default=1500)
    q.add_argument("--depth", type=int, default=12)
    q.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("match", help="full evaluation vs one term off, at fixed nodes")
    m.add_argument("--games", type=int, default=60)
    m.add_argument("--nodes", type=int, default=6000)
    m.add_argument("--terms", default="", help="comma-separated terms (default: all)")
    m.add_argument("--seed", type=int, default=1)
    u = sub.add_parser("uci", help="(internal) a UCI engine with one term switched off")
    u.add_argument("--off", default=None)
    u.add_argument("--warm", action="store_true")
    args = p.parse_args()
    print(machine_line(), flush=True)
    if args.cmd == "uci":
        return run_uci_worker(args.off, args.warm)
    WORK.mkdir(parents=True, exist_ok=True)
    if args.cmd == "speed":
        return run_speed(args)
    if args.cmd == "suite":
        if not Path(STOCKFISH).exists():
            raise SystemExit(f"eval_ablation: {STOCKFISH} not found")
        return run_suite(args)
    return ablation_match(args)


if __name__ == "__main__":
    sys.exit(main())
