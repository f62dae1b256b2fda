"""``plies bench`` and ``plies analyse`` run in-process: output, determinism and bad arguments."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from plies.cli.main import main
from plies.uci.bench import BENCH_POSITIONS, run_bench


def test_bench_is_deterministic() -> None:
    """The same depth gives the same node count every time (a behaviour signature)."""
    first = run_bench(3)
    second = run_bench(3)
    assert len(first.positions) == len(BENCH_POSITIONS)
    assert first.nodes == second.nodes > 0
    assert [p.best_move for p in first.positions] == [p.best_move for p in second.positions]
    assert first.nps > 0


def test_bench_command_prints_signature_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    """``plies bench --depth 2`` ends with the node count and the speed."""
    assert main(["bench", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    nodes = re.search(r"^Nodes searched: (\d+)$", out, re.M)
    assert nodes is not None and int(nodes.group(1)) == run_bench(2).nodes
    assert re.search(r"^Nodes/second: \d+$", out, re.M)
    assert out.count("Position ") == len(BENCH_POSITIONS)


def test_bench_rejects_a_bad_depth(capsys: pytest.CaptureFixture[str]) -> None:
    """A depth of 0 is a one-line error, exit status 2."""
    assert main(["bench", "--depth", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_analyse_prints_iterations_and_best_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``plies analyse --depth 5``: five iteration rows and a SAN best line."""
    assert main(["analyse", "--moves", "e2e4", "e7e5", "Nf3", "--depth", "5"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if re.match(r"^\s+\d+/\d+\s", line)]
    assert [int(r.split("/")[0]) for r in rows] == [1, 2, 3, 4, 5]
    assert re.search(r"^Best move: \S+$", out, re.M)
    assert re.search(r"^Best line: 2\.\.\. ?[A-Za-z]", out, re.M)


def test_analyse_finds_a_mate(capsys: pytest.CaptureFixture[str]) -> None:
    """A mate in one is shown as #1 from White's side and Rd8# as the best move."""
    assert main(["analyse", "--fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "#1" in out and "Best move: Rd8#" in out


def test_analyse_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    """A mated position is reported, not searched."""
    fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert main(["analyse", "--fen", fen, "--depth", "3"]) == 0
    assert "game is over (checkmate, 0-1)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["analyse", "--fen", "not a fen"],
        ["analyse", "--moves", "e2e5"],
        ["analyse", "--depth", "0"],
        ["analyse", "--time", "-1"],
        ["analyse", "--hash", "0"],
        ["analyse", "--depth", "2", "--syzygy", "/no/such/tables"],
    ],
)
def test_analyse_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad arguments give one line on stderr and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


SYZYGY = Path(__file__).resolve().parents[1] / "data" / "syzygy"


def test_analyse_with_tablebases_reports_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    """``--syzygy``: what was loaded, the position's tablebase result (plies' prober, checked
    against python-chess's DTZ)."""
    import chess
    import chess.syzygy

    fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
    assert main(["analyse", "--fen", fen, "--depth", "6", "--syzygy", str(SYZYGY)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Found \d+ WDL and \d+ DTZ tablebases \(up to 4 men\)", out)
    with chess.syzygy.open_tablebase(str(SYZYGY)) as tables:
        dtz = tables.probe_dtz(chess.Board(fen))
    assert f"Tablebase: White wins (DTZ {dtz})" in out
    assert "Best move: R" in out or "Best move: K" in out


def test_analyse_stops_when_its_reader_goes_away() -> None:
    """``plies analyse | head -3``: the search ends when the pipe closes (it used to hang)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "analyse", "--depth", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert proc.stdout is not None
    for _ in range(3):
        assert proc.stdout.readline()
    proc.stdout.close()
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("plies analyse kept searching after its output was closed")
