"""``plies datagen --cluster``, ``plies sprt --cluster`` and ``plies spsa --cluster`` on a real
Ray cluster.

The cluster is the arena's test cluster (a head and a 2-CPU worker node started with
``ray start``).  Datagen is deterministic per seed, so the cluster must write the bytes
of a local run; the SPRT's counts must add up to the games in its PGN.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import chess.pgn
import pytest
from tests.cli.runs import sprt_wdl

import plies
from plies.agents.spec import parse_player
from plies.arena.cluster import ClusterError
from plies.arena.match import Match, MatchSettings
from plies.arena.openings import opening_schedule
from plies.arena.referee import Adjudication, GameSettings
from plies.arena.runner import run_match
from plies.cli.main import main
from plies.engine.limits import Limit
from plies.learn.datagen import DatagenSettings, play_datagen_game, position_lines
from plies.learn.datagen.remote import ClusterStats, games_on_cluster

if TYPE_CHECKING:
    from conftest import Cluster

TOY = Path(__file__).with_name("toy_uci.py")

# Matches, SPSA and datagen through the test run's Ray cluster: the long tier (.ci/run runs it
# after the default run).
pytestmark = pytest.mark.long

# Tiny budgets: each game a fraction of a second once the engine is compiled.
_DATAGEN = ["--nodes", "150", "--seed", "7", "--max-moves", "40", "--skip-plies", "10",
            "--scores", "-q"]


def _datagen(out: Path, games: int, *extra: str) -> int:
    """Run ``plies datagen`` in this process (which is connected to the test cluster)."""
    return main(["datagen", str(out), "--games", str(games), *_DATAGEN, *extra])


def _cli(cluster: Cluster, *args: str, hide_ray: bool = False) -> subprocess.CompletedProcess[str]:
    """``plies ARGS`` in a subprocess with the cluster's environment (optionally without Ray)."""
    code = "import sys; from plies.cli.main import main; sys.exit(main(sys.argv[1:]))"
    if hide_ray:
        code = "import sys; sys.modules['ray'] = None; " + code
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
        env={**cluster.env, "COLUMNS": "160"}, stdin=subprocess.DEVNULL,
    )


def test_datagen_on_the_cluster_writes_the_local_file(cluster: Cluster, tmp_path: Path) -> None:
    local, remote, resumed = tmp_path / "local.txt", tmp_path / "remote.txt", tmp_path / "r.txt"
    assert _datagen(local, 4) == 0
    assert _datagen(remote, 4, "--cluster", cluster.address) == 0
    assert remote.read_bytes() == local.read_bytes()
    assert len(local.read_text().splitlines()) > 10
    progress = ".progress.json"
    assert (tmp_path / f"remote.txt{progress}").read_text() == (
        tmp_path / f"local.txt{progress}"
    ).read_text()
    # Resumed on the cluster from a local start: still the same bytes.
    assert _datagen(resumed, 1) == 0
    assert _datagen(resumed, 4, "--cluster", cluster.address, "--concurrency", "1") == 0
    assert resumed.read_bytes() == local.read_bytes()


def test_datagen_replays_the_game_of_a_killed_worker(cluster: Cluster) -> None:
    settings = DatagenSettings(nodes=150, seed=3, max_moves=40, skip_plies=10)
    stats = ClusterStats()
    games = games_on_cluster(settings, 1, 6, cluster.address, stats=stats)
    got = [next(games)]
    # A worker that is set up has a game in hand while games are queued: kill it mid-game.
    pids = [int(m.group(1)) for w in stats.workers if (m := re.search(r"pid (\d+)", w))]
    assert pids
    os.kill(pids[0], signal.SIGKILL)
    got.extend(games)
    assert stats.replays >= 1
    player = parse_player("engine").create()
    try:
        want = [
            position_lines(play_datagen_game(settings, n, player, player), 10, False)
            for n in range(1, 7)
        ]
    finally:
        player.close()
    assert got == want


# Slow (the verdict test below covers the same plumbing in the default run).
@pytest.mark.slow
def test_sprt_option_sets_on_the_cluster_to_the_game_cap(
    cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn = tmp_path / "games.pgn"
    assert main(["sprt", "--base-options", "Hash=1", "--new-options", "Hash=4", "--nodes", "300",
                 "--games", "6", "--max-moves", "30", "--pgn", str(pgn), "-q",
                 "--cluster", cluster.address]) == 0
    out, err = capsys.readouterr()
    assert "no verdict" in out
    assert "6 games, 3 complete pairs" in out
    assert sum(sprt_wdl(out, 3)) == 6
    assert "cluster: 6 games counted, 0 replayed" in out and "0 started but not counted" in out
    assert re.search(r"cluster: (2 workers|1 of 2 workers took part)", err), err
    with pgn.open() as fh:
        rounds = []
        while (game := chess.pgn.read_game(fh)) is not None:
            rounds.append(game.headers["Round"])
    assert rounds == ["1", "2", "3", "4", "5", "6"]


def test_sprt_verdict_on_the_cluster_stops_and_says_what_it_cancelled(
    cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bounds far below any plausible result: H1 long before the cap, games counted in order."""
    pgn = tmp_path / "games.pgn"
    assert main(["sprt", "--base-options", "Hash=1", "--new-options", "Hash=2", "--nodes", "200",
                 "--games", "40", "--max-moves", "20", "--model", "logistic", "--elo0", "-800",
                 "--elo1", "-700", "-q", "--pgn", str(pgn), "--cluster", cluster.address]) == 0
    out = capsys.readouterr().out
    assert "H1 accepted" in out
    played = re.search(r"base: (\d+) games, (\d+) complete pairs", out)
    assert played is not None and int(played.group(1)) < 40
    counts = re.search(r"2 points: (\d+) / (\d+) / (\d+) / (\d+) / (\d+)", out)
    assert counts is not None and sum(int(c) for c in counts.groups()) == int(played.group(2))
    wdl = re.search(r"W-D-L \(new\): (\d+)-(\d+)-(\d+)", out)
    assert wdl is not None and sum(int(x) for x in wdl.groups()) == int(played.group(1))
    summary = re.search(r"cluster: (\d+) games counted, \d+ replayed after a lost worker or "
                        r"engine, 0 given up, (\d+) started", out)
    assert summary is not None and summary.group(1) == played.group(1)
    with pgn.open() as fh:
        rounds = []
        while (game := chess.pgn.read_game(fh)) is not None:
            rounds.append(int(game.headers["Round"]))
    assert rounds == list(range(1, int(played.group(1)) + 1))


def test_a_needed_path_missing_on_a_worker_is_one_clear_error(cluster: Cluster) -> None:
    toy = f"uci:{sys.executable} {TOY}:name=toy"
    needs = (("/nonexistent/plies-build/src", "the checkout of build new"),)
    match = Match(
        [parse_player(toy), parse_player(toy)],
        MatchSettings(games=2, cluster=cluster.address, cluster_needs=needs),
        GameSettings(limit=Limit(nodes=100), adjudication=Adjudication(max_moves=10)),
        opening_schedule(1, None, 2, 1),
    )
    with pytest.raises(ClusterError) as info:
        run_match(match)
    message = str(info.value)
    assert message.startswith("worker ") and "\n" not in message
    assert "the checkout of build new (/nonexistent/plies-build/src) is not on this node" in message


def test_spsa_pairs_on_the_cluster(
    cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = tmp_path / "spsa.csv"
    assert main(["spsa", "--params", "RfpMargin", "QsearchDelta", "--iterations", "5",
                 "--nodes", "300", "--max-moves", "12", "--history", str(history), "-q",
                 "--cluster", cluster.address]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "after 5 of 5 iterations" in out and "options: RfpMargin=" in out
    rows = history.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "iteration,result,RfpMargin,QsearchDelta"
    assert sorted(int(r.split(",")[0]) for r in rows[1:]) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("command", ["datagen", "sprt", "spsa"])
def test_cli_cluster_errors_are_one_line(cluster: Cluster, tmp_path: Path, command: str) -> None:
    if command == "datagen":
        args = ["datagen", str(tmp_path / "d.txt"), "--games", "2", "--nodes", "100"]
    elif command == "spsa":
        args = ["spsa", "--params", "RfpMargin", "--iterations", "2", "--nodes", "100"]
    else:
        args = ["sprt", "--new-options", "Hash=2", "--nodes", "100", "--games", "2"]
    for extra, hide, text in ((["--cluster", "nowhere"], False, "cannot connect to Ray"),
                              (["--cluster", "auto"], True, "--cluster needs Ray")):
        proc = _cli(cluster, *args, *extra, hide_ray=hide)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and text in lines[0], proc.stderr
        assert lines[0].startswith(f"plies {command}: error: ")


def test_datagen_player_missing_on_the_workers_is_one_line(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The engine is on this machine's PATH only, as when the nodes lack it.
    engine = tmp_path / "plies-test-engine"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} {TOY}\n")
    engine.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "d.txt"
    assert _datagen(out, 2, "--player", "uci:plies-test-engine", "--cluster",
                    cluster.address) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "player could not start" in lines[0], lines
    assert lines[0].startswith("plies datagen: error: worker ") and "pid " in lines[0]
    assert out.read_bytes() == b""


# Slow: the revision's checkout compiles the engine from an empty cache (minutes).
@pytest.mark.slow
def test_sprt_revision_build_on_the_cluster(
    cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A git revision is checked out here and played by the workers (same machine, same path)."""
    repo = Path(plies.__file__).resolve().parents[2]
    if not (repo / ".git").exists():
        pytest.skip("needs the plies git repository")
    assert main(["sprt", "--base", "HEAD", "--repo", str(repo), "--new-options", "Hash=2",
                 "--nodes", "200", "--games", "4", "--max-moves", "20", "-q",
                 "--cluster", cluster.address]) == 0
    out = capsys.readouterr().out
    assert re.search(r"new vs base@[0-9a-f]{8}: 4 games, 2 complete pairs", out), out
    assert "cluster: 4 games counted, 0 replayed" in out
