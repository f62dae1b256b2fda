"""Reading training files: statuses of bad lines, skipped scores, one-line CLI errors."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from plies.cli.main import main
from plies.learn.lines import (
    BAD_BOARD,
    BAD_KINGS,
    BAD_RESULT,
    BAD_SCORE,
    BAD_SIDE,
    BLANK,
    NO_FIELDS,
    OK,
    TOO_MANY_PIECES,
)
from plies.learn.train.loader import BIG_SCORE, NEEDS_SCORE, parse_buffer, read_dataset
from plies.learn.train.network import load_network

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

CASES = [
    (f"{START} | 35 | 0.5", OK),
    (f"{START} | -12 | 1\r", OK),
    ("   ", BLANK),
    (f"{START} | 0.5", NEEDS_SCORE),
    ('4k3/8/8/8/8/8/4P3/4K3 w - - c9 "1-0";', NEEDS_SCORE),
    ("garbage", NO_FIELDS),
    (f"{START} | 1 | 2 | 0.5", NO_FIELDS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1 | 0 | 0.5", BAD_BOARD),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 | 0 | 0.5", BAD_BOARD),
    ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 | 0 | 0.5", BAD_BOARD),
    ("rnbqkbnr/pppppppp/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 | 0 | 0.5", TOO_MANY_PIECES),
    ("rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 | 0 | 0.5", BAD_KINGS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1 | 0 | 0.5", BAD_SIDE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR | 0 | 0.5", BAD_SIDE),
    (f"{START} | 3.5 | 0.5", BAD_SCORE),
    (f"{START} |  | 0.5", BAD_SCORE),
    (f"{START} | 10 | 0.7", BAD_RESULT),
    (f"{START} | 10 | win", BAD_RESULT),
    (f"{START} | 3000 | 1.0", BIG_SCORE),
    (f"{START} | -4000 | 0.0", BIG_SCORE),
]


def test_line_statuses() -> None:
    """Each kind of line gets its status; only the good ones become rows, values right."""
    text = "".join(line + "\n" for line, _ in CASES).encode()
    data, status = parse_buffer(np.frombuffer(text, dtype=np.uint8))
    assert status.tolist() == [code for _, code in CASES]
    assert len(data) == 2
    assert data.score.tolist() == [35.0, -12.0] and data.result.tolist() == [0.5, 1.0]
    assert data.stm.tolist() == [0, 0] and (data.features[0] >= 0).sum() == 32


def test_read_report_counts_and_first_bad_line(tmp_path: Path) -> None:
    """Bad lines are counted with the first one's line number; an unfinished tail is left out."""
    good = SAMPLE.read_text().splitlines()[:5]
    path = tmp_path / "mixed.txt"
    path.write_text(
        "\n".join(
            [good[0], good[1], "garbage", good[2], f"{START} | 9000 | 1.0", good[3], "more garbage"]
        )
        + "\n"
        + good[4][:-3]
    )
    data, report = read_dataset(path)
    assert len(data) == 4 and report.lines == 7 and report.big_scores == 1
    assert report.bad == 2 and report.unterminated
    assert report.first_bad == f"{path}:3: expected 'FEN | score | result' (a score is needed)"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("not a training file\nat all\n", "fewer than 2 usable positions"),
        (f"{START} | 5000 | 1.0\n", "fewer than 2 usable positions"),
        ("", "fewer than 2 usable positions"),
    ],
)
def test_unusable_files_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, words: str
) -> None:
    """A missing file or one with nothing usable: exit 2, one error line, nothing written."""
    path = tmp_path / "data.txt"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "net.npz"
    assert main(["train", str(path), "--out", str(out), "-q"]) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(lines) == 1 and words in lines[0] and lines[0].startswith("plies train: error:")
    assert not out.exists()


@pytest.mark.parametrize(
    "option",
    [
        ["--hidden", "0"],
        ["--lr", "0"],
        ["--wdl", "1.5"],
        ["--val", "1"],
        ["--batch", "0"],
        ["--threads", "0"],
        ["--buckets", "0"],
        ["--buckets", "33"],
    ],
)
def test_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    """Impossible option values: exit 2 with the option named."""
    assert main(["train", str(SAMPLE), "--out", str(tmp_path / "n.npz"), *option]) == 2
    assert option[0] in capsys.readouterr().err


def test_cli_help_and_tiny_run(tmp_path: Path) -> None:
    """``python -m plies train``: --help describes it; a tiny run prints the epochs and the
    handcrafted comparison, and writes a net."""
    helped = subprocess.run(
        [sys.executable, "-m", "plies", "train", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert helped.returncode == 0 and "--hidden" in helped.stdout and "--wdl" in helped.stdout
    assert "--buckets" in helped.stdout
    out = tmp_path / "net.npz"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "plies",
            "train",
            str(SAMPLE),
            "--out",
            str(out),
            "--hidden",
            "8",
            "--epochs",
            "2",
            "--batch",
            "256",
            "--val",
            "0.1",
            "--hce",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "epoch   2" in run.stderr and "handcrafted evaluation" in run.stderr
    assert out.exists()


def test_ctrl_c_writes_the_best_net(tmp_path: Path) -> None:
    """SIGINT after the first epoch: exit 130, the message, and a loadable net written."""
    out = tmp_path / "net.npz"
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "train", str(SAMPLE), "--out", str(out), "--hidden",
         "8", "--epochs", "100000", "--batch", "256", "--val", "0.1"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith("epoch   1"):
            proc.send_signal(signal.SIGINT)
            break
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, "".join(seen) + rest
    assert "interrupted after" in rest and "wrote" in rest
    assert load_network(out).ft_weight.shape == (768, 8)
