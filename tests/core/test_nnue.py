"""The net's compiled inference against the spec (docs/nnue-spec.md), with small random nets.

The nets are written by the tests themselves (seeded), so nothing here depends
on a trained file. Weights are drawn on the quantisation grid (multiples of
1/QA, 1/QB, 1/(QA*QB)), so the float reference of the spec and the core's
integer arithmetic differ only by the floor divisions of the output (< 2 cp).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest

import plies.core as core
from plies.board import Board
from plies.board.board import core_to_move
from plies.core import netfile, nnue
from plies.engine import Engine, Limit

HIDDEN = 32
TOLERANCE_CP = 2.0

FENS = (
    chess.STARTING_FEN,
    # Kiwipete: castling both ways for both sides, many captures.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Promotions with and without capture for both sides, and an en-passant capture.
    "1n1nk3/PPP5/8/3pP3/8/8/5ppp/K4N1R w - d6 0 1",
    "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)


def _special(m: int) -> bool:
    """Whether a core move is a capture, castling, en passant or promotion (flag != 0, 1)."""
    return (m >> 12) & 15 not in (0, 1)


def random_arrays(seed: int, hidden: int = HIDDEN, buckets: int = 0) -> dict[str, np.ndarray]:
    """A random net on the quantisation grid, every weight within the spec's range; with
    ``buckets`` > 0 it has that many output buckets (0: the single-output shapes)."""
    rng = np.random.default_rng(seed)
    limit_a = int(1.98 * netfile.QA)
    ft_weight = np.clip(np.rint(rng.normal(0, 0.12 * netfile.QA, (netfile.N_INPUTS, hidden))),
                        -limit_a, limit_a) / netfile.QA  # fmt: skip
    ft_bias = rng.integers(-int(0.3 * netfile.QA), int(0.9 * netfile.QA), hidden) / netfile.QA
    out_shape = (buckets, 2 * hidden) if buckets else (2 * hidden,)
    limit_b = int(1.98 * netfile.QB)
    out_weight = rng.integers(-limit_b, limit_b, out_shape) / netfile.QB
    bias_quantum = netfile.QA * netfile.QB
    out_bias = rng.integers(-bias_quantum, bias_quantum, max(buckets, 1)) / bias_quantum
    return {
        "ft_weight": ft_weight.astype(np.float32),
        "ft_bias": ft_bias.astype(np.float32),
        "out_weight": out_weight.astype(np.float32),
        "out_bias": out_bias.astype(np.float32),
        "scale": np.array([400.0], dtype=np.float32),
        "format": np.array([1], dtype=np.int64),
    }


def write_net(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    """Save ``arrays`` as an .npz net file."""
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


def reference(board: chess.Board, arrays: dict[str, np.ndarray]) -> float:
    """The spec's float evaluation (centipawns, side to move), straight from its formulas."""
    ft_weight = arrays["ft_weight"].astype(np.float64)
    acc = [arrays["ft_bias"].astype(np.float64).copy() for _ in range(2)]
    for sq, piece in board.piece_map().items():
        c = 0 if piece.color == chess.WHITE else 1
        for p in (0, 1):
            kind_row = (piece.piece_type - 1) * 64
            acc[p] += ft_weight[(0 if c == p else 384) + kind_row + (sq if p == 0 else sq ^ 56)]
    return reference_output(board, arrays, acc)


def reference_output(
    board: chess.Board, arrays: dict[str, np.ndarray], acc: list[np.ndarray]
) -> float:
    """The spec's output (centipawns, side to move) from both perspectives' float
    accumulators (``acc[WHITE]``, ``acc[BLACK]``) of ``board``."""
    hidden = acc[0].shape[0]
    stm = 0 if board.turn == chess.WHITE else 1
    # Buckets split the piece counts 2..33 evenly (8: (pieces - 2) // 4); [2H] is one bucket.
    out_all = arrays["out_weight"].astype(np.float64).reshape(-1, 2 * hidden)
    buckets = out_all.shape[0]
    bucket = min(max((len(board.piece_map()) - 2) * buckets // 32, 0), buckets - 1)
    out = out_all[bucket]

    def screlu(x: np.ndarray) -> np.ndarray:
        """clamp(x, 0, 1) squared."""
        return np.asarray(np.clip(x, 0.0, 1.0) ** 2)

    raw = (float(arrays["out_bias"][bucket]) + float(out[:hidden] @ screlu(acc[stm]))
           + float(out[hidden:] @ screlu(acc[1 - stm])))  # fmt: skip
    return raw * 400.0


@pytest.fixture(scope="module")
def net_arrays() -> dict[str, np.ndarray]:
    """The arrays of the module's random net."""
    return random_arrays(7)


def net_fixture() -> Any:
    """A module-scoped ``net`` fixture that loads the requesting module's ``net_arrays``."""

    @pytest.fixture(scope="module")
    def net(
        net_arrays: dict[str, np.ndarray], tmp_path_factory: pytest.TempPathFactory
    ) -> core.Net:
        """The module's random net, loaded from a file as users load theirs."""
        return core.load_net(write_net(tmp_path_factory.mktemp("net") / "net.npz", net_arrays))

    return net


net = net_fixture()


def net_position(fen: str, net: core.Net) -> core.Position:
    """An owned position of ``fen`` carrying ``net``."""
    pos = core.copy_position(Board(fen).core_position())
    core.attach_net(pos, net)
    return pos


def _accumulators(pos: core.Position) -> np.ndarray:
    """The live accumulator stack of ``pos``."""
    return np.asarray(nnue.accumulators(pos))


def test_incremental_accumulators_equal_a_refresh(
    net: core.Net, net_arrays: dict[str, np.ndarray]
) -> None:
    """After random lines (castling, en passant, promotions, captures, null moves) every
    ply's incremental accumulators equal a full refresh, and so after unmaking back."""
    rng = random.Random(11)
    kinds_seen: set[int] = set()
    evaluated = 0
    for fen in FENS:
        for _ in range(2):
            pos = net_position(fen, net)
            board = chess.Board(fen)
            core.net_output(pos)  # the refresh at ply 0, as the search root does
            line: list[int] = []
            for _ply in range(40):
                moves = [int(m) for m in core.legal_moves(pos)]
                if not moves:
                    break
                if not board.is_check() and rng.random() < 0.1:
                    core.push_null(pos)
                    board.push(chess.Move.null())
                    line.append(0)
                    continue
                special = [m for m in moves if _special(m)]
                m = rng.choice(special if special and rng.random() < 0.6 else moves)
                kinds_seen.add((m >> 12) & 15)
                core.push_move(pos, m)
                board.push(chess.Move.from_uci(core_to_move(m).uci()))
                line.append(m)
            stack = _accumulators(pos)[: len(line) + 1].copy()
            # Top down: each ply's refresh overwrites only rows already saved.
            for k in range(len(line), -1, -1):
                q = core.net_output(pos)
                assert np.array_equal(_accumulators(pos)[k], stack[k]), (fen, k)
                assert abs(reference(board, net_arrays) - q) <= TOLERANCE_CP, board.fen()
                evaluated += 1
                if k:
                    if line[k - 1]:
                        core.unmake_move(pos)
                    else:
                        core.pop_null(pos)
                    board.pop()
            # Replayed from the refreshed root, the line gives the same accumulators again.
            for m in line:
                core.push_move(pos, m) if m else core.push_null(pos)
            assert np.array_equal(_accumulators(pos)[: len(line) + 1], stack)
    # Castling (2, 3), capture (4), en passant (5), promotion (8-11), capture-promotion (12-15).
    assert {2, 3, 4, 5} <= kinds_seen
    assert kinds_seen & {8, 9, 10, 11} and kinds_seen & {12, 13, 14, 15}
    assert evaluated > 300


def test_eval_matches_the_float_reference_on_many_positions(
    net: core.Net, net_arrays: dict[str, np.ndarray]
) -> None:
    """Quantised output == the spec's float formula within rounding, either side to move."""
    tactics = Path(__file__).resolve().parents[1] / "data" / "tactics"
    fens = list(FENS)
    for path in (tactics / "bratko-kopec.epd", tactics / "wac.epd"):
        for line in path.read_text(encoding="utf-8").splitlines()[:80]:
            parts = line.split()
            if len(parts) >= 4:
                fens.append(" ".join(parts[:4]) + " 0 1")
    sides = set()
    for fen in fens:
        board = chess.Board(fen)
        if not board.is_valid():
            continue
        sides.add(board.turn)
        q = core.net_output(net_position(board.fen(), net))
        assert abs(reference(board, net_arrays) - q) <= TOLERANCE_CP, fen
    assert sides == {chess.WHITE, chess.BLACK}


def test_off_grid_weights_round_to_the_nearest_step(tmp_path: Path) -> None:
    """Off-grid float weights quantise to round(w * QA); then the output is the spec's."""
    arrays = random_arrays(3)
    rng = np.random.default_rng(5)
    jitter = rng.uniform(-0.49, 0.49, arrays["ft_weight"].shape) / netfile.QA
    arrays["ft_weight"] = np.clip(arrays["ft_weight"] + jitter, -1.98, 1.98).astype(np.float32)
    loaded = core.load_net(write_net(tmp_path / "jitter.npz", arrays))
    assert np.array_equal(loaded.ft_weight, np.rint(arrays["ft_weight"] * netfile.QA))
    grid = dict(arrays, ft_weight=(loaded.ft_weight / netfile.QA).astype(np.float32))
    board = chess.Board(FENS[1])
    q = core.net_output(net_position(FENS[1], loaded))
    assert abs(reference(board, grid) - q) <= TOLERANCE_CP


def test_colour_mirror_gets_the_same_eval(net: core.Net) -> None:
    """Board flipped, colours and side to move swapped: the same evaluation, exactly."""
    for fen in FENS:
        board = chess.Board(fen)
        mirrored = board.mirror()
        a = net_position(board.fen(), net)
        b = net_position(mirrored.fen(), net)
        assert core.net_output(a) == core.net_output(b)
        assert core.static_evaluate(a) == core.static_evaluate(b)


def test_search_with_the_net_returns_a_legal_move(net: core.Net) -> None:
    """A search on the net: a legal move, a score below the mate range, the net in use."""
    engine = Engine(hash_mb=1)
    engine.set_option("EvalFile", net.source)
    engine.set_option("UseNet", "true")
    assert engine.net is not None and engine.net_notice is None
    for fen in (FENS[0], FENS[2]):
        board = Board(fen)
        result = engine.search(board, Limit(depth=5))
        assert result.move is not None and board.is_legal(result.move)
        assert result.score is not None and not result.score.is_mate()
        assert abs(result.score.relative.score() or 0) < core.MATE_BOUND
        assert board.fen() == Board(fen).fen()  # the board's own position was not touched
    # The net, not the classical evaluation, gave the static evaluation.
    board = Board(FENS[1])
    assert engine.evaluate(board) == core.static_evaluate(net_position(FENS[1], net))
    engine.set_option("UseNet", "false")
    assert engine.evaluate(board) == core.evaluate_position(board.core_position())


def _bad(tmp_path: Path, name: str, **changes: np.ndarray | None) -> Path:
    """A net file with some entries changed (None: left out) or added."""
    arrays: dict[str, np.ndarray] = {}
    for key, value in {**random_arrays(1, 4), **changes}.items():
        replacement = changes.get(key, value)
        if replacement is not None:
            arrays[key] = replacement
    return write_net(tmp_path / name, arrays)


def test_bad_net_files_raise_one_line_errors(tmp_path: Path) -> None:
    """Missing key, wrong format, wrong shapes, out-of-range weights, not an npz: ValueError."""
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"this is not a zip archive at all")
    npy = tmp_path / "plain.npy"
    np.save(npy, np.zeros(3))
    cases = {
        _bad(tmp_path, "nobias.npz", ft_bias=None): "missing ft_bias",
        _bad(tmp_path, "v2.npz", format=np.array([2])): "format 2",
        _bad(tmp_path, "shape.npz", ft_weight=np.zeros((700, 4), np.float32)): "ft_weight",
        _bad(tmp_path, "out.npz", out_weight=np.zeros(5, np.float32)): "out_weight",
        _bad(tmp_path, "big.npz", out_bias=np.array([2.5], np.float32)): "outside",
        _bad(tmp_path, "nan.npz", ft_bias=np.full(4, np.nan, np.float32)): "outside",
        _bad(tmp_path, "scale.npz", scale=np.array([300.0], np.float32)): "scale",
        junk: "not a readable",
        npy: "not",
        tmp_path / "absent.npz": "no such file",
        tmp_path: "no such file",
    }
    for path, reason in cases.items():
        with pytest.raises(ValueError) as caught:
            core.load_net(path)
        text = str(caught.value)
        assert "\n" not in text and reason in text, text


def test_a_position_without_a_net_is_unchanged() -> None:
    """No net: an empty accumulator stack that moves never touch, and the classical search."""
    board = Board(FENS[1])
    pos = board.core_position()
    assert _accumulators(pos).shape == (1, 2, 0)
    for m in core.legal_moves(pos)[:5]:
        core.push_move(pos, int(m))
        core.unmake_move(pos)
    assert _accumulators(pos).shape == (1, 2, 0)
    assert core.perft_nodes(core.copy_position(pos), 3) == 97862


def _residual(arrays: dict[str, np.ndarray], tmp_path: Path, name: str) -> core.Net:
    """``arrays`` loaded as a residual net (file entry base = 1)."""
    marked = {**arrays, "base": np.array([netfile.BASE_HCE], dtype=np.int64)}
    return core.load_net(write_net(tmp_path / name, marked))


def test_residual_net_adds_its_output_to_the_classical_evaluation(
    net_arrays: dict[str, np.ndarray], tmp_path: Path
) -> None:
    """A residual net's evaluation is exactly the classical one plus the net's output, on
    positions with each side to move and after moves made incrementally."""
    residual = _residual(net_arrays, tmp_path, "residual.npz")
    pure = core.load_net(write_net(tmp_path / "pure.npz", net_arrays))
    assert residual.residual and not pure.residual
    sides = set()
    outputs = []
    for fen in FENS:
        board = Board(fen)
        for m in [None, *core.legal_moves(board.core_position())[:3]]:
            pos = net_position(fen, residual)
            if m is not None:
                core.push_move(pos, int(m))
            classical = int(core.evaluate_position(pos))
            output = core.net_output(pos)
            assert core.static_evaluate(pos) == classical + output, (fen, m)
            sides.add(Board(fen).turn if m is None else not Board(fen).turn)
            outputs.append(output)
    assert sides == {0, 1}
    assert np.std(outputs) > 20.0  # the net's part is not trivially zero


# Bishop and h-pawn against a lone king in the corner the bishop cannot guard: dead
# draws (the classical evaluation's wrong-bishop rule) that the packaged net, trained
# before that rule, corrected by -3 to -4.5 pawns into a "win" for the bare king.
WRONG_BISHOP_FENS = (
    "8/8/8/5k1p/7b/8/6K1/8 b - - 1 64",
    "8/8/5b2/7p/6k1/8/7K/8 w - - 4 66",
    "8/8/8/7p/6k1/6b1/8/7K b - - 11 69",
    "8/8/8/7p/8/5kb1/8/7K w - - 12 70",
)


@pytest.mark.parametrize("fen", WRONG_BISHOP_FENS)
def test_residual_correction_cannot_make_a_bare_king_the_winner(fen: str) -> None:
    """A residual net's correction that would put a side that cannot win ahead keeps
    only 1/16 of itself: these known draws stay near zero with the packaged net."""
    pos = net_position(fen, core.load_net(netfile.DEFAULT_NET))
    classical = int(core.evaluate_position(pos))
    assert abs(classical) <= 40  # the classical evaluation knows the draw
    assert abs(core.static_evaluate(pos)) <= 40, (classical, core.net_output(pos))


KNIGHT_AGAINST_PAWN_FENS = (
    "8/8/4k3/8/2N5/8/4P3/4K3 w - - 0 1",
    "8/4p3/4k3/8/2N5/8/8/4K3 w - - 0 1",
    "8/4p3/4k3/8/2N5/8/8/4K3 b - - 0 1",
    "4k3/8/8/3n4/8/8/1P6/4K3 w - - 0 1",
)


def cannot_win(board: chess.Board, color: chess.Color) -> bool:
    """python-chess's view: ``color`` has no pawn, rook or queen and at most one minor."""
    heavy = board.pieces(chess.PAWN, color) | board.pieces(chess.ROOK, color)
    minors = board.pieces(chess.KNIGHT, color) | board.pieces(chess.BISHOP, color)
    return not heavy and not board.pieces(chess.QUEEN, color) and len(minors) <= 1


def reference_residual_sum(board: chess.Board, classical: int, output: int) -> tuple[int, bool]:
    """The spec's residual evaluation written independently (before the mate clamp), and
    whether the cannot-win rule divided the correction by 16 (rounding toward zero)."""
    whole = classical + output
    if whole == 0 or (whole > 0) != (output > 0):
        return whole, False
    if not cannot_win(board, board.turn if whole > 0 else not board.turn):
        return whole, False
    return classical + (output // 16 if output >= 0 else -(-output // 16)), True


@pytest.mark.parametrize("seed", range(6))
def test_residual_sum_divides_only_a_correction_toward_a_side_that_cannot_win(
    seed: int, tmp_path: Path
) -> None:
    """Knight against pawns: the net's correction is divided by 16 exactly when the sum
    puts the knight's side (which cannot win) ahead and the correction is what put it
    there; otherwise the evaluation is the classical one plus the whole output."""
    net = _residual(random_arrays(100 + seed), tmp_path, f"r{seed}.npz")
    seen = set()
    for fen in KNIGHT_AGAINST_PAWN_FENS:
        pos = net_position(fen, net)
        classical = int(core.evaluate_position(pos))
        output = core.net_output(pos)
        expected, divided = reference_residual_sum(chess.Board(fen), classical, output)
        assert core.static_evaluate(pos) == expected, (fen, classical, output)
        seen.add(divided)
    assert seen == {True, False}


def test_residual_net_of_zero_output_searches_as_the_classical_engine(
    net_arrays: dict[str, np.ndarray], tmp_path: Path
) -> None:
    """Zero output weights and bias: the hybrid search visits exactly the classical
    search's nodes and picks its move (the dispatch adds the net and nothing else)."""
    zero = {**net_arrays, "out_weight": np.zeros_like(net_arrays["out_weight"]),
            "out_bias": np.zeros_like(net_arrays["out_bias"])}  # fmt: skip
    residual = _residual(zero, tmp_path, "zero.npz")
    classical = Engine(hash_mb=1)
    classical.set_net(None)  # the classical evaluation even where plies ships a default net
    hybrid = Engine(hash_mb=1)
    hybrid.set_net(residual)
    board = Board(FENS[1])
    plain = classical.search(board, Limit(depth=6))
    mixed = hybrid.search(board, Limit(depth=6))
    assert plain.score is not None and mixed.score is not None
    assert mixed.nodes == plain.nodes and mixed.move == plain.move
    assert hybrid.evaluate(board) == classical.evaluate(board)
    # A nonzero residual net changes the search (the net is really consulted).
    hybrid.set_net(_residual(net_arrays, tmp_path, "residual.npz"))
    changed = hybrid.search(board, Limit(depth=6))
    assert changed.score is not None and changed.nodes != plain.nodes


def test_bad_base_values_raise_one_line_errors(tmp_path: Path) -> None:
    """An unknown, fractional or multi-valued ``base`` entry: a one-line ValueError."""
    cases = {
        _bad(tmp_path, "base2.npz", base=np.array([2], np.int64)): "base 2 is unknown",
        _bad(tmp_path, "basef.npz", base=np.array([1.0], np.float32)): "base must hold",
        _bad(tmp_path, "base11.npz", base=np.array([1, 1], np.int64)): "base must hold",
    }
    for path, reason in cases.items():
        with pytest.raises(ValueError) as caught:
            core.load_net(path)
        text = str(caught.value)
        assert "\n" not in text and reason in text, text
    assert core.load_net(_bad(tmp_path, "base0.npz", base=np.array([0], np.int64))).base == 0


def test_packaged_nets_load() -> None:
    """The packaged default net is a residual net with 8 output buckets, the packaged opt-in
    one a pure net with one output."""
    nets = netfile.DEFAULT_NET.parent
    default = core.load_net(nets / "default.npz")
    pure = core.load_net(nets / "pure-h128.npz")
    assert default.residual and default.hidden == 128 and default.out_bias.shape == (8,)
    assert not pure.residual and pure.hidden == 128 and pure.out_bias.shape == (1,)


def _thinned_boards(seed: int, count: int) -> list[chess.Board]:
    """Legal positions from the start with random pieces taken off: 2 to 32 pieces."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        squares = [sq for sq, p in board.piece_map().items() if p.piece_type != chess.KING]
        for sq in rng.sample(squares, rng.randint(0, len(squares))):
            board.remove_piece_at(sq)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        board.castling_rights = chess.BB_EMPTY
        if board.is_valid():
            boards.append(board)
    return boards


def test_bucketed_net_matches_the_float_reference_in_every_bucket(tmp_path: Path) -> None:
    """8 buckets of unrelated random weights: the quantised output equals the spec's float
    formula with the position's own bucket, on positions of 2 to 32 pieces (all 8 buckets),
    and differs from the output any other bucket would give; also after captures made."""
    arrays = random_arrays(21, buckets=8)
    net = core.load_net(write_net(tmp_path / "b8.npz", arrays))
    assert net.buckets == 8 and net.out_weight.shape == (8, 2 * HIDDEN)
    assert "8 output buckets" in net.describe()
    used = set()
    wrong_gaps = []
    for board in _thinned_boards(5, 160):
        pieces = len(board.piece_map())
        bucket = min((pieces - 2) // 4, 7)
        used.add(bucket)
        q = core.net_output(net_position(board.fen(), net))
        assert abs(reference(board, arrays) - q) <= TOLERANCE_CP, board.fen()
        # The same net with this bucket's weights moved to another bucket's place.
        other = (bucket + 3) % 8
        swapped = dict(arrays, out_weight=arrays["out_weight"][[other] * 8],
                       out_bias=arrays["out_bias"][[other] * 8])  # fmt: skip
        wrong_gaps.append(abs(reference(board, swapped) - q))
    assert used == set(range(8))
    assert np.median(wrong_gaps) > 50.0  # a wrong bucket would be caught
    # Captures change the bucket along a line; incremental accumulators, fresh bucket.
    rng = random.Random(3)
    pos = net_position(FENS[1], net)
    board = chess.Board(FENS[1])
    core.net_output(pos)
    buckets_seen = set()
    for _ply in range(60):
        moves = [int(m) for m in core.legal_moves(pos)]
        if not moves:
            break
        captures = [m for m in moves if (m >> 12) & 4]  # flags 4, 5, 12-15 capture
        m = rng.choice(captures or moves)
        core.push_move(pos, m)
        board.push(chess.Move.from_uci(core_to_move(m).uci()))
        buckets_seen.add(min((len(board.piece_map()) - 2) // 4, 7))
        q = int(nnue.output(pos))
        assert abs(reference(board, arrays) - q) <= TOLERANCE_CP, board.fen()
    assert len(buckets_seen) >= 3


def test_single_output_files_evaluate_as_before(
    net: core.Net, tmp_path: Path, net_arrays: dict[str, np.ndarray]
) -> None:
    """A single-output file ([2H], [1]) is one bucket; written as [1, 2H] and [1], or with its
    output copied into 8 buckets, it gives exactly the same outputs."""
    assert net.buckets == 1 and net.out_weight.shape == (1, 2 * HIDDEN)
    one = dict(net_arrays, out_weight=net_arrays["out_weight"].reshape(1, -1))
    eight = dict(net_arrays, out_weight=np.tile(net_arrays["out_weight"], (8, 1)),
                 out_bias=np.tile(net_arrays["out_bias"], 8))  # fmt: skip
    nets = [core.load_net(write_net(tmp_path / f"{name}.npz", arrays))
            for name, arrays in (("one", one), ("eight", eight))]  # fmt: skip
    assert [n.buckets for n in nets] == [1, 8]
    for board in _thinned_boards(9, 40):
        q = core.net_output(net_position(board.fen(), net))
        assert [core.net_output(net_position(board.fen(), n)) for n in nets] == [q, q]
        assert core.static_evaluate(net_position(board.fen(), nets[1])) == core.static_evaluate(
            net_position(board.fen(), net))


def test_bad_bucket_shapes_raise_one_line_errors(tmp_path: Path) -> None:
    """Output weights and biases whose bucket counts or widths disagree, too many buckets,
    a bucket out of range: a one-line ValueError."""
    hidden = 4
    cases = {
        _bad(tmp_path, "bias.npz", out_weight=np.zeros((8, 2 * hidden), np.float32)):
            "out_bias has shape (1,), expected (8,)",
        _bad(tmp_path, "bias7.npz", out_weight=np.zeros((8, 2 * hidden), np.float32),
             out_bias=np.zeros(7, np.float32)): "out_bias has shape (7,), expected (8,)",
        _bad(tmp_path, "wide.npz", out_weight=np.zeros((8, 2 * hidden + 1), np.float32),
             out_bias=np.zeros(8, np.float32)): "out_weight has shape (8, 9)",
        _bad(tmp_path, "cube.npz", out_weight=np.zeros((2, 2, 2 * hidden), np.float32)):
            "out_weight has shape (2, 2, 8)",
        _bad(tmp_path, "many.npz", out_weight=np.zeros((33, 2 * hidden), np.float32),
             out_bias=np.zeros(33, np.float32)): "1 <= B <= 32",
        _bad(tmp_path, "none.npz", out_weight=np.zeros((0, 2 * hidden), np.float32),
             out_bias=np.zeros(0, np.float32)): "1 <= B <= 32",
        _bad(tmp_path, "big.npz", out_weight=np.zeros((8, 2 * hidden), np.float32),
             out_bias=np.array([0, 0, 0, 3.0, 0, 0, 0, 0], np.float32)): "outside",
    }  # fmt: skip
    for path, reason in cases.items():
        with pytest.raises(ValueError) as caught:
            core.load_net(path)
        text = str(caught.value)
        assert "\n" not in text and reason in text, text


@pytest.mark.parametrize("kind", ["classical", "residual", "pure"])
def test_search_evaluation_fades_with_the_fifty_move_clock(
    kind: str, net_arrays: dict[str, np.ndarray], tmp_path: Path
) -> None:
    """Every evaluation the search uses keeps (200 - halfmove) / 200 of itself, halfmove
    capped at 100, so a lead that makes no progress shrinks toward the fifty-move draw."""
    from plies.core import static_eval

    net = {"classical": None, "residual": _residual(net_arrays, tmp_path, "r.npz"),
           "pure": core.load_net(write_net(tmp_path / "p.npz", net_arrays))}[kind]  # fmt: skip
    values = []
    for halfmove in (0, 40, 100, 140):
        pos = core.copy_position(Board(f"4k3/8/8/8/8/8/3PP3/1Q2K3 w - - {halfmove} 90")
                                 .core_position())  # fmt: skip
        core.attach_net(pos, net)
        if net is not None:
            nnue.refresh(pos)
        values.append(int(static_eval.evaluate(pos)))
    fresh = values[0]
    sign = 1 if fresh >= 0 else -1
    assert fresh != 0 and (kind != "classical" or fresh > 500)
    assert values[1] == sign * (abs(fresh) * 160 // 200)
    assert values[2] == values[3] == sign * (abs(fresh) * 100 // 200)
