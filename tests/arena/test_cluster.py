"""Matches on a real Ray cluster (a head and a worker node started with ``ray start``).

Stockfish at a fixed node count is deterministic, so a cluster run must give
move for move the games of a one-thread local run.  Faults are real: a worker
process or an engine process is killed while games are running.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import chess.pgn
import pytest
from tests.cli.runs import ctrl_c_when

from plies.agents.spec import parse_player
from plies.arena.cluster import ClusterError
from plies.arena.gsprt import Sprt
from plies.arena.match import Match, MatchResult, MatchSettings
from plies.arena.openings import opening_schedule
from plies.arena.referee import Adjudication, GameRecord, GameSettings
from plies.arena.runner import run_match
from plies.engine.limits import Limit

if TYPE_CHECKING:
    from conftest import Cluster

STOCKFISH = "/usr/games/stockfish"
TOY = Path(__file__).with_name("toy_uci.py")

# Every test here needs the test run's Ray cluster (a quarter of a minute to start) and plays
# matches through it: the long tier, which .ci/run runs after the default run.
pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(not Path(STOCKFISH).exists(), reason="needs Stockfish"),
]


def _match(
    games: int,
    cluster: str | None,
    nodes: int = 2000,
    players: tuple[str, str] = (f"uci:{STOCKFISH}:name=sf-a", f"uci:{STOCKFISH}:Hash=8,name=sf-b"),
    max_moves: int = 30,
    sprt: Sprt | None = None,
    on_game: list[GameRecord] | None = None,
    hook: object = None,
) -> Match:
    """A match between two deterministic Stockfish configurations from seeded random openings."""
    specs = [parse_player(p) for p in players]
    openings = opening_schedule((games + 1) // 2, None, 4, 11)
    settings = GameSettings(limit=Limit(nodes=nodes),
                            adjudication=Adjudication(max_moves=max_moves))
    seen = on_game if on_game is not None else []

    def record(rec: GameRecord, res: MatchResult) -> None:
        """Remember the order games were released in, and run the test's hook."""
        seen.append(rec)
        if callable(hook):
            hook(rec)

    return Match(specs, MatchSettings(games=games, seed=3, cluster=cluster, sprt=sprt),
                 settings, openings, on_game=record)


def _games(result: MatchResult) -> list[tuple[int, str, str, str, tuple[str, ...]]]:
    """Each game as (number, white, black, result, moves), by number."""
    return sorted(
        (r.round, r.white, r.black, r.result, tuple(m.move.uci() for m in r.moves))
        for r in result.records
    )


def test_cluster_plays_the_same_games_as_a_local_run(cluster: Cluster) -> None:
    released: list[GameRecord] = []
    local = run_match(_match(6, None))
    remote = run_match(_match(6, cluster.address, on_game=released))
    assert remote.played == 6 and not remote.interrupted
    assert _games(remote) == _games(local)
    assert remote.scores == local.scores
    # Released (PGN, live lines, SPRT) strictly by game number. Two worker slots were started;
    # the pool hands out games as soon as one is set up, so under load the first may play
    # them all before the second is ready (it once did: "cluster: 1 workers").
    assert [r.round for r in released] == [1, 2, 3, 4, 5, 6]
    assert remote.worker_slots == 2 and 1 <= len(remote.workers) <= 2 and remote.replays == 0


def _kill_once(pids: object, done: threading.Event) -> object:
    """A hook that SIGKILLs the first process ``pids()`` lists, on the first call only.

    Processes listed already when the hook is made are spared: an actor of the previous
    test's match may still be on its way out (``ray.kill`` is asynchronous), and killing
    it instead of one of this match's would leave nothing to replay.
    """
    earlier = set(pids())  # type: ignore[operator]

    def hook(rec: GameRecord) -> None:
        """Kill a victim unless one was killed already."""
        if done.is_set():
            return
        victims = [p for p in pids() if p not in earlier]  # type: ignore[operator]
        if victims:
            os.kill(victims[0], signal.SIGKILL)
            done.set()

    return hook


def _match_with_a_kill(cluster: Cluster, pids: object, nodes: int) -> MatchResult:
    """Eight games on the cluster, during which the first process ``pids()`` lists is
    SIGKILLed: checked to have played every game, replaying at least one."""
    killed = threading.Event()
    result = run_match(_match(8, cluster.address, nodes=nodes, max_moves=40,
                              hook=_kill_once(pids, killed)))
    assert killed.is_set()
    rounds = sorted(r.round for r in result.records)
    assert rounds == list(range(1, 9)), rounds
    assert result.replays >= 1
    return result


def test_killed_worker_process_loses_only_its_game(cluster: Cluster) -> None:
    result = _match_with_a_kill(cluster, lambda: cluster.engine_owners("stockfish"), 3000)
    assert not any("crash" in r.reason or "failed" in r.reason for r in result.records)
    assert _games(result) == _games(run_match(_match(8, None, nodes=3000, max_moves=40)))


def test_killed_engine_process_is_replayed(cluster: Cluster) -> None:
    result = _match_with_a_kill(cluster, lambda: cluster.engine_pids("stockfish"), 4000)
    assert all(r.termination in ("normal", "adjudication") for r in result.records)


def test_missing_engine_on_a_worker_is_one_clear_error(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine is on the driver's PATH only, as when a node lacks the binary.
    (tmp_path / "plies-test-engine").symlink_to(STOCKFISH)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    match = _match(2, cluster.address, players=("uci:plies-test-engine", f"uci:{STOCKFISH}"))
    with pytest.raises(ClusterError) as info:
        run_match(match)
    message = str(info.value)
    assert "plies-test-engine" in message and "not found" in message
    assert message.startswith("worker ") and "pid " in message and "\n" not in message


def test_an_engine_that_always_crashes_loses_after_its_replays(cluster: Cluster) -> None:
    crasher = f"uci:{sys.executable} {TOY}:Mode=crash,After=2,name=crasher"
    result = run_match(_match(2, cluster.address, players=(crasher, f"uci:{STOCKFISH}:name=sf")))
    assert sorted(r.round for r in result.records) == [1, 2]
    assert all("crasher" in r.reason and "crashed" in r.reason for r in result.records)
    # Three attempts per game: two replays each, then the crash counts as it would locally.
    assert result.replays == 4
    assert result.scores[(0, 1)].losses == 2


def test_sprt_verdict_cancels_the_rest_and_keeps_a_prefix(cluster: Cluster) -> None:
    random_mover = f"uci:{sys.executable} {TOY}:name=toy"
    match = _match(40, cluster.address, nodes=500, max_moves=60, sprt=Sprt(0.0, 200.0),
                   players=(f"uci:{STOCKFISH}:name=sf", random_mover))
    result = run_match(match)
    assert result.sprt_verdict == "H1" and not result.interrupted
    assert result.played < result.scheduled
    assert sorted(r.round for r in result.records) == list(range(1, result.played + 1))


def _arena(cluster: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    """``plies arena`` in a subprocess that talks to the test cluster."""
    env = {**cluster.env, "COLUMNS": "160"}
    return subprocess.run(
        [sys.executable, "-m", "plies", "arena", *args], capture_output=True, text=True,
        timeout=300, env=env, stdin=subprocess.DEVNULL,
    )


def test_cli_runs_a_match_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    proc = _arena(cluster, f"uci:{STOCKFISH}:name=a", f"uci:{STOCKFISH}:Hash=8,name=b",
                  "--games", "4", "--nodes", "1000", "--max-moves", "20", "--random-openings",
                  "4", "--seed", "5", "--pgn", str(out), "--cluster", cluster.address)
    assert proc.returncode == 0, proc.stderr
    assert "4 of 4 games played" in proc.stdout
    # Both slots, or (a loaded machine) the first one alone if the games ran out first.
    assert re.search(r"cluster: (2 workers|1 of 2 workers took part)", proc.stderr), proc.stderr
    assert "0 replayed" in proc.stdout
    with out.open() as fh:
        rounds = []
        while (game := chess.pgn.read_game(fh)) is not None:
            rounds.append(game.headers["Round"])
    assert rounds == ["1", "2", "3", "4"]


def test_cli_says_when_a_worker_was_still_starting(cluster: Cluster, tmp_path: Path) -> None:
    """A worker whose engine cannot get ready until the match is over (the race that made
    the test above fail once, made certain): the games run on the other worker, and the
    report says that one of two took part instead of claiming a one-worker cluster."""
    gate = tmp_path / "gate"
    gate.mkdir()
    # Two tickets: the CLI's own try-out of the player and one worker; the other waits.
    gated = f"uci:{sys.executable} {TOY}:Gate={gate},Pass=2,name=toy"
    try:
        proc = _arena(cluster, f"uci:{STOCKFISH}:name=sf", gated, "--games", "2",
                      "--nodes", "500", "--max-moves", "10", "--cluster", cluster.address)
    finally:
        (gate / "release").touch()  # lets the engine left by the killed worker end
    assert proc.returncode == 0, proc.stderr
    assert "2 of 2 games played; 0 replayed" in proc.stdout
    assert "cluster: 1 of 2 workers took part" in proc.stderr, proc.stderr


def test_cli_bad_cluster_address_is_one_line(cluster: Cluster) -> None:
    proc = _arena(cluster, "random", "capture", "--depth", "1", "--games", "2",
                  "--cluster", "nowhere")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot connect to Ray" in lines[0], proc.stderr


@pytest.mark.slow
def test_cli_ctrl_c_keeps_the_finished_games_in_order(cluster: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "arena", f"uci:{STOCKFISH}:name=a",
         f"uci:{STOCKFISH}:Hash=8,name=b", "--games", "60", "--nodes", "20000",
         "--random-openings", "4", "--seed", "2", "--pgn", str(out), "--cluster", cluster.address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # A hang gets every thread's stack on stderr (ctrl_c_when's SIGABRT), not a timeout.
        env={**cluster.env, "COLUMNS": "160", "PYTHONFAULTHANDLER": "1"},
        stdin=subprocess.DEVNULL,
    )
    stdout, stderr = ctrl_c_when(
        proc, lambda: out.exists() and out.read_text().count("[Event ") >= 2, "two games finished"
    )
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    with out.open() as fh:
        rounds = []
        while (game := chess.pgn.read_game(fh)) is not None:
            rounds.append(int(game.headers["Round"]))
    assert len(rounds) >= 2 and rounds == sorted(set(rounds))
    assert f"{len(rounds)} of 60 games played" in stdout


# Slow: Ray Client's server starts a driver process of its own per connection, which on a
# busy machine can fail ("Initialization failure from server"; ray_session then connects
# again). The HOST:PORT path stays in the default run.
@pytest.mark.slow
def test_cli_through_the_ray_client(cluster: Cluster) -> None:
    import ray

    ray.shutdown()  # this test process lets go of the cluster; the CLI joins by ray://
    proc = _arena(cluster, f"uci:{STOCKFISH}:name=a", f"uci:{STOCKFISH}:name=b", "--games", "2",
                  "--nodes", "1000", "--max-moves", "10", "--cluster", cluster.client_address)
    assert proc.returncode == 0, proc.stderr
    assert "2 of 2 games played; 0 replayed" in proc.stdout


@pytest.mark.slow
def test_cli_cluster_auto_starts_a_private_local_instance(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "arena", f"uci:{STOCKFISH}:name=a",
         f"uci:{STOCKFISH}:name=b", "--games", "4", "--nodes", "1000", "--max-moves", "10",
         "--cluster", "auto", "--concurrency", "2"],
        capture_output=True, text=True, timeout=300, env={**env, "COLUMNS": "160"},
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    assert "4 of 4 games played; 0 replayed" in proc.stdout
