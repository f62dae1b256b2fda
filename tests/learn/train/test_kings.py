"""King buckets (spec format 2): the index against the spec's formula, the kernels' rows,
the factoriser's fold, the file, the start from a format-1 net, training and the CLI."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from tests.learn.train.test_training import _material_file

from plies.core.netfile import NetFileError
from plies.learn.split import split_rows
from plies.learn.train.features import KING_LAYOUTS, feature_index, king_layout
from plies.learn.train.kernels import Examples, Params, batch_gradient, raw_outputs
from plies.learn.train.loader import Dataset, parse_buffer, read_dataset
from plies.learn.train.network import (
    Network,
    initial_network,
    load_network,
    save_network,
    with_king_buckets,
)
from plies.learn.train.target import targets
from plies.learn.train.trainer import Settings, loss, train

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"

# The spec's `--king-buckets 4`, written out square by square (files a-d after the mirror).
SPEC_LAYOUT_4 = {
    **{name: 0 for name in ("a1", "b1", "c1")},
    "d1": 1,
    **{f"{f}2": 2 for f in "abcd"},
    **{f"{f}{r}": 3 for f in "abcd" for r in range(3, 9)},
}


def _spec_index(
    p: chess.Color, c: chess.Color, k: int, s: int, king: int, table: dict[int, int], mirror: int
) -> int:
    """The spec's format-2 index, re-stated line by line (python-chess squares, a1 = 0)."""
    rel = (lambda q: q) if p == chess.WHITE else (lambda q: q ^ 56)
    ks = rel(king)
    flip = 7 if mirror == 1 and ks % 8 >= 4 else 0
    kb = table[ks ^ flip]
    return kb * 768 + (0 if c == p else 384) + (k - 1) * 64 + (rel(s) ^ flip)


def _spec_table() -> dict[int, int]:
    """SPEC_LAYOUT_4 keyed by square number (only the files a-d the spec's mirror reads)."""
    return {chess.parse_square(name): bucket for name, bucket in SPEC_LAYOUT_4.items()}


def _spec_features(board: chess.Board, p: chess.Color) -> list[int]:
    """The spec's sorted format-2 indices of perspective ``p`` under the 4-bucket layout."""
    king = board.king(p)
    assert king is not None
    table = _spec_table()
    return sorted(
        _spec_index(p, piece.color, piece.piece_type, s, king, table, 1)
        for s, piece in board.piece_map().items()
    )


def _random_boards(count: int, seed: int) -> list[chess.Board]:
    """Legal positions: random kings (each square in turn for White's) and a few random
    pieces, plus positions of random games; python-chess checks each is valid."""
    rng = np.random.default_rng(seed)
    kinds = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        board.set_piece_at(len(boards) % 64, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(int(rng.integers(64)), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(int(rng.integers(0, 12))):
            square = int(rng.integers(64))
            kind = kinds[int(rng.integers(5))]
            back_rank = kind == chess.PAWN and square // 8 in (0, 7)
            if board.piece_at(square) is None and not back_rank:
                board.set_piece_at(square, chess.Piece(kind, bool(rng.integers(2))))
        board.turn = bool(rng.integers(2))
        if board.is_valid():
            boards.append(board)
    game = chess.Board()
    for _ in range(count):
        moves = list(game.legal_moves)
        if not moves or game.halfmove_clock > 60:
            game = chess.Board()
            continue
        game.push(moves[int(rng.integers(len(moves)))])
        boards.append(game.copy(stack=False))
    return boards


def _dataset(boards: list[chess.Board]) -> Dataset:
    """The boards as the trainer's loader reads them."""
    text = "".join(f"{b.fen()} | 0 | 0.5\n" for b in boards).encode()
    data, status = parse_buffer(np.frombuffer(text, dtype=np.uint8))
    assert (status == 0).all()
    return data


def test_layout_4_is_the_spec_table() -> None:
    """Files a-d are the spec's listing; files e-h hold their mirror image; mirror on."""
    table, mirror = king_layout(4)
    assert mirror == 1 and table.dtype == np.int64 and table.shape == (64,)
    for square in range(64):
        name = chess.square_name(square ^ (7 if square % 8 >= 4 else 0))
        assert table[square] == SPEC_LAYOUT_4[name], chess.square_name(square)
    assert sorted(set(table.tolist())) == [0, 1, 2, 3]
    assert sorted(KING_LAYOUTS) == [4]
    with pytest.raises(ValueError, match="king buckets"):
        king_layout(5)


def test_feature_index_is_the_spec_formula() -> None:
    """feature_index with king buckets equals the re-stated formula for every piece of
    many random legal positions, both perspectives, every bucket on both mirror sides."""
    table, mirror = king_layout(4)
    spec = _spec_table()
    seen = set()
    for board in _random_boards(300, 11):
        for p in (chess.WHITE, chess.BLACK):
            king = board.king(p)
            assert king is not None
            ks = king if p == chess.WHITE else king ^ 56
            seen.add((p, ks % 8 >= 4, spec[ks ^ (7 if ks % 8 >= 4 else 0)]))
            for s, piece in board.piece_map().items():
                c, k = int(not piece.color), piece.piece_type  # plies: WHITE 0, BLACK 1
                ours = feature_index(int(not p), c, k, s, king, table, mirror)
                assert ours == _spec_index(p, piece.color, k, s, king, spec, 1), board.fen()
    assert len(seen) == 2 * 2 * 4  # perspectives x mirror sides x buckets


def _touched(
    data: Dataset, row: int, mirror: int, net: Network
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The feature rows the kernels use for one position: (side to move's bucket rows,
    other side's bucket rows, side to move's shared rows, other side's shared rows), read
    off the gradient of a net whose two accumulator halves each feed one output."""
    grads = tuple(np.zeros_like(a) for a in net.arrays())
    rows = np.array([row], dtype=np.int64)
    zero = np.zeros((len(data), 2), dtype=np.float64)
    target = np.full(len(data), 0.5)
    mirrors = np.array([mirror], dtype=np.int64)
    batch_gradient(Examples(data.features, data.stm, target, zero), rows, mirrors, 1.0,
                   net.arrays(), Params(*grads), net.kings())  # fmt: skip
    g = grads[0]
    shared = net.king_count * 768
    stm, other = np.flatnonzero(g[:, 0]), np.flatnonzero(g[:, 1])
    return (
        [int(i) for i in stm if i < shared],
        [int(i) for i in other if i < shared],
        [int(i) - shared for i in stm if i >= shared],
        [int(i) - shared for i in other if i >= shared],
    )


def test_kernels_use_the_spec_rows() -> None:
    """The rows the compiled kernels train are the spec's indices of each perspective
    (the side to move's and the other's), the shared block the same without the bucket;
    a row trained mirrored (the augmentation) uses the mirror image's indices."""
    boards = _random_boards(120, 12)
    data = _dataset(boards)
    net = initial_network(2, 0, king_buckets=4).astype(np.float64)
    # Every accumulator sits at 0.5, in the screlu's live range; the side to move's half
    # feeds output 0 only, the other side's output 1 only.
    net.ft_weight[:] = 0.0
    net.ft_bias[:] = 0.5
    net.out_weight[:] = [1.0, 0.0, 0.0, 1.0]
    for i, board in enumerate(boards):
        for mirror in (0, 7):
            seen = board.transform(chess.flip_horizontal) if mirror else board
            stm, other, stm_shared, other_shared = _touched(data, i, mirror, net)
            assert stm == _spec_features(seen, seen.turn), (board.fen(), mirror)
            assert other == _spec_features(seen, not seen.turn), (board.fen(), mirror)
            assert stm_shared == sorted(x % 768 for x in stm)
            assert other_shared == sorted(x % 768 for x in other)


def _spec_eval(board: chess.Board, f: dict[str, np.ndarray]) -> float:
    """The spec's float evaluation (cp, side to move) of a format-2 file's arrays."""
    table = {s: int(f["king_buckets"][s]) for s in range(64)}
    mirror = int(f["king_mirror"][0])
    hidden = f["ft_bias"].shape[0]

    def acc(p: chess.Color) -> np.ndarray:
        """Accumulator of perspective ``p``."""
        king = board.king(p)
        assert king is not None
        total = f["ft_bias"].astype(np.float64).copy()
        for s, piece in board.piece_map().items():
            total += f["ft_weight"][
                _spec_index(p, piece.color, piece.piece_type, s, king, table, mirror)
            ]
        return total

    ow = f["out_weight"].astype(np.float64).reshape(-1, 2 * hidden)
    bucket = min(max((len(board.piece_map()) - 2) * ow.shape[0] // 32, 0), ow.shape[0] - 1)
    stm = np.clip(acc(board.turn), 0.0, 1.0) ** 2
    other = np.clip(acc(not board.turn), 0.0, 1.0) ** 2
    raw = float(f["out_bias"][bucket]) + ow[bucket, :hidden] @ stm + ow[bucket, hidden:] @ other
    return raw * float(f["scale"][0])


def _random_net(hidden: int, seed: int) -> Network:
    """A 4-king-bucket net (factorised, 8 output buckets) with every weight random."""
    net = initial_network(hidden, seed, buckets=8, king_buckets=4)
    rng = np.random.default_rng(seed)
    for a, spread in zip(net.arrays(), (0.1, 0.3, 0.5, 0.2), strict=True):
        a[:] = rng.normal(0.0, spread, size=a.shape)
    return net


def test_file_round_trip_and_spec_forward(tmp_path: Path) -> None:
    """The written file is format 2 with the layout and the shared block folded into
    every bucket block; the spec's formula on it gives the trainer's output; read back,
    it evaluates the same and is written again unchanged."""
    net = _random_net(8, 3)
    path = tmp_path / "kings.npz"
    save_network(path, net)
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    assert arrays["format"].tolist() == [2] and arrays["format"].dtype == np.int64
    assert arrays["king_mirror"].tolist() == [1] and arrays["king_mirror"].dtype == np.int64
    assert np.array_equal(arrays["king_buckets"], king_layout(4)[0])
    assert arrays["king_buckets"].dtype == np.int64
    assert arrays["ft_weight"].shape == (4 * 768, 8) and arrays["ft_weight"].dtype == np.float32
    w = net.ft_weight.reshape(5, 768, 8)
    assert np.array_equal(arrays["ft_weight"].reshape(4, 768, 8), w[:4] + w[4])
    data, _ = read_dataset(SAMPLE)
    rows = np.arange(0, len(data), 41, dtype=np.int64)
    trained = raw_outputs(data.features, data.stm, rows, net.arrays(), net.kings())
    text = SAMPLE.read_bytes()
    for r, value in zip(rows, trained, strict=True):
        start = int(data.offset[r])
        board = chess.Board(text[start : text.index(b"|", start)].decode())
        assert value * 400.0 == pytest.approx(_spec_eval(board, arrays), abs=1e-3)
    back = load_network(path)
    assert back.factor and back.king_mirror == 1 and back.king_count == 4
    assert not back.ft_weight[4 * 768 :].any()
    again = raw_outputs(data.features, data.stm, rows, back.arrays(), back.kings())
    assert np.allclose(again, trained, atol=1e-5)
    save_network(tmp_path / "again.npz", back)
    with np.load(tmp_path / "again.npz") as f:
        assert sorted(f.files) == sorted(arrays)
        assert all(np.array_equal(f[k], arrays[k]) for k in arrays)


def test_without_king_buckets_the_file_stays_format_1(tmp_path: Path) -> None:
    """A net without king buckets writes exactly the format-1 keys."""
    path = tmp_path / "plain.npz"
    save_network(path, initial_network(8, 0, buckets=8))
    with np.load(path) as f:
        assert sorted(f.files) == sorted(
            ["ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format"]
        )
        assert f["format"].tolist() == [1] and f["ft_weight"].shape == (768, 8)


def test_malformed_format_2_files(tmp_path: Path) -> None:
    """Each malformed king-bucket file is refused with a one-line NetFileError naming it."""
    path = tmp_path / "kings.npz"
    save_network(path, initial_network(4, 0, king_buckets=4))
    with np.load(path) as f:
        good = {k: f[k] for k in f.files}
    table = good["king_buckets"]
    gap = np.where(table == 3, 4, table)  # buckets 0, 1, 2, 4: bucket 3 unused
    cases = {
        "no_mirror": ({k: v for k, v in good.items() if k != "king_mirror"}, "king_mirror"),
        "no_table": ({k: v for k, v in good.items() if k != "king_buckets"}, "king_buckets"),
        "negative": ({**good, "king_buckets": np.where(table == 0, -1, table)}, "king_buckets"),
        "gap": ({**good, "king_buckets": gap, "ft_weight": np.zeros((5 * 768, 4))}, "0, 1, 2, 4"),
        "short": ({**good, "king_buckets": table[:63]}, "king_buckets"),
        "float": ({**good, "king_buckets": table.astype(np.float32)}, "king_buckets"),
        "mirror2": ({**good, "king_mirror": np.array([2])}, "king_mirror"),
        "rows": ({**good, "ft_weight": np.zeros((768, 4), np.float32)}, "ft_weight"),
        "in_v1": ({**good, "format": np.array([1])}, "format-1"),
        "v3": ({**good, "format": np.array([3])}, "format"),
    }
    for name, (arrays, words) in cases.items():
        np.savez(tmp_path / f"{name}.npz", **arrays)
        with pytest.raises(NetFileError, match=words) as caught:
            load_network(tmp_path / f"{name}.npz")
        assert "\n" not in str(caught.value) and f"{name}.npz" in str(caught.value)


def test_start_from_a_format_1_net() -> None:
    """A format-1 net turned into king buckets (shared block = its weights, buckets zero)
    evaluates exactly as it does where neither king is mirrored (both on files a-d), and
    as it evaluates the mirror image where both are (files e-h); initial_network with
    king buckets is that turn of the format-1 start of the same seed."""
    plain = initial_network(16, 5, buckets=8)
    rng = np.random.default_rng(5)
    plain.ft_weight[:] = rng.normal(0.0, 0.1, size=plain.ft_weight.shape)
    plain.out_weight[:] = rng.normal(0.0, 0.5, size=plain.out_weight.shape)
    kings = with_king_buckets(plain, 4)
    assert kings.ft_weight.shape == (5 * 768, 16) and not kings.ft_weight[: 4 * 768].any()
    assert np.array_equal(kings.ft_weight[4 * 768 :], plain.ft_weight)
    data, _ = read_dataset(SAMPLE)
    king_file = np.zeros((len(data), 2), dtype=np.int64)
    for colour, base in ((0, 5 * 64), (1, 384 + 5 * 64)):
        # One king of each colour per row: the mask picks one index per row, in row order.
        king = (data.features >= base) & (data.features < base + 64)
        king_file[:, colour] = (data.features[king] - base) % 8
    left = np.flatnonzero((king_file < 4).all(axis=1)).astype(np.int64)
    right = np.flatnonzero((king_file >= 4).all(axis=1)).astype(np.int64)
    assert len(left) > 50 and len(right) > 50
    ours = raw_outputs(data.features, data.stm, left, kings.arrays(), kings.kings())
    theirs = raw_outputs(data.features, data.stm, left, plain.arrays())
    assert np.array_equal(ours, theirs)
    flipped = np.where(data.features >= 0, data.features ^ 7, data.features).astype(np.int16)
    ours = raw_outputs(data.features, data.stm, right, kings.arrays(), kings.kings())
    theirs = raw_outputs(flipped, data.stm, right, plain.arrays())
    assert np.array_equal(ours, theirs)
    fresh = initial_network(16, 5, buckets=8, king_buckets=4)
    start = with_king_buckets(initial_network(16, 5, buckets=8), 4)
    assert all(np.array_equal(a, b) for a, b in zip(fresh.arrays(), start.arrays(), strict=True))


def test_training_lowers_the_loss_and_repeats(tmp_path: Path) -> None:
    """A short king-bucket run lowers the validation loss, moves the bucket blocks and the
    shared block, and gives bit-identical nets for the same seed and thread count."""
    data = read_dataset(_material_file(tmp_path))[0]
    target = targets(data, 0.0)
    valid, rows = split_rows(data.games(), 0.1, 0)

    def run(threads: int, epochs: int) -> Network:
        """The best net of a run with mirroring."""
        net = initial_network(8, 2, buckets=8, king_buckets=4)
        settings = Settings(epochs, 128, 0.01, threads, 2, 0.0, True)
        return train(data, target, rows, valid, net, settings).best

    start = loss(data, target, valid, initial_network(8, 2, buckets=8, king_buckets=4))
    first = run(1, 10)
    assert loss(data, target, valid, first) < 0.3 * start
    blocks = first.ft_weight.reshape(5, 768, 8)
    assert all(np.abs(blocks[b]).max() > 0 for b in range(5))
    once, again = run(1, 2), run(1, 2)
    assert all(np.array_equal(a, b) for a, b in zip(once.arrays(), again.arrays(), strict=True))
    once, again = run(2, 2), run(2, 2)
    assert all(np.array_equal(a, b) for a, b in zip(once.arrays(), again.arrays(), strict=True))


def test_cli_king_buckets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--king-buckets 4 writes format 2 and says so; --init from a format-1 net turns it,
    from a format-2 net keeps its layout; an unknown count is a one-line usage error."""
    from plies.cli.main import main

    base = ["train", str(SAMPLE), "--hidden", "8", "--epochs", "1", "--batch", "256"]
    kings, plain, more = tmp_path / "k.npz", tmp_path / "p.npz", tmp_path / "m.npz"
    assert main([*base, "--out", str(kings), "--king-buckets", "4"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert "4 king buckets (mirrored) + a shared block" in said
    assert f"wrote {kings}: H 8, B 8, 4 king buckets (mirrored)," in said
    with np.load(kings) as f:
        assert f["format"].tolist() == [2] and f["ft_weight"].shape == (4 * 768, 8)
    assert main([*base, "--out", str(plain), "-q"]) == 0
    with np.load(plain) as f:
        assert f["format"].tolist() == [1] and "king_buckets" not in f.files
    assert main([*base, "--out", str(more), "--init", str(plain), "--king-buckets", "4"]) == 0
    assert load_network(more).king_count == 4
    assert main([*base, "--out", str(more), "--init", str(kings), "-q"]) == 0
    assert load_network(more).king_count == 4
    capsys.readouterr()
    with pytest.raises(SystemExit) as caught:
        main([*base, "--out", str(more), "--king-buckets", "5"])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--king-buckets" in err and "invalid choice" in err and "\n" not in err


@pytest.mark.parametrize("threads", [1, 2])
def test_trainer_gradient_through_the_fold(threads: int) -> None:
    """The trainer's gradient (forward and backward through the folded weights, the shared
    block's gradient summed from the buckets') equals the kernels' two-row gradient."""
    from plies.learn.train.trainer import _Gradients

    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25)
    net = _random_net(8, 9)
    rows = np.arange(0, 600, dtype=np.int64)
    mirrors = (np.arange(len(rows)) % 2 * 7).astype(np.int64)
    zero = np.zeros((len(data), 2), dtype=np.float32)
    direct = tuple(np.zeros_like(a) for a in net.arrays())
    expected = batch_gradient(Examples(data.features, data.stm, target, zero), rows, mirrors,
                              1.0 / len(rows), net.arrays(), Params(*direct),
                              net.kings())  # fmt: skip
    gradients = _Gradients(net, threads)
    total, grads = gradients.compute(data, target, zero, rows, mirrors, net)
    gradients.close()
    assert total == pytest.approx(expected, rel=1e-5)
    assert np.abs(direct[0][4 * 768 :]).max() > 0
    for ours, theirs in zip(grads, direct, strict=True):
        assert np.allclose(ours, theirs, rtol=1e-4, atol=1e-7)
