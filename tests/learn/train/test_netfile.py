"""The written net file: the spec's keys, dtypes, shapes and range, and its forward pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import numpy as np
import pytest

import plies.core as core
from plies.board import Board
from plies.cli.main import main
from plies.core.netfile import NetFileError
from plies.learn.train.kernels import raw_outputs
from plies.learn.train.loader import read_dataset
from plies.learn.train.network import (
    WEIGHT_LIMIT,
    initial_network,
    load_network,
    save_network,
)

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"
HANG_S = 600.0
"""Bound on the engine process: only a hang exceeds it (a first run compiles the engine)."""


def _spec_eval(fen: str, f: dict[str, np.ndarray]) -> float:
    """The spec's float evaluation (cp, side to move) of ``fen``, written out with python-chess."""
    board = chess.Board(fen)
    hidden = f["ft_bias"].shape[0]

    def acc(p: chess.Color) -> np.ndarray:
        """Accumulator of perspective ``p``."""
        total = f["ft_bias"].astype(np.float64).copy()
        for s, piece in board.piece_map().items():
            index = (
                (0 if piece.color == p else 384)
                + (piece.piece_type - 1) * 64
                + (s if p == chess.WHITE else s ^ 56)
            )
            total += f["ft_weight"][index]
        return total

    def screlu(x: np.ndarray) -> np.ndarray:
        """clamp(x, 0, 1) squared."""
        return np.clip(x, 0.0, 1.0) ** 2

    # A single-output file ([2H], [1]) is one bucket; B buckets split 2..33 pieces evenly.
    ow = f["out_weight"].astype(np.float64).reshape(-1, 2 * hidden)
    buckets = ow.shape[0]
    bucket = min(max((len(board.piece_map()) - 2) * buckets // 32, 0), buckets - 1)
    raw = (
        float(f["out_bias"][bucket])
        + ow[bucket, :hidden] @ screlu(acc(board.turn))
        + ow[bucket, hidden:] @ screlu(acc(not board.turn))
    )
    return raw * float(f["scale"][0])


def test_file_has_the_spec_layout(tmp_path: Path) -> None:
    """Keys, dtypes, shapes, scale 400, format 1, every weight within +-1.98."""
    net = initial_network(24, seed=2)
    net.ft_weight[0, 0] = np.float32(WEIGHT_LIMIT)  # the limit itself must survive as is
    path = tmp_path / "net.npz"
    save_network(path, net)
    with np.load(path) as f:
        assert sorted(f.files) == sorted(
            ["ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format"]
        )
        assert f["ft_weight"].dtype == np.float32 and f["ft_weight"].shape == (768, 24)
        assert f["ft_bias"].dtype == np.float32 and f["ft_bias"].shape == (24,)
        assert f["out_weight"].dtype == np.float32 and f["out_weight"].shape == (48,)
        assert f["out_bias"].dtype == np.float32 and f["out_bias"].shape == (1,)
        assert f["scale"].dtype == np.float32 and f["scale"].tolist() == [400.0]
        assert f["format"].dtype == np.int64 and f["format"].tolist() == [1]
    back = load_network(path)
    assert all(np.array_equal(a, b) for a, b in zip(back.arrays(), net.arrays(), strict=True))


def test_bucketed_file_layout(tmp_path: Path) -> None:
    """B buckets: out_weight [B, 2H] and out_bias [B] float32, read back exactly; every
    bucket starts as the single-output net of the same seed."""
    net = initial_network(24, seed=2, buckets=8)
    single = initial_network(24, seed=2)
    assert all(np.array_equal(row, single.out_weight[0]) for row in net.out_weight)
    net.out_weight[3, 5] = np.float32(0.75)
    net.out_bias[6] = np.float32(-0.25)
    path = tmp_path / "net.npz"
    save_network(path, net)
    with np.load(path) as f:
        assert f["out_weight"].dtype == np.float32 and f["out_weight"].shape == (8, 48)
        assert f["out_bias"].dtype == np.float32 and f["out_bias"].shape == (8,)
    back = load_network(path)
    assert back.buckets == 8
    assert all(np.array_equal(a, b) for a, b in zip(back.arrays(), net.arrays(), strict=True))
    with pytest.raises(ValueError, match="buckets"):
        initial_network(4, 0, buckets=33)


def test_trained_file_in_range_and_forward_matches_the_spec(tmp_path: Path) -> None:
    """A net written by the CLI after a huge rate: all weights in range (as float64 too), and
    the kernel's output equals the spec's formula evaluated independently."""
    from plies.cli.main import main

    path = tmp_path / "net.npz"
    options = ["--hidden", "8", "--epochs", "2", "--batch", "64", "--lr", "0.5"]
    options += ["--decay", "0", "-q"]
    code = main(["train", str(SAMPLE), "--out", str(path), *options])
    assert code == 0
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    peak = max(
        float(np.abs(arrays[k].astype(np.float64)).max())
        for k in ("ft_weight", "ft_bias", "out_weight", "out_bias")
    )
    assert WEIGHT_LIMIT - 0.01 < peak <= WEIGHT_LIMIT
    data, _ = read_dataset(SAMPLE)
    rows = np.arange(0, len(data), 97, dtype=np.int64)
    net = load_network(path)
    raw = raw_outputs(data.features, data.stm, rows, net.arrays())
    text = SAMPLE.read_bytes()
    for r, value in zip(rows, raw, strict=True):
        start = int(data.offset[r])
        fen = text[start : text.index(b"|", start)].decode()
        assert value * 400.0 == pytest.approx(_spec_eval(fen, arrays), abs=1e-3)


def test_init_continues_from_a_net_file(tmp_path: Path) -> None:
    """--init starts from the file's weights (its H, not --hidden's) and trains on from them."""
    from plies.cli.main import main

    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    base = ["train", str(SAMPLE), "--batch", "64", "--val", "0.1", "-q"]
    assert main([*base, "--out", str(first), "--hidden", "8", "--epochs", "1"]) == 0
    assert main([*base, "--out", str(second), "--hidden", "16", "--init", str(first)]) == 0
    assert load_network(second).ft_weight.shape == (768, 8)
    assert not np.array_equal(load_network(first).ft_weight, load_network(second).ft_weight)
    assert main([*base, "--out", str(second), "--init", str(tmp_path / "none.npz")]) == 2


def test_init_not_beaten_is_written_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A residual run from --init that no epoch improves writes the start net and says so."""
    from plies.cli.main import main

    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    base = ["train", str(SAMPLE), "--batch", "64", "--val", "0.2", "--residual", "--hidden", "8"]
    assert main([*base, "--out", str(first), "--epochs", "1", "-q"]) == 0
    capsys.readouterr()
    # A rate this large throws every weight to the clip: no epoch can beat the start.
    assert main([*base, "--out", str(second), "--init", str(first), "--lr", "50"]) == 0
    said = capsys.readouterr().err
    assert f"no epoch beat {first}" in " ".join(said.split())
    assert "zero correction" not in said
    assert np.array_equal(load_network(first).ft_weight, load_network(second).ft_weight)


def test_bad_net_files(tmp_path: Path) -> None:
    """Another format, a wrong shape, not a net: NetFileError with the path."""
    path = tmp_path / "net.npz"
    save_network(path, initial_network(4, 0))
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    np.savez(tmp_path / "v2.npz", **{**arrays, "format": np.array([2])})
    np.savez(tmp_path / "shape.npz", **{**arrays, "ft_bias": np.zeros(5, np.float32)})
    buckets = {**arrays, "out_weight": np.zeros((8, 8), np.float32)}
    np.savez(tmp_path / "bias8.npz", **{**buckets, "out_bias": np.zeros(7, np.float32)})
    np.savez(tmp_path / "out8.npz", **{**buckets, "out_weight": np.zeros((8, 7), np.float32)})
    np.savez(tmp_path / "b40.npz", **{**buckets, "out_weight": np.zeros((40, 8), np.float32)})
    (tmp_path / "text.npz").write_text("hello")
    for name, words in (
        ("v2", "format"),
        ("shape", "ft_bias"),
        ("bias8", "out_bias"),
        ("out8", "out_weight"),
        ("b40", "40 output buckets"),
        ("text", "not a readable"),
        ("missing", "no such file"),
    ):
        with pytest.raises(NetFileError, match=words):
            load_network(tmp_path / f"{name}.npz")


def test_a_trained_net_evaluates_in_the_uci_engine(tmp_path: Path) -> None:
    """A net ``plies train`` writes is taken by the UCI engine (a real process, EvalFile) and
    its evaluation is the core's with that net, to the centipawn, on several positions."""
    path = tmp_path / "net.npz"
    args = ["train", str(SAMPLE), "--out", str(path), "--hidden", "16", "--epochs", "1",
            "--buckets", "8", "-q"]  # fmt: skip
    assert main(args) == 0
    fens = [line.split("|")[0].strip() for line in SAMPLE.read_text().splitlines()[:6]]
    commands = ["uci", f"setoption name EvalFile value {path}", "isready"]
    for fen in fens:
        commands += [f"position fen {fen}", "eval"]
    done = subprocess.run(
        [sys.executable, "-m", "plies", "uci"], input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True, text=True, timeout=HANG_S, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert sum(f"Evaluated by: net {path} (hidden 16" in line for line in lines) == len(fens)
    shown = [line.split()[2] for line in lines if line.startswith("Static evaluation:")]
    net = core.load_net(path)
    expected = []
    for fen in fens:
        pos = core.copy_position(Board(fen).core_position())
        core.attach_net(pos, net)
        expected.append(f"{core.static_evaluate(pos) / 100:+.2f}")
    assert shown == expected and len(set(shown)) > 1
