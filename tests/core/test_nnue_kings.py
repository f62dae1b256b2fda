"""King-bucketed nets (format 2 of docs/nnue-spec.md) in the compiled core, against the spec.

The nets are random and seeded, on the quantisation grid as in ``test_nnue``; the
reference below restates the spec's king-bucket formula in plain Python.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import numpy as np
import pytest
from tests.core.test_nnue import (
    FENS,
    HIDDEN,
    TOLERANCE_CP,
    net_fixture,
    net_position,
    random_arrays,
    reference_output,
    write_net,
)
from tests.core.test_nnue import reference as plain_reference

import plies.core as core
from plies.board import Board
from plies.board.board import core_to_move
from plies.core import netfile, nnue
from plies.engine import Engine, Limit

KINGS = 4
"""King buckets of the test nets."""


def layout_four() -> np.ndarray:
    """The spec's four-bucket layout over all 64 squares (e-h as the mirror image of a-d):
    a1-c1 0, d1 1, rank 2 2, ranks 3-8 3."""
    table = np.full(64, 3, dtype=np.int64)
    for sq in range(64):
        rank, file = divmod(sq, 8)
        file = min(file, 7 - file)
        if rank == 0:
            table[sq] = 1 if file == 3 else 0
        elif rank == 1:
            table[sq] = 2
    return table


def king_arrays(
    seed: int, mirror: int = 1, table: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """A random format-2 net: ``KINGS`` independent blocks of 768 feature rows."""
    blocks = [random_arrays(seed + k, buckets=8)["ft_weight"] for k in range(KINGS)]
    arrays = random_arrays(seed, buckets=8)
    arrays["ft_weight"] = np.concatenate(blocks)
    arrays["format"] = np.array([2], dtype=np.int64)
    arrays["king_buckets"] = layout_four() if table is None else table
    arrays["king_mirror"] = np.array([mirror], dtype=np.int64)
    return arrays


def reference(board: chess.Board, arrays: dict[str, np.ndarray]) -> float:
    """The spec's float evaluation with king buckets (centipawns, side to move)."""
    ft_weight = arrays["ft_weight"].astype(np.float64)
    mirror = int(arrays["king_mirror"][0])
    acc = []
    for p in (0, 1):
        rel = (lambda s: s) if p == 0 else (lambda s: s ^ 56)
        ks = rel(board.king(chess.WHITE if p == 0 else chess.BLACK))
        flip = 7 if mirror == 1 and ks % 8 >= 4 else 0
        kb = int(arrays["king_buckets"][ks ^ flip])
        row = arrays["ft_bias"].astype(np.float64).copy()
        for sq, piece in board.piece_map().items():
            c = 0 if piece.color == chess.WHITE else 1
            index = kb * 768 + (0 if c == p else 384) + (piece.piece_type - 1) * 64
            row += ft_weight[index + (rel(sq) ^ flip)]
        acc.append(row)
    return reference_output(board, arrays, acc)


@pytest.fixture(scope="module")
def net_arrays() -> dict[str, np.ndarray]:
    """The module's random king net's arrays (``net_fixture`` loads them)."""
    return king_arrays(31)


net = net_fixture()


def _king_boards(seed: int, count: int) -> list[chess.Board]:
    """Legal positions with both kings on random squares and random pieces taken off."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board()
        for sq in [sq for sq, p in board.piece_map().items()]:
            if rng.random() < 0.5:
                board.remove_piece_at(sq)
        for color in (chess.WHITE, chess.BLACK):
            board.set_piece_at(rng.choice([s for s in chess.SQUARES if board.piece_at(s) is None]),
                               chess.Piece(chess.KING, color))  # fmt: skip
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        board.castling_rights = chess.BB_EMPTY
        if board.is_valid():
            boards.append(board)
    return boards


def _moves_king(board: chess.Board, m: int) -> bool:
    """Whether core move ``m`` moves a king on ``board``."""
    return board.piece_type_at(core_to_move(m).from_square) == chess.KING


def test_king_net_loads_with_its_layout(net: core.Net) -> None:
    """A format-2 file gives K blocks of weights and the map the spec's formula implies."""
    assert net.king_buckets == KINGS and net.ft_weight.shape == (KINGS * 768, HIDDEN)
    assert "4 king buckets, mirrored" in net.describe()
    table = layout_four()
    for sq in range(64):
        flip = 7 if sq % 8 >= 4 else 0
        assert net.king_map[0, sq] == table[sq ^ flip] * 768
        assert net.king_map[1, sq] == flip


@pytest.mark.parametrize("mirror", [1, 0])
def test_king_net_matches_the_float_reference(tmp_path: Path, mirror: int) -> None:
    """Kings on every bucket and both halves, either side to move: the quantised output is
    the spec's float formula; a net read without its king buckets would be far off."""
    table = layout_four() if mirror else np.arange(64, dtype=np.int64) % KINGS
    arrays = king_arrays(41, mirror, table)
    net = core.load_net(write_net(tmp_path / "k.npz", arrays))
    seen = set()
    gaps = []
    for board in _king_boards(3, 150):
        q = core.net_output(net_position(board.fen(), net))
        assert abs(reference(board, arrays) - q) <= TOLERANCE_CP, board.fen()
        ks = board.king(board.turn)
        ks = ks if board.turn == chess.WHITE else ks ^ 56
        flip = 7 if mirror and ks % 8 >= 4 else 0
        seen.add((int(table[ks ^ flip]), flip))
        # The first block alone, as a reader that ignored the king buckets would use it.
        gaps.append(abs(plain_reference(board, dict(arrays, ft_weight=arrays["ft_weight"][:768]))
                        - q))  # fmt: skip
    assert {kb for kb, _ in seen} == set(range(KINGS))
    assert {flip for _, flip in seen} == ({0, 7} if mirror else {0})
    assert np.median(gaps) > 50.0


def test_lazy_accumulators_follow_king_moves_and_unmakes(
    net: core.Net, net_arrays: dict[str, np.ndarray]
) -> None:
    """A random walk of moves (king moves favoured), null moves and unmakes, evaluating
    at random plies through the lazy path the search uses: every output is the spec's,
    whether the rows between were derived, rebuilt from the board, or left pending."""
    rng = random.Random(5)
    changes = 0
    checked = 0
    for fen in (*FENS, "8/8/3k4/8/2p5/8/3KP3/8 w - - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"):
        pos = net_position(fen, net)
        board = chess.Board(fen)
        core.net_output(pos)
        for _step in range(250):
            roll = rng.random()
            if roll < 0.25 and board.move_stack:
                if board.peek():
                    core.unmake_move(pos)
                else:
                    core.pop_null(pos)
                board.pop()
            elif roll < 0.3 and not board.is_check() and board.move_stack:
                core.push_null(pos)
                board.push(chess.Move.null())
            else:
                moves = [int(m) for m in core.legal_moves(pos)]
                if not moves:
                    continue
                kings = [m for m in moves if _moves_king(board, m)]
                m = rng.choice(kings if kings and rng.random() < 0.5 else moves)
                move = chess.Move.from_uci(core_to_move(m).uci())
                if board.piece_type_at(move.from_square) == chess.KING:
                    color = 0 if board.turn == chess.WHITE else 1
                    before = nnue.square_view(net.king_map, color, move.from_square)
                    king_to = core_to_move(m).to_square
                    changes += before != nnue.square_view(net.king_map, color, king_to)
                core.push_move(pos, m)
                board.push(move)
            if rng.random() < 0.4:
                assert abs(reference(board, net_arrays) - int(nnue.output(pos))) <= TOLERANCE_CP, (
                    fen, [m.uci() for m in board.move_stack])
                checked += 1
    assert changes > 50 and checked > 500


def test_equal_buckets_without_mirror_evaluate_as_format_one(tmp_path: Path) -> None:
    """Four copies of one net's weights, no mirror: exactly the format-1 net's outputs,
    by refresh and along lines with king moves."""
    plain = random_arrays(17, buckets=8)
    kings = dict(plain, ft_weight=np.tile(plain["ft_weight"], (KINGS, 1)),
                 format=np.array([2], dtype=np.int64), king_buckets=layout_four(),
                 king_mirror=np.array([0], dtype=np.int64))  # fmt: skip
    one = core.load_net(write_net(tmp_path / "one.npz", plain))
    four = core.load_net(write_net(tmp_path / "four.npz", kings))
    rng = random.Random(9)
    for fen in FENS:
        a, b = net_position(fen, one), net_position(fen, four)
        assert core.net_output(a) == core.net_output(b)
        for _ply in range(40):
            moves = [int(m) for m in core.legal_moves(a)]
            if not moves:
                break
            m = rng.choice(moves)
            core.push_move(a, m)
            core.push_move(b, m)
            assert int(nnue.output(a)) == int(nnue.output(b))


def test_search_with_a_king_net_returns_a_legal_move(net: core.Net) -> None:
    """The engine searches with a king net (many king moves in an endgame) and stays legal."""
    engine = Engine(hash_mb=1)
    engine.set_option("EvalFile", net.source)
    engine.set_option("UseNet", "true")
    assert engine.net is not None and engine.net.king_buckets == KINGS
    for fen in ("8/5k2/8/3p4/3P4/4K3/8/8 w - - 0 1", FENS[1]):
        board = Board(fen)
        result = engine.search(board, Limit(depth=8))
        assert result.move is not None and board.is_legal(result.move)
        assert board.fen() == Board(fen).fen()


def _bad(tmp_path: Path, name: str, **changes: np.ndarray | None) -> Path:
    """A king net file with some entries changed (None: left out)."""
    arrays = {**king_arrays(1), **changes}
    return write_net(tmp_path / name, {k: v for k, v in arrays.items() if v is not None})


def test_bad_king_files_raise_one_line_errors(tmp_path: Path) -> None:
    """Missing or malformed king entries, king entries in a format-1 file, a bucket table
    that disagrees with the weights: a one-line ValueError naming the problem."""
    table = layout_four()
    unused = table.copy()
    unused[unused == 2] = 3
    unread = table.copy()
    unread[63] = 7  # h8: read as a8 through the mirror, but the spec bounds every entry
    cases = {
        _bad(tmp_path, "nomirror.npz", king_mirror=None): "without king_mirror",
        _bad(tmp_path, "notable.npz", king_buckets=None): "without king_buckets",
        _bad(tmp_path, "mirror2.npz", king_mirror=np.array([2])): "king_mirror 2",
        _bad(tmp_path, "short.npz", king_buckets=table[:32]): "king_buckets has shape (32,)",
        _bad(tmp_path, "float.npz", king_buckets=table.astype(np.float32)): "integers",
        _bad(tmp_path, "negative.npz", king_buckets=table - 1): "outside",
        _bad(tmp_path, "unused.npz", king_buckets=unused): "every bucket",
        _bad(tmp_path, "unread.npz", king_buckets=unread): "outside 0..3",
        _bad(tmp_path, "many.npz", king_buckets=np.arange(64) % 33,
             king_mirror=np.array([0])): "at most 32",
        _bad(tmp_path, "rows.npz", king_buckets=table % 3): "expected (2304, H)",
        _bad(tmp_path, "format1.npz", format=np.array([1])): "need format 2",
        _bad(tmp_path, "format3.npz", format=np.array([3])): "format 3",
    }
    for path, reason in cases.items():
        with pytest.raises(ValueError) as caught:
            core.load_net(path)
        text = str(caught.value)
        assert "\n" not in text and reason in text, (path.name, text)
    assert netfile.FORMAT_KINGS == 2
