"""Chess960: start positions, castling rules, X-FEN/Shredder-FEN and perft, against python-chess.

The default run counts every start position two plies deep move by move
against python-chess and the published Chess960 suite as deep as a node
budget allows; ``-m slow`` goes deeper in both. Random games in Chess960 are
replayed in lockstep with python-chess in ``test_differential.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import numpy as np
import pytest
from tests.cli.runs import in_process, one_line_error, plies
from tests.core.test_nnue import random_arrays, write_net

import plies.core as core
from plies.board import Board, IllegalMoveError, InvalidFenError, Move, divide, perft
from plies.board.chess960 import POSITIONS
from plies.core import nnue

DATA = Path(__file__).resolve().parents[1] / "data" / "perft"

# Deepest published depth whose count stays under this many nodes runs by default
# (depth 4 nearly everywhere: about 600 M nodes over the suite).
DEFAULT_NODE_CAP = 2_000_000


def _load_suite() -> list[tuple[int, str, dict[int, int]]]:
    """Read ``chess960.perft``: blocks of ``id N``, ``epd FEN``, ``perft D count``."""
    entries: list[tuple[int, str, dict[int, int]]] = []
    with open(DATA / "chess960.perft", encoding="ascii") as handle:
        for line in handle:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "id":
                entries.append((int(words[1]), "", {}))
            elif words[0] == "epd":
                index, _, counts = entries[-1]
                entries[-1] = (index, " ".join(words[1:]), counts)
            elif words[0] == "perft":
                entries[-1][2][int(words[1])] = int(words[2])
    return entries


SUITE = _load_suite()


def _suite_cases(full: bool) -> list:
    """One pytest param per suite position: the default-depth or the deepest count."""
    params = []
    for index, fen, counts in SUITE:
        affordable = max(d for d, n in counts.items() if n <= DEFAULT_NODE_CAP)
        depth = max(counts) if full else affordable
        params.append(pytest.param(fen, depth, counts[depth], id=f"c960-{index:03d}-d{depth}"))
    return params


def _reference_divide(board: chess.Board, depth: int) -> dict[str, int]:
    """python-chess's perft split by root move (bulk counted at the last ply)."""

    def count(b: chess.Board, d: int) -> int:
        """Leaves ``d`` plies below ``b``."""
        if d == 1:
            return b.legal_moves.count()
        total = 0
        for move in b.legal_moves:
            b.push(move)
            total += count(b, d - 1)
            b.pop()
        return total

    split = {}
    for move in board.legal_moves:
        board.push(move)
        split[move.uci()] = count(board, depth - 1) if depth > 1 else 1
        board.pop()
    return split


def test_suite_is_complete() -> None:
    """The copied suite holds 960 positions with counts to depth 6 (tests/data/README.md)."""
    assert [index for index, _, _ in SUITE] == list(range(960))
    assert all(sorted(counts) == [1, 2, 3, 4, 5, 6] for _, _, counts in SUITE)


@pytest.mark.parametrize(("fen", "depth", "expected"), _suite_cases(full=False))
def test_perft_suite(fen: str, depth: int, expected: int) -> None:
    """Each Chess960 suite position counts the published number of leaves."""
    assert perft(Board(fen, chess960=True), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "depth", "expected"), _suite_cases(full=True))
def test_perft_suite_full_depth(fen: str, depth: int, expected: int) -> None:
    """Each Chess960 suite position at its deepest published depth (6)."""
    assert perft(Board(fen, chess960=True), depth) == expected


def test_start_positions_match_python_chess() -> None:
    """Every start position: FENs, legal moves and divide 2 equal python-chess's."""
    for n in range(POSITIONS):
        ours, ref = Board.from_chess960_pos(n), chess.Board.from_chess960_pos(n)
        assert ours.chess960 and ours.fen() == ref.fen(), n
        assert ours.shredder_fen() == ref.shredder_fen(), n
        assert divide(ours, 2) == _reference_divide(ref, 2), n
    assert Board.from_chess960_pos(518).fen() == chess.STARTING_FEN


def test_start_positions_divide_3_sample() -> None:
    """Every tenth start position, divide 3 against python-chess (all of them under slow)."""
    for n in range(0, POSITIONS, 10):
        ref = chess.Board.from_chess960_pos(n)
        assert divide(Board.from_chess960_pos(n), 3) == _reference_divide(ref, 3), n


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, POSITIONS, 96))
def test_start_positions_divide_3(first: int) -> None:
    """Start positions, divide 3 against python-chess (96 positions per case)."""
    for n in range(first, min(first + 96, POSITIONS)):
        ref = chess.Board.from_chess960_pos(n)
        assert divide(Board.from_chess960_pos(n), 3) == _reference_divide(ref, 3), n


@pytest.mark.parametrize("bad", [-1, 960, 10**9, "5", True, 1.0])
def test_bad_start_position_number(bad: object) -> None:
    """A number outside 0-959 (or not an int) is refused in one line."""
    with pytest.raises(InvalidFenError, match="invalid chess960 position"):
        Board.from_chess960_pos(bad)  # type: ignore[arg-type]


# Castling corners, each checked move by move against python-chess.
CORNERS = [
    # The castling rook shields the king: castling would expose it (queen a1, rook b1).
    "1r2k3/8/8/8/8/8/8/qRK4R w KQ - 0 1",
    # The king already stands on its king-side destination (g1); queen-side it crosses the board.
    "rk5r/8/8/8/8/8/8/R5KR w KQkq - 0 1",
    # King b1, rook a1: the king's step to c1 and queen-side castling share squares.
    "1k6/8/8/8/8/8/8/RK5R w KQ - 0 1",
    # King-side castling lands on the rook's square (king f1, rook g1).
    "4k3/8/8/8/8/8/8/R4KR1 w KQ - 0 1",
    # The rook lands on the king's square (king d1, rook a1: king c1, rook d1).
    "3k4/8/8/8/8/8/8/R2K3R w KQ - 0 1",
    # An enemy rook behind the castling rook: the destination is attacked once it moves.
    "3k4/8/8/8/8/8/8/rRK5 w B - 0 1",
    # Inner rooks named by file (X-FEN), a rook outside them.
    "rr2kr1r/8/8/8/8/8/8/RR2KR1R w BFbf - 0 1",
    # A path square attacked by a knight; the other side free.
    "r3k2r/8/8/8/8/8/4n3/R3K2R w KQkq - 0 1",
    # Castling with the destination occupied by the opponent: illegal.
    "4k3/8/8/8/8/8/8/1Kn4R w K - 0 1",
]


@pytest.mark.parametrize("fen", CORNERS)
def test_castling_corners(fen: str) -> None:
    """Legal moves, SAN, FENs and make/unmake agree with python-chess in 960 mode."""
    ours, ref = Board(fen, chess960=True), chess.Board(fen, chess960=True)
    assert ours.fen() == ref.fen()
    assert ours.shredder_fen() == ref.shredder_fen()
    assert {m.uci() for m in ours.legal_moves} == {m.uci() for m in ref.legal_moves}, fen
    for move in ours.legal_moves:
        ref_move = chess.Move.from_uci(move.uci())
        assert ours.san(move) == ref.san(ref_move), move
        assert ours.is_castling(move) == ref.is_castling(ref_move), move
        assert ours.is_capture(move) == ref.is_capture(ref_move), move
        key = ours.zobrist_key()
        ours.push(move)
        ref.push(ref_move)
        assert ours.fen() == ref.fen(), move
        assert ours.zobrist_key() == Board(ours.fen(), chess960=True).zobrist_key(), move
        assert {m.uci() for m in ours.legal_moves} == {m.uci() for m in ref.legal_moves}
        ref.pop()
        ours.pop()
        assert ours.fen() == ref.fen() and ours.zobrist_key() == key
    assert divide(ours, 3) == _reference_divide(ref, 3), fen


def test_castling_move_notation() -> None:
    """960 mode writes castling king-takes-rook and reads e1g1 too; standard the other way."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    c960, std = Board(fen, chess960=True), Board(fen)
    assert {"e1h1", "e1a1"} <= {m.uci() for m in c960.legal_moves}
    assert {"e1g1", "e1c1"} <= {m.uci() for m in std.legal_moves}
    for board in (c960, std):
        ref = chess.Board(fen, chess960=board.chess960)
        for text in ("e1g1", "e1h1", "e1c1", "e1a1"):
            assert board.parse_uci(text).uci() == ref.parse_uci(text).uci(), text
    assert c960.san(c960.parse_uci("e1h1")) == "O-O"
    assert c960.parse_san("O-O-O") == Move.from_uci("e1a1")
    assert std.parse_san("O-O") == Move.from_uci("e1g1")
    # As python-chess: king takes rook is castling in standard chess; e1g1 is not in 960.
    assert std.is_legal(Move.from_uci("e1h1"))
    assert not c960.is_legal(Move.from_uci("e1g1"))
    with pytest.raises(IllegalMoveError):
        Board("1k6/8/8/8/8/8/8/RK5R w - - 0 1", chess960=True).parse_san("O-O")


def test_core_move_of_castling() -> None:
    """The core's castling move (king to g/c file) maps to the board's notation."""
    fen = "1k6/8/8/8/8/8/8/RK5R w KQ - 0 1"
    board = Board(fen, chess960=True)
    castles = [board.move_of(int(m)) for m in board.core_legal() if (int(m) >> 12) in (2, 3)]
    assert sorted(m.uci() for m in castles) == ["b1a1", "b1h1"]
    std = Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    named = {std.move_of(int(m)).uci() for m in std.core_legal()}
    assert named == {m.uci() for m in std.legal_moves} and {"e1g1", "e1c1"} <= named


@pytest.mark.parametrize(
    ("fen", "xfen", "shredder"),
    [
        ("rk4r1/8/8/8/8/8/8/5RKR w HFga - 0 1", "KQkq", "HFga"),
        ("rr2kr1r/8/8/8/8/8/8/RR2KR1R w BFbf - 0 1", "FBfb", "FBfb"),
        ("rr2kr1r/8/8/8/8/8/8/RR2KR1R w KQkq - 0 1", "KQkq", "HAha"),
        ("3k4/8/8/8/8/8/8/rRK5 w B - 0 1", "Q", "B"),
        ("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "B", "B"),
    ],
)
def test_castling_fields_in_and_out(fen: str, xfen: str, shredder: str) -> None:
    """X-FEN and Shredder-FEN castling fields read and written as python-chess does."""
    ref = chess.Board(fen, chess960=True)
    ours = Board(fen, chess960=True)
    assert ours.fen() == ref.fen()
    assert ours.shredder_fen() == ref.shredder_fen()
    assert ours.fen().split()[2] == xfen
    assert ours.shredder_fen().split()[2] == shredder
    assert Board(ours.shredder_fen(), chess960=True).fen() == ours.fen()


@pytest.mark.parametrize(
    ("fen", "chess960"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", True),  # no rook on the king side
        ("4k3/8/8/8/8/8/8/R3K3 w C - 0 1", True),  # no rook on the c file
        ("4k3/8/8/8/8/8/4K3/R6R w K - 0 1", True),  # king off its back rank
        ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", True),  # one right named twice
        ("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", True),  # a letter repeated
        ("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", True),  # not a castling letter
        ("4k3/8/8/8/8/8/8/R3K2R w K1 - 0 1", False),
        ("4k3/8/8/8/8/8/8/RK5R w K - 0 1", False),  # standard chess: king off e1
        ("4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1", False),  # standard chess: rook off h1
    ],
)
def test_bad_castling_fields(fen: str, chess960: bool) -> None:
    """A castling field the position cannot have is a one-line InvalidFenError: at once when
    it is malformed, else from check_playable (the board holds it as python-chess does)."""
    with pytest.raises(InvalidFenError, match="invalid fen castling rights") as info:
        board = Board(fen, chess960=chess960)
        assert board.fen() == chess.Board(fen, chess960=chess960).fen()
        board.check_playable()
    assert "\n" not in str(info.value)


def test_standard_positions_unchanged() -> None:
    """Standard FENs read as before: KQkq, file letters for the corner rooks too."""
    assert Board(chess.STARTING_FEN).fen() == chess.STARTING_FEN
    assert Board(chess.STARTING_FEN.replace("KQkq", "HAha")).fen() == chess.STARTING_FEN
    assert Board(chess.STARTING_FEN, chess960=True).fen() == chess.STARTING_FEN
    assert perft(Board(chess.STARTING_FEN, chess960=True), 4) == 197281
    assert not Board().chess960
    assert repr(Board(chess960=True)) == f"Board({chess.STARTING_FEN!r}, chess960=True)"


def test_net_accumulators_follow_chess960_castling(tmp_path: Path) -> None:
    """With a net attached, the accumulators after each castling (king and rook sharing
    squares included) equal those of the same position set up from its FEN."""
    net = core.load_net(write_net(tmp_path / "random.npz", random_arrays(5)))

    def fresh(board: Board) -> np.ndarray:
        """The accumulators of ``board``'s position computed from scratch."""
        pos = core.copy_position(Board(board.fen(), chess960=True).core_position())
        core.attach_net(pos, net)
        core.net_output(pos)  # computes ply 0 from the board, as the search root does
        return np.asarray(nnue.accumulators(pos))[0].copy()

    castlings = 0
    for fen in CORNERS[1:6]:
        board = Board(fen, chess960=True)
        pos = core.copy_position(board.core_position())
        core.attach_net(pos, net)
        core.net_output(pos)
        for move in [m for m in board.legal_moves if board.is_castling(m)]:
            code = next(int(c) for c in board.core_legal() if board.move_of(int(c)) == move)
            core.push_move(pos, code)
            board.push(move)
            ply = int(core.position_state(pos)[5])
            after = np.asarray(nnue.accumulators(pos))[ply]
            assert after.any() and np.array_equal(after, fresh(board)), move
            core.unmake_move(pos)
            board.pop()
            castlings += 1
    assert castlings >= 7



@pytest.mark.parametrize("seed", range(4))
def test_random_castling_fields_agree_or_fail_in_one_line(seed: int) -> None:
    """Random castling fields on Chess960 placements: accepted exactly when python-chess keeps
    every right given (and then written as python-chess writes them), else one line."""
    rng = random.Random(seed)
    upper = "KQABCDEFGH"
    for _ in range(250):
        placement = Board.from_chess960_pos(rng.randrange(POSITIONS)).board_fen()
        if rng.random() < 0.5:
            placement = rng.choice(SUITE)[1].split()[0]
        # White's letters first, at most two a side: the form python-chess reads.
        text = "".join(rng.sample(upper, rng.randint(0, 2)) + rng.sample(upper.lower(), 2))
        text = text[: rng.randint(1, len(text))]
        fen = f"{placement} w {text} - 0 1"
        ref = chess.Board(fen, chess960=True)
        kept = ref.castling_xfen()
        try:
            ours = Board(fen, chess960=True)
            assert ours.fen() == ref.fen()
            ours.check_playable()
        except InvalidFenError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("invalid fen castling rights")
            assert kept == "-" or len(kept) < len(text), (fen, kept)
            continue
        assert len(kept) == len(text), (fen, kept)
        assert ours.fen() == ref.fen() and ours.shredder_fen() == ref.shredder_fen(), fen


def test_cli_perft_chess960() -> None:
    """``plies perft --chess960 --fen`` counts a suite position; without the flag its
    castling field is refused in one line."""
    _, fen, counts = SUITE[1]
    proc = plies("perft", "2", "--chess960", "--fen", fen, "--divide")
    assert proc.returncode == 0, proc.stderr
    per_move = dict(line.split(": ") for line in proc.stdout.splitlines() if ": " in line
                    and not line.startswith("Nodes"))  # fmt: skip
    assert {k: int(v) for k, v in per_move.items()} == divide(Board(fen, chess960=True), 2)
    assert f"Nodes: {counts[2]} " in proc.stdout
    refused = in_process("perft", "1", "--fen", fen)
    one_line_error(refused.returncode, refused.stderr, "invalid fen castling rights")
