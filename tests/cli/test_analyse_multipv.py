"""``plies analyse --multipv N``: every line per iteration and the N best lines in SAN."""

from __future__ import annotations

import re

import pytest

from plies.cli.main import main


def test_analyse_shows_three_lines_in_san(capsys: pytest.CaptureFixture[str]) -> None:
    """Three rows per depth ranked 1, 2, 3, then the three best lines in SAN."""
    fen = "3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1"
    assert main(["analyse", "--fen", fen, "--depth", "4", "--multipv", "3"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+/\d+\s", line)]
    assert [(int(r[0].split("/")[0]), int(r[1])) for r in rows] == [
        (d, k) for d in range(1, 5) for k in (1, 2, 3)]
    assert "Best move: Rxd8+" in out
    summary = out[out.index("Best 3 lines:"):].splitlines()[1:4]
    assert [s.split()[0] for s in summary] == ["1.", "2.", "3."]
    assert "1. Rxd8+" in summary[0] and len({s.split()[5] for s in summary}) == 3


@pytest.mark.parametrize(
    ("fen", "shown"),
    [("k7/8/8/3K4/8/8/8/7R w - - 0 1", "#3"), ("7r/8/8/8/3k4/8/8/K7 b - - 0 1", "#-3")],
    ids=["white-mates", "black-mates"],
)
def test_a_mate_in_three_is_shown_as_mate_in_three(
    fen: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scores are White's, mates in moves: White mating in three is #3, Black mating #-3."""
    assert main(["analyse", "--fen", fen, "--depth", "12"]) == 0
    out = capsys.readouterr().out
    assert f"(score {shown} for White, depth 12)" in out, out[-300:]


@pytest.mark.parametrize("argv", [["--multipv", "0"], ["--multipv", "257"],
                                  ["--multipv", "2", "--pgn", "games.pgn"]])
def test_bad_multipv(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Out of range, or with --pgn: one line on stderr and exit status 2."""
    assert main(["analyse", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--multipv" in err
