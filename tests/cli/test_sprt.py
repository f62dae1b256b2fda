"""``plies sprt``: builds, game pairs, the pentanomial report, the SPRT stop and the log."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import chess
import chess.pgn
import pytest
from tests.cli.runs import sprt_wdl

from plies.arena.builds import BuildError, checkout, repository_root
from plies.arena.openings import Opening
from plies.arena.pairs import pair_points, pentanomial
from plies.arena.referee import GameRecord
from plies.arena.sprtlog import COLUMNS, HEADER
from plies.cli.main import main


def _record(round_no: int, result: str) -> GameRecord:
    """A finished game of spec 0 against spec 1; odd rounds have spec 0 as White."""
    white = 0 if round_no % 2 == 1 else 1
    record = GameRecord("a", "b", Opening(), result=result, termination="normal")
    record.round = round_no
    record.white_index, record.black_index = white, 1 - white
    return record


def test_pairs_by_hand() -> None:
    """Rounds 1+2 and 3+4 are pairs; a lone round 5 is not counted yet."""
    records = [
        _record(1, "1-0"),  # spec 0 white wins: 1
        _record(2, "1/2-1/2"),  # 0.5 -> pair 1.5
        _record(4, "1-0"),  # spec 1 white wins: 0
        _record(3, "0-1"),  # spec 0 white loses: 0 -> pair 0
        _record(5, "1-0"),
    ]
    assert pair_points(records) == [1.5, 0.0]
    assert pair_points(records, player=1) == [0.5, 2.0]
    assert pentanomial(records).counts == (1, 0, 0, 1, 0)


def _git(repo: Path, *args: str) -> None:
    """Run git quietly in ``repo``."""
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_checkout_makes_and_removes_a_worktree(tmp_path: Path) -> None:
    """A revision is checked out with its src/plies package and cleaned up afterwards."""
    repo = tmp_path / "repo"
    (repo / "src" / "plies").mkdir(parents=True)
    (repo / "src" / "plies" / "__main__.py").write_text("print('v1')\n")
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1")
    (repo / "src" / "plies" / "__main__.py").write_text("print('v2')\n")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "v2")
    assert repository_root(repo / "src").resolve() == repo.resolve()
    with checkout(repo, "HEAD~1") as (src, commit):
        assert (src / "plies" / "__main__.py").read_text() == "print('v1')\n"
        assert len(commit) == 40
        tree = src.parent
    assert not tree.exists()
    listed = subprocess.run(["git", "-C", str(repo), "worktree", "list"],
                            capture_output=True, text=True, check=True).stdout
    assert str(tree) not in listed
    with pytest.raises(BuildError, match="not a commit"), checkout(repo, "no-such-ref"):
        pass


def test_log_header_has_every_column() -> None:
    """The log's table header and separator have one cell per column."""
    table = [line for line in HEADER.splitlines() if line.startswith("|")]
    assert table[0].count("|") == table[1].count("|") == len(COLUMNS) + 1


def test_chess960_pairs_share_a_start_position(tmp_path: Path) -> None:
    """``--variant chess960``: each pair plays one Chess960 start with both colours."""
    pgn = tmp_path / "games.pgn"
    argv = ["sprt", "--base-options", "Hash=1", "--new-options", "Hash=2", "--nodes", "200",
            "--games", "4", "--max-moves", "20", "--variant", "chess960", "--random-openings",
            "2", "--pgn", str(pgn), "-q"]
    assert main(argv) == 0
    with pgn.open() as fh:
        games = list(iter(lambda: chess.pgn.read_game(fh), None))
    assert len(games) == 4
    starts: dict[str, list[str]] = {}
    for game in games:
        assert game.headers["Variant"] == "Chess960" and game.headers["SetUp"] == "1"
        board = game.board()
        assert board.chess960
        for move in game.mainline_moves():  # legal under Chess960 rules
            assert move in board.legal_moves
            board.push(move)
        starts.setdefault(game.headers["FEN"], []).append(game.headers["White"])
    assert all(len(set(whites)) == 2 for whites in starts.values())


def test_option_sets_stop_at_a_verdict_with_report_log_and_pgn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two option sets of this build, bounds far below any plausible result: H1 is accepted
    long before the game cap, the report counts the pairs, the log has its row and the PGN
    every game."""
    log = tmp_path / "log.md"
    pgn = tmp_path / "games.pgn"
    argv = ["sprt", "--base-options", "Hash=1", "--new-options", "Hash=2", "--nodes", "200",
            "--games", "40", "--max-moves", "20", "--model", "logistic",
            "--elo0", "-800", "--elo1", "-700", "--pgn", str(pgn), "-q",
            "--log", str(log), "--change", "Hash 2 vs 1 (pipeline test)"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "H1 accepted" in out and "LLR" in out and "[-2.94, 2.94]" in out
    played = re.search(r"base: (\d+) games", out)
    assert played is not None and int(played.group(1)) < 40
    games = int(played.group(1))
    assert f"{games} games, {games // 2} complete pairs" in out
    assert sum(sprt_wdl(out, pairs=games // 2)) == games
    rows = [line for line in log.read_text().splitlines() if line.startswith("| 20")]
    assert len(rows) == 1 and "Hash 2 vs 1 (pipeline test)" in rows[0]
    assert "working tree Hash=2" in rows[0] and "200 nodes" in rows[0]
    with pgn.open() as fh:
        results = [game.headers["Result"] for game in iter(lambda: chess.pgn.read_game(fh), None)]
    assert len(results) == games and all(r in ("1-0", "0-1", "1/2-1/2") for r in results)


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """Same build twice, reversed bounds, a log without a change, a bad ref: one-line errors."""
    assert main(["sprt", "--nodes", "100"]) == 2
    assert "the builds are the same" in capsys.readouterr().err
    assert main(["sprt", "--new-options", "Hash=2", "--elo0", "5", "--elo1", "0"]) == 2
    assert "--elo0" in capsys.readouterr().err
    assert main(["sprt", "--new-options", "Hash=2", "--log", "x.md"]) == 2
    assert "--change" in capsys.readouterr().err
    assert main(["sprt", "--base", "no-such-revision-xyz", "--nodes", "100"]) == 2
    assert "not a commit" in capsys.readouterr().err
    assert main(["sprt", "--new-options", "Hash=lots", "--nodes", "100", "--games", "2"]) == 2
    assert "the new build did not start" in capsys.readouterr().err
    assert main(["sprt", "--new-options", "Hash=2", "--variant", "chess960", "--book",
                 "x.bin"]) == 2
    assert "cannot open Chess960 games" in capsys.readouterr().err


def test_build_command_puts_its_sources_first(tmp_path: Path) -> None:
    """A build's engine command runs this Python with the build's src first on PYTHONPATH."""
    import sys

    from plies.arena.builds import Build

    command = Build("x", tmp_path, (("Hash", "2"),)).command()
    assert command[-4:] == (sys.executable, "-m", "plies", "uci")
    assert command[1].startswith(f"PYTHONPATH={tmp_path}")
    spec = Build("x", tmp_path, (("Hash", "2"),)).spec()
    assert spec.kind == "uci" and spec.options == (("Hash", "2"),)


def _bad_nets(tmp_path: Path) -> dict[str, Path]:
    """A missing, an unreadable (truncated zip) and a wrong-format (no net arrays) net file."""
    import numpy as np

    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"PK\x03\x04 truncated")
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, weights=np.zeros(3, dtype=np.float32))
    return {"no such file": tmp_path / "absent.npz", "corrupt": corrupt, "wrong": wrong}


def test_bad_eval_file_fails_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A net that the engine would refuse (and play classical instead) is a one-line error,
    exit 2, before any game is played or the PGN file opened."""
    pgn = tmp_path / "games.pgn"
    for kind, net in _bad_nets(tmp_path).items():
        for side in ("new", "base"):
            other = "base" if side == "new" else "new"
            argv = ["sprt", f"--{side}-options", f"EvalFile={net}", f"--{other}-options",
                    "Hash=2", "--nodes", "100", "--games", "2", "--pgn", str(pgn), "-q"]
            assert main(argv) == 2, (kind, side)
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1, err
            assert f"--{side}-options: EvalFile: net file" in err[0] and str(net) in err[0], err
            if kind == "no such file":
                assert kind in err[0]
            assert not pgn.exists()
