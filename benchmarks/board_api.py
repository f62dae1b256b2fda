"""python-chess's ``Board`` API on python-chess and on plies: the same Python code over both.

Every row runs one function, written once and generic over the board class, on
``chess.Board`` and on ``plies.Board``, rounds alternated (``in_turn``) so that
a change in the machine's load falls on both alike; the best round of each is
printed with the ratio. Rates are per CPU second of this process (the machine
is shared); the rows:

- perft through the API (``legal_moves``, ``push``, ``pop``, every leaf pushed)
  on the start position, Kiwipete, the perft suite's position 3 and a middlegame;
- a fixed-depth alpha-beta (captures first, material evaluation, mates scored,
  as ``examples/minds/alphabeta4.py``) over three middlegame positions, seconds;
  ties in the move order are broken by squares, so both boards search the same tree;
- random playouts from the start to the game's end (seeded ``random.choice`` of
  the legal moves, ``is_game_over()`` after every ply), plies per second; the
  two libraries list the legal moves in different orders, so their games differ;
- ``Board(fen).fen()`` over positions from random games;
- ``board.san(m)`` then ``board.parse_san(s)`` for every legal move of those positions;
- ``is_check()``, ``is_checkmate()`` and ``outcome()`` after each push of random games;
- the memory of ``board.copy()`` of a middlegame with 40 moves on its stack: tracemalloc
  over 1,000 copies kept alive (numba's allocations are traced too), bytes per copy.

Both boards must agree on every count (perft nodes, search values and nodes, FENs,
SAN, the status tallies); a disagreement is printed under the table.

Usage: python benchmarks/board_api.py [--repeat N] [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

import chess

from harness import api_perft, in_turn, load_average, machine_line, random_positions, ratio_text
from plies import Board as PliesBoard

AnyBoard = chess.Board | PliesBoard
BoardClass = type[chess.Board] | type[PliesBoard]

PEER = "python-chess"
# Kasparov-Topalov, Wijk aan Zee 1999, to 20...Ka7: a sharp middlegame, 40 moves on the stack.
KASPAROV_TOPALOV = (
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7 "
    "Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7"
)
MIDDLEGAME_LINES = (
    KASPAROV_TOPALOV,
    # Closed Ruy Lopez, main line after 9.h3.
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3",
    # Queen's Gambit Declined, Orthodox Defence, Capablanca's freeing manoeuvre.
    "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 Nbd7 Rc1 c6 Bd3 dxc4 Bxc4 Nd5",
)
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFT_POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
MATERIAL = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500,
            chess.QUEEN: 900, chess.KING: 0}  # fmt: skip
MATE = 100_000
COPIES = 1000


def line_board(line: str) -> chess.Board:
    """python-chess's board after the SAN moves of ``line`` from the start."""
    board = chess.Board()
    for san in line.split():
        board.push_san(san)
    return board


def middlegames() -> list[str]:
    """The FENs of the middlegame positions."""
    return [line_board(line).fen() for line in MIDDLEGAME_LINES]


# ---- the code under test, written once for both boards ----------------------------------

def perft(board: AnyBoard, depth: int) -> int:
    """Leaf count to ``depth``, every move pushed and popped (no bulk counting)."""
    return api_perft(board, depth)  # type: ignore[arg-type]  # plies.Board has the same API


def evaluate(board: AnyBoard) -> int:
    """Material for the side to move (checkmate and stalemate scored), centipawns."""
    if not board.legal_moves:
        return -MATE if board.is_check() else 0
    score = 0
    for piece in board.piece_map().values():
        value = MATERIAL[piece.piece_type]
        score += value if piece.color == chess.WHITE else -value
    return score if board.turn == chess.WHITE else -score


def ordered(board: AnyBoard) -> list[chess.Move]:
    """Legal moves, captures first, ties broken by squares (the same order on both boards)."""
    return sorted(board.legal_moves, key=lambda m: (not board.is_capture(m), m.from_square,
                                                    m.to_square, m.promotion or 0))  # fmt: skip


def alphabeta(board: AnyBoard, depth: int, alpha: int, beta: int, nodes: list[int]) -> int:
    """Negamax value of ``board`` within (alpha, beta); ``nodes[0]`` counts positions."""
    nodes[0] += 1
    moves = ordered(board)
    if not moves and board.is_check():
        return -MATE - depth
    if depth == 0 or not moves:
        return evaluate(board)
    for move in moves:
        board.push(move)
        value = -alphabeta(board, depth - 1, -beta, -alpha, nodes)
        board.pop()
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return alpha


def playout(board: AnyBoard, rng: random.Random) -> int:
    """Random moves until the game is over; the plies played."""
    plies = 0
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def san_round_trips(board: AnyBoard) -> list[str]:
    """Every legal move written in SAN and read back (which must give the move)."""
    written = []
    for move in board.legal_moves:
        text = board.san(move)
        if board.parse_san(text) != move:
            raise AssertionError(f"{text} read back as another move in {board.fen()}")
        written.append(text)
    return written


def status_tally(board: AnyBoard, moves: list[chess.Move]) -> tuple[int, int, str]:
    """Push ``moves``, asking ``is_check``, ``is_checkmate`` and ``outcome`` after each:
    checks seen, mates seen, the last outcome's result."""
    checks = mates = 0
    result = "*"
    for move in moves:
        board.push(move)
        checks += board.is_check()
        mates += board.is_checkmate()
        outcome = board.outcome()
        result = "*" if outcome is None else outcome.result()
    return checks, mates, result


def copy_bytes(board: AnyBoard, copies: int) -> float:
    """Bytes tracemalloc sees allocated per ``board.copy()``, the copies kept alive."""
    board.copy()  # whatever a first copy sets up once is not a copy's cost
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [board.copy() for _ in range(copies)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return (after - before) / copies


# ---- rows -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Measured:
    """One run of a row on one board: its figure and what both boards must agree on."""

    figure: float
    check: Hashable


@dataclass(frozen=True)
class Row:
    """A line of the table: its name, the unit of its figure, and the run on a board class."""

    name: str
    unit: str
    higher_is_better: bool
    run: Callable[[BoardClass], Measured]


def cpu_rate(work: Callable[[], tuple[int, Hashable]]) -> Measured:
    """Run ``work`` (which returns a count and its check) as a count per CPU second."""
    start = time.process_time()
    count, check = work()
    spent = time.process_time() - start
    return Measured(count / spent if spent > 0 else float("inf"), check)


def perft_row(name: str, fen: str, depth: int) -> Row:
    """Perft nodes per second on ``fen``."""

    def run(cls: BoardClass) -> Measured:
        """One perft on a fresh board."""
        board = cls(fen)

        def work() -> tuple[int, Hashable]:
            """The perft: its node count is also its check."""
            nodes = perft(board, depth)
            return nodes, nodes

        return cpu_rate(work)

    return Row(f"perft {name} d{depth}", "nodes/s", True, run)


def search_row(fens: list[str], depth: int) -> Row:
    """CPU seconds of the alpha-beta over ``fens``."""

    def run(cls: BoardClass) -> Measured:
        """One search of every position."""
        values, nodes = [], [0]
        start = time.process_time()
        for fen in fens:
            values.append(alphabeta(cls(fen), depth, -2 * MATE, 2 * MATE, nodes))
        return Measured(time.process_time() - start, (tuple(values), nodes[0]))

    return Row(f"alpha-beta d{depth}, {len(fens)} positions", "s", False, run)


def playout_row(games: int, seed: int) -> Row:
    """Plies per second of random playouts."""

    def work(cls: BoardClass) -> tuple[int, Hashable]:
        """``games`` playouts from the start with one seeded RNG."""
        rng = random.Random(seed)
        # Each library lists the moves in its own order, so the games are its own.
        return sum(playout(cls(), rng) for _ in range(games)), None

    return Row(f"random playouts, {games} games", "plies/s", True,
               lambda cls: cpu_rate(lambda: work(cls)))  # fmt: skip


def fen_row(fens: list[str], rounds: int) -> Row:
    """FENs read and written per second."""

    def work(cls: BoardClass) -> tuple[int, Hashable]:
        """Every FEN through ``Board(fen).fen()``, ``rounds`` times."""
        written: tuple[str, ...] = ()
        for _ in range(rounds):
            written = tuple(cls(fen).fen() for fen in fens)
        return rounds * len(fens), written

    return Row(f"Board(fen).fen(), {len(fens)} FENs", "FENs/s", True,
               lambda cls: cpu_rate(lambda: work(cls)))  # fmt: skip


def san_row(fens: list[str]) -> Row:
    """Moves written and read back in SAN per second."""

    def run(cls: BoardClass) -> Measured:
        """Every legal move of every position, boards set up outside the clock."""
        boards = [cls(fen) for fen in fens]

        def work() -> tuple[int, Hashable]:
            """The round trips."""
            written = tuple(text for board in boards for text in san_round_trips(board))
            return len(written), tuple(sorted(written))

        return cpu_rate(work)

    return Row(f"san + parse_san, {len(fens)} positions", "moves/s", True, run)


def status_row(games: list[list[chess.Move]]) -> Row:
    """Pushes per second, each followed by the three status queries."""

    def work(cls: BoardClass) -> tuple[int, Hashable]:
        """Every game replayed with the queries."""
        tallies = tuple(status_tally(cls(), moves) for moves in games)
        return sum(len(moves) for moves in games), tallies

    return Row(f"is_check/is_checkmate/outcome, {len(games)} games", "pushes/s", True,
               lambda cls: cpu_rate(lambda: work(cls)))  # fmt: skip


def copy_row(line: str, copies: int) -> Row:
    """Bytes per copy of a board with a history."""

    def run(cls: BoardClass) -> Measured:
        """The board replayed from the start, then copied ``copies`` times."""
        board = cls()
        for move in line_board(line).move_stack:
            board.push(move)
        return Measured(copy_bytes(board, copies), len(board.move_stack))

    return Row(f"board.copy(), {len(line.split())} moves on the stack", "bytes", False, run)


def random_games(count: int, rng: random.Random) -> list[list[chess.Move]]:
    """The moves of ``count`` random games to their end (python-chess's rules)."""
    games = []
    for _ in range(count):
        board = chess.Board()
        playout(board, rng)
        games.append(board.move_stack)
    return games


def figure_text(value: float, unit: str) -> str:
    """``1.23 M nodes/s``, ``0.456 s``, ``7,771 bytes``."""
    if unit == "s":
        return f"{value:.3g} s"
    if unit == "bytes":
        return f"{value:,.0f} bytes"
    for scale, prefix in ((1e6, "M "), (1e3, "k ")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def warm_up() -> None:
    """Call every part of plies' board the rows use once, so no round pays for compiling."""
    board = PliesBoard(KIWIPETE)
    perft(board, 2)
    san_round_trips(board)
    evaluate(board)
    ordered(board)
    status_tally(PliesBoard(), random_games(1, random.Random(0))[0])
    board.copy()


def main() -> int:
    """Run every row on both boards in turn and print the table."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3, help="rounds per row (best kept)")
    p.add_argument("--quick", action="store_true",
                   help="a smoke run: shallower, fewer games and positions, one round")
    args = p.parse_args()
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    repeat = 1 if args.quick else args.repeat
    depth = 2 if args.quick else 3
    rng = random.Random(2024)
    fens = [b.fen() for b in random_positions(20 if args.quick else 100, (10, 80), rng)]
    mids = middlegames()
    rows = [
        perft_row("start", chess.STARTING_FEN, depth),
        perft_row("Kiwipete", KIWIPETE, depth),
        perft_row("position 3", PERFT_POSITION_3, depth),
        perft_row("middlegame", mids[0], depth),
        search_row(mids, depth),
        playout_row(2 if args.quick else 10, seed=7),
        fen_row(fens, 1 if args.quick else 10),
        san_row(fens),
        status_row(random_games(2 if args.quick else 10, rng)),
        copy_row(KASPAROV_TOPALOV, COPIES),
    ]
    warm_up()
    rounds = f"best of {repeat} rounds in turn" if repeat > 1 else "one round"
    print(f"python-chess {chess.__version__} and plies.Board, the same code, {rounds} "
          "(rates per CPU second)")
    print(machine_line())
    print(f"{'row':<46} {PEER:>18} {'plies':>18}  ratio (above 1: plies ahead)")
    loads, disagreements = [], []
    for row in rows:
        runs = in_turn([partial(row.run, chess.Board), partial(row.run, PliesBoard)], repeat)
        peer, ours = (r.best(lambda o: o.figure, highest=row.higher_is_better) for r in runs)
        loads.extend(runs[0].loads + runs[1].loads)
        print(f"{row.name:<46} {figure_text(peer.figure, row.unit):>18} "
              f"{figure_text(ours.figure, row.unit):>18}  "
              f"{ratio_text(ours.figure, peer.figure, PEER, row.higher_is_better)}")
        if peer.check != ours.check:
            disagreements.append(row.name)
    print(f"load during the rows: mean {sum(loads) / len(loads):.2f}, "
          f"max {max(loads):.2f}; now {load_average():.2f}")
    for name in disagreements:
        print(f"DISAGREEMENT: {name}: the boards gave different counts")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
