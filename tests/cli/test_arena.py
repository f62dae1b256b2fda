"""``plies arena`` as users run it: tables, PGN, one-line errors and Ctrl-C."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import chess.pgn
import pytest
from tests.cli.runs import RunCli, ctrl_c_when, in_process, one_line_error, plies, start
from tests.waiting import HANG_S

TOY = Path(__file__).resolve().parents[1] / "arena" / "toy_uci.py"


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``plies arena`` with ``args`` in this process (the tests of a real process, its
    output redirected or its Ctrl-C, start one)."""
    return in_process("arena", *args)


def test_match_prints_tables_and_writes_pgn(tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    proc = plies("arena", "random", "capture", f"uci:{sys.executable} {TOY}:name=toy",
                 "--games", "2", "--depth", "1", "--max-moves", "25", "--seed", "1", "--pgn",
                 str(out), "--concurrency", "2")
    assert proc.returncode == 0, proc.stderr
    for text in ("Results per pairing", "Standings", "Game endings", "6 of 6 games played",
                 "LOS", "±95%"):
        assert text in proc.stdout
    assert proc.stderr.count("Game ") == 6
    with out.open() as fh:
        games = []
        while (g := chess.pgn.read_game(fh)) is not None:
            games.append(g)
    assert len(games) == 6
    assert {g.headers["Termination"] for g in games} <= {"normal", "adjudication"}
    assert all(g.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for g in games)


@pytest.mark.parametrize(("args", "message"), [
    (["random", "--games", "2", "--depth", "1"], "at least two players"),
    (["random", "wizard", "--depth", "1"], "unknown player"),
    (["random", "capture", "--tc", "fast"], "bad time control"),
    (["random", "capture", "--depth", "0"], "--depth must be at least 1"),
    (["random", "capture", "--depth", "1", "--openings", "no-such-dir/none.epd"], "not found"),
    (["random", "capture", "minimax", "--depth", "1", "--sprt", "0", "5"], "exactly two"),
    ([f"uci:{sys.executable} {TOY}:Colour=blue", "random", "--depth", "1"], "no option"),
    ([f"uci:{sys.executable} {TOY}", "random", "--depth", "1", "--variant", "chess960"],
     "does not support Chess960"),
    (["random", "capture", "--depth", "1", "--variant", "chess960", "--book", "x.bin"],
     "cannot open Chess960 games"),
    (["random", "capture", "--depth", "1", "--variant", "crazyhouse"], "invalid choice"),
])  # fmt: skip
def test_bad_input_gets_one_line_and_exit_2(cli: RunCli, args: list[str], message: str) -> None:
    status, _, err = cli(["arena", *args])
    one_line_error(status, err, message)


def test_match_tables_redirected_keep_whole_names_faults_and_no_infinite_elo() -> None:
    """Two players, one crashing every game, the output going to a pipe with no COLUMNS: the
    results table shows each name whole, the faults, and words where a rating is unbounded."""
    crashy = "crashy-engine-with-a-long-name-that-a-narrow-table-would-cut"
    other = "the-random-mover-with-a-long-name-too"
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "arena", f"uci:{sys.executable} {TOY}:Mode=crash,"
         f"After=1,name={crashy}", f"random:name={other}", "--depth", "1", "--games", "2"],
        capture_output=True, text=True, env=env, timeout=HANG_S)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    table = proc.stdout.split("Game endings")[0]
    head = next(line for line in table.splitlines() if "Player" in line)
    row = next(line for line in table.splitlines() if crashy in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    columns = [c.strip() for c in head.strip("┃ ").split("┃")]
    assert dict(zip(columns, cells, strict=True)) | {"LOS": ""} == {
        "Player": crashy, "Opponent": other, "Games": "2", "W": "0", "D": "0", "L": "2",
        "Score": "0.0%", "Elo": "not enough games", "±95%": "", "LOS": "", "Faults": "2",
        "Opp. faults": "0"}
    assert "inf" not in proc.stdout


def _games_in(path: Path) -> list[chess.pgn.Game]:
    """Every game of a PGN file."""
    games = []
    with path.open() as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            games.append(game)
    return games


def test_ctrl_c_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    proc = start("arena", f"uci:{sys.executable} {TOY}:name=a",
                 f"uci:{sys.executable} {TOY}:name=b", "--games", "200", "--movetime", "30",
                 "--pgn", str(out))
    stdout, stderr = ctrl_c_when(proc, lambda: out.exists() and "[Event " in out.read_text(),
                                 "a game finished")  # fmt: skip
    assert proc.returncode == 130, stderr[-3000:]
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    games = _games_in(out)
    assert len(games) >= 1
    assert all(g.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    assert f"{len(games)} of 200 games played" in stdout, stdout[-1000:]


def test_engine_refusing_an_option_is_one_line(tmp_path: Path) -> None:
    """An engine that answers ``setoption`` with a refusal (plies' ``info string option
    unchanged``, here behind a shell the arena does not know as plies) stops the arena
    before any game, naming the engine's own line; the same net through a plies command
    is refused in-process first."""
    absent = tmp_path / "absent.npz"
    pgn = tmp_path / "games.pgn"
    wrapped = f"uci:/bin/sh -c 'exec {sys.executable} -m plies uci':EvalFile={absent}"
    proc = arena(wrapped, "random", "--depth", "1", "--games", "2", "--pgn", str(pgn))
    one_line_error(proc.returncode, proc.stderr,
                   "refused an option: info string option unchanged", str(absent))
    assert not pgn.exists()
    direct = f"uci:{sys.executable} -m plies uci:EvalFile={absent}"
    proc = arena(direct, "random", "--depth", "1", "--games", "2", "--pgn", str(pgn))
    one_line_error(proc.returncode, proc.stderr, "EvalFile: net file", "no such file")
    assert not pgn.exists()


def test_chess960_match_writes_chess960_games_in_colour_swapped_pairs(tmp_path: Path) -> None:
    out = tmp_path / "960.pgn"
    proc = arena("random", "capture", "--variant", "chess960", "--games", "4", "--depth", "1",
                 "--max-moves", "30", "--seed", "7", "--pgn", str(out))
    assert proc.returncode == 0, proc.stderr
    games = _games_in(out)
    assert len(games) == 4
    for game in games:
        assert game.headers["Variant"] == "Chess960" and game.headers["SetUp"] == "1"
        assert game.board().chess960 and not game.errors
        assert game.headers["Opening"].startswith("Chess960 #")
    fens = [g.headers["FEN"] for g in games]
    assert fens[0] == fens[1] != fens[2] == fens[3]
    assert games[0].headers["White"] == games[1].headers["Black"]


def _league_lines(path: Path) -> list[dict[str, object]]:
    """The JSON objects of a league file."""
    import json

    return [json.loads(line) for line in path.read_text().splitlines()]


def test_league_adds_a_player_and_writes_reports(tmp_path: Path) -> None:
    league = tmp_path / "class.jsonl"
    common = ["--league", str(league), "--depth", "1", "--games", "2", "--max-moves", "20",
              "--seed", "3"]
    first = arena("random", "capture", *common, "--report", str(tmp_path / "a.md"))
    assert first.returncode == 0, first.stderr
    assert "2 to play" in first.stderr and "Faults" in first.stdout
    # A third player plays its two new pairings only (2 games each), not random-capture again.
    second = arena("minimax:depth=1", *common, "--report", str(tmp_path / "b.html"),
                   "--pgn", str(tmp_path / "all.pgn"))
    assert second.returncode == 0, second.stderr
    assert "2 games played, 4 to play" in second.stderr
    assert "4 of 4 games played; the league has 6 games" in second.stdout
    games = [x["game"] for x in _league_lines(league) if "game" in x]
    assert len(games) == 6
    keys = [(tuple(g["pairing"]), g["slot"]) for g in games]  # type: ignore[index]
    assert len(set(keys)) == 6
    assert len(_games_in(tmp_path / "all.pgn")) == 6  # old games and new ones
    md = (tmp_path / "a.md").read_text()
    assert "| # | Player | Games | W | D | L | Points | Score | Faults | Elo | ±95% |" in md
    page = (tmp_path / "b.html").read_text()
    assert page.startswith("<!doctype html>") and page.count("<table") == 2
    assert "minimax:depth=1" in page
    # Nothing left to play: the standings again, no game.
    third = arena(*common)
    assert third.returncode == 0 and "0 to play" in third.stderr
    # Other settings would mix incomparable games: refused in one line, file untouched.
    before = league.read_text()
    refused = arena("--league", str(league), "--depth", "2", "--games", "2", "--max-moves", "20")
    one_line_error(refused.returncode, refused.stderr, "depth 1")
    assert league.read_text() == before
    bad = arena("random", "capture", "--depth", "1", "--report", str(tmp_path / "r.txt"))
    assert bad.returncode == 2 and "must end in .md or .html" in bad.stderr
    typo = arena("wizard", *common)
    assert typo.returncode == 2 and "unknown player" in typo.stderr
    assert "wizard" not in league.read_text()


def test_league_adds_a_player_under_its_stored_settings(tmp_path: Path) -> None:
    league = tmp_path / "class.jsonl"
    first = arena("random", "capture", "--league", str(league), "--depth", "1", "--games", "2",
                  "--max-moves", "20", "--seed", "3")
    assert first.returncode == 0, first.stderr
    header = league.read_text().splitlines()[0]
    # No limit, no move cap: the league's own depth 1 and 20 moves, not a refusal.
    second = arena("minimax:depth=1", "--league", str(league), "--games", "2")
    assert second.returncode == 0, second.stderr
    assert "2 games played, 4 to play" in second.stderr
    assert "the league has 6 games" in second.stdout
    assert league.read_text().splitlines()[0] == header
    games = [x["game"] for x in _league_lines(league) if "game" in x]
    new_games = [g for g in games if "minimax:depth=1" in g["pairing"]]  # type: ignore[index]
    assert len(new_games) == 4
    for stored in new_games:
        game = chess.pgn.read_game(io.StringIO(stored["pgn"]))  # type: ignore[index]
        assert game is not None and len(list(game.mainline_moves())) <= 2 * 20
    # A setting given that differs from the league's is still refused.
    refused = arena("--league", str(league), "--max-moves", "30", "--games", "2")
    one_line_error(refused.returncode, refused.stderr, "max_moves 20", "max_moves 30")
    # Only a new league (or a match) needs the limit: there is nowhere to read it from.
    new = arena("random", "capture", "--league", str(tmp_path / "new.jsonl"))
    one_line_error(new.returncode, new.stderr, "a new league needs a limit", "--depth")
    assert not (tmp_path / "new.jsonl").exists()
    match = arena("random", "capture")
    one_line_error(match.returncode, match.stderr, "needs a limit", "--tc")


def test_league_resumes_after_ctrl_c(tmp_path: Path) -> None:
    league = tmp_path / "l.jsonl"
    players = [f"uci:{sys.executable} {TOY}:name=a", f"uci:{sys.executable} {TOY}:name=b"]
    common = ["--league", str(league), "--games", "6", "--movetime", "20", "--max-moves", "15"]
    proc = start("arena", *players, *common)
    _, stderr = ctrl_c_when(proc, lambda: league.exists() and '"game"' in league.read_text(),
                            "a league game finished")  # fmt: skip
    assert proc.returncode == 130, stderr[-2000:]
    done = sum(1 for x in _league_lines(league) if "game" in x)
    assert 1 <= done < 6
    # Resumed without naming the players: only the missing games are played.
    again = arena(*common, "--pgn", str(tmp_path / "all.pgn"))
    assert again.returncode == 0, again.stderr
    assert f"{done} games played, {6 - done} to play" in again.stderr
    games = [x["game"] for x in _league_lines(league) if "game" in x]
    assert sorted(g["slot"] for g in games) == list(range(6))  # type: ignore[index]
    assert len(_games_in(tmp_path / "all.pgn")) == 6


def test_league_counts_faults_against_the_faulty_player(tmp_path: Path) -> None:
    league = tmp_path / "f.jsonl"
    report = tmp_path / "f.md"
    proc = arena(f"uci:{sys.executable} {TOY}:Mode=crash,After=1,name=crashy", "random",
                 "--league", str(league), "--depth", "1", "--games", "2", "--report", str(report))
    assert proc.returncode == 0, proc.stderr
    games = [x["game"] for x in _league_lines(league) if "game" in x]
    assert len(games) == 2
    assert all(g["fault"] == "crash" for g in games)  # type: ignore[index]
    standings = report.read_text().split("## Crosstable")[0]
    rows = {line.split(" | ")[1]: line.split(" | ") for line in standings.splitlines()
            if line.startswith("| ") and line.split(" | ")[1] in ("crashy", "random")}
    assert rows["crashy"][8] == "2" and rows["random"][8] == "0"  # the Faults column
    assert rows["random"][2] == "2" and rows["random"][3] == "2"  # 2 games, 2 wins
