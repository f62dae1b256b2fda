"""``plies analyse --pgn`` in process: annotated output, summary, plot and bad input."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from plies.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "analysis" / "data"


def _games(text: str) -> list[chess.pgn.Game]:
    """Every game in a PGN text."""
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def test_pgn_to_stdout_summary_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --output the annotated PGN is standard output and the summary goes to stderr."""
    assert main(["analyse", "--pgn", str(DATA / "scholar.pgn"), "--depth", "4"]) == 0
    captured = capsys.readouterr()
    games = _games(captured.out)
    assert len(games) == 1 and games[0].headers["Annotator"] == "plies"
    assert captured.out.count("[%eval ") == 6  # seven moves, the mate has no evaluation
    assert "$4" in captured.out  # 3...Nf6??
    assert "White (Quick): " in captured.err and "Black (Careless): " in captured.err
    assert "1 blunder" in captured.err and "s per position" in captured.err


def test_output_file_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--output and --plot write their files; the summary is printed on standard output."""
    out, png = tmp_path / "opera-annotated.pgn", tmp_path / "opera.png"
    argv = ["analyse", "--pgn", str(DATA / "opera.pgn"), "--depth", "4",
            "--output", str(out), "--plot", str(png)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    games = _games(out.read_text(encoding="utf-8"))
    assert len(games) == 1 and len(list(games[0].mainline_moves())) == 33
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "White (Paul Morphy)" in captured.out and f"Plot written to {png}" in captured.out


def test_movetime_limit(tmp_path: Path) -> None:
    """--movetime MS bounds each position's search."""
    out = tmp_path / "a.pgn"
    argv = ["analyse", "--pgn", str(DATA / "scholar.pgn"), "--movetime", "20", "--output", str(out)]
    assert main(argv) == 0
    assert out.read_text(encoding="utf-8").count("[%eval ") == 6


def test_illegal_move_names_game_and_move_and_the_rest_is_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Game 1's 2.Ke3 is illegal: one line says so, game 2 is analysed, exit status 0."""
    out = tmp_path / "a.pgn"
    argv = ["analyse", "--pgn", str(DATA / "illegal_then_good.pgn"), "--depth", "3",
            "--output", str(out)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "game 1 (A - B)" in err and "move 2." in err and "Ke3" in err
    games = _games(out.read_text(encoding="utf-8"))
    assert [g.headers["White"] for g in games] == ["Quick"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("", "no games"),
        ("\n\n   \n", "no games"),
        ('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n', "cannot be played"),
        ('[Event "x"]\n\n*\n', "no moves"),
        ('[SetUp "1"]\n[FEN "garbage"]\n\n1. e4 *\n', "bad FEN header"),
        ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. e4 *\n', "start position is not legal"),
        ('[Variant "Atomic"]\n\n1. e4 *\n', "not supported"),
        # python-chess 1.11 raises IndexError on a stray ")" after an illegal move.
        ("1. e4 e4 ) e5\n", "plies analyse: game 1"),
    ],
)
def test_nothing_to_analyse_fails_with_one_clear_line(
    content: str | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, an empty one, or only unusable games: exit status 2, short clear errors."""
    path = tmp_path / "in.pgn"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["analyse", "--pgn", str(path), "--depth", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") <= 2  # the game's problem, then "nothing could be analysed"
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["analyse", "--output", "x.pgn"],
        ["analyse", "--plot", "x.png"],
        ["analyse", "--pgn", "x.pgn", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
        ["analyse", "--pgn", "x.pgn", "--movetime", "0"],
        ["analyse", "--pgn", "x.pgn", "--plot", "/no/such/dir/x.png"],
    ],
)
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Options that make no sense together: one line, exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_position_analysis_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    """``--moves`` with the new ``--movetime`` limit analyses one position as before."""
    assert main(["analyse", "--moves", "e4", "e5", "--movetime", "200"]) == 0
    assert "Best move:" in capsys.readouterr().out
