"""The sandbox around a user's program: what it sees and may do, checked with small shell and
Python programs run in it for real, and the rules that pick its folders and explain faults."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import chess
import pytest
from tests.waiting import HANG_S, wait_until

from plies import sandbox
from plies.agents.player import Player, PlayerError
from plies.agents.process import LineProcess, NoReplyError, ProcessGoneError
from plies.agents.registry import make_player
from plies.agents.spec import confine, parse_player
from plies.arena.openings import Opening
from plies.arena.referee import GameSettings, play_game
from plies.arena.standings import GameResult, Standings
from plies.engine.limits import Limit
from plies.sandbox import Jail, Limits, Sandbox, SandboxError

HOSTILE = Path(__file__).with_name("hostile")
needs_sandbox = pytest.mark.skipif(sandbox.unavailable() is not None,
                                   reason=f"no sandbox here: {sandbox.unavailable()}")


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """A league folder: the teacher's secret beside ``minds/``, where alice and bob sit."""
    (tmp_path / "secret.txt").write_text("the grades\n")
    minds = tmp_path / "minds"
    minds.mkdir(mode=0o755)
    for name in ("alice", "bob"):
        (minds / f"{name}.py").write_text(f"def choose(board):  # {name}\n    return 0\n")
    (minds / "helper.py").write_text("SHARED = 1\n")
    return tmp_path


def run_in(jail: Jail, script: str, cwd: Path, env: dict[str, str] | None = None) -> list[str]:
    """The lines ``sh -c script`` prints in ``jail`` (run from ``cwd``), to its end."""
    process = LineProcess(["sh", "-c", script + "\necho END"], env=env, cwd=str(cwd),
                          stderr=subprocess.STDOUT, jail=jail)
    try:
        assert process.confined
        return process.read_until("END", HANG_S)[:-1]
    finally:
        process.kill()


def jail_of(spec_texts: list[str], index: int, cwd: Path, **policy: object) -> Jail:
    """The jail of the ``index``-th of a league of ``spec_texts``, parsed from ``cwd``."""
    with contextlib.chdir(cwd):
        specs = confine([parse_player(t) for t in spec_texts], Sandbox(**policy))  # type: ignore[arg-type]
        jail = specs[index].jail()
    assert jail is not None
    return jail


def play_against_random(player: Player, sandboxed: bool) -> None:
    """Check ``player`` is (or is not) sandboxed, then that it plays a game without a fault."""
    try:
        assert player.sandboxed is sandboxed  # type: ignore[attr-defined]
        record = play_game(player, make_player("random"),
                           Opening(chess.STARTING_FEN),
                           GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S), seed=1)
    finally:
        player.close()
    assert not record.fault, record.reason


@needs_sandbox
def test_a_mind_sees_its_folder_and_not_the_others_nor_the_teachers_files(league: Path) -> None:
    jail = jail_of(["minds/alice.py", "minds/bob.py"], 0, league)
    lines = run_in(jail, "cat alice.py helper.py; cat bob.py || echo NO-BOB; "
                   "cat ../secret.txt || echo NO-SECRET; ls / | tr '\\n' ' '; echo",
                   league / "minds")
    text = "\n".join(lines)
    assert "# alice" in text and "SHARED" in text
    assert "# bob" not in text and "NO-BOB" in text
    assert "grades" not in text and "NO-SECRET" in text
    # At the top: the system, and the way to this Python, plies and the mind's folder only.
    needed = {Path(p).parts[1] for p in [*sys.path, sys.prefix, str(league)] if p}
    assert set(lines[-1].split()) <= {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32",
                                      "proc", "sbin", "tmp", "usr", *needed}


@needs_sandbox
def test_separate_folders_hide_each_other_whole(league: Path) -> None:
    for name in ("carol", "dave"):
        (league / name).mkdir(mode=0o755)
        (league / name / "mind.py").write_text(f"def choose(board):  # {name}\n    return 0\n")
    jail = jail_of(["carol/mind.py", "dave/mind.py"], 0, league)
    assert str(league / "dave") in jail.sandbox.hidden
    lines = run_in(jail, "cat mind.py; ls ../dave | wc -l; cat ../dave/mind.py || echo NO-DAVE",
                   league / "carol")
    assert "# carol" in lines[0] and "NO-DAVE" in lines[-1]


@needs_sandbox
def test_it_writes_only_to_its_private_tmp(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league)
    lines = run_in(jail, "for f in /tmp/x ../planted alice.py /planted /dev/shm/x; do "
                   "{ echo hi >> $f; } 2>/dev/null && echo WROTE $f || echo REFUSED $f; done",
                   league / "minds")
    assert lines == ["WROTE /tmp/x", "REFUSED ../planted", "REFUSED alice.py",
                     "REFUSED /planted", "WROTE /dev/shm/x"]
    assert (league / "minds" / "alice.py").read_text().endswith("return 0\n")
    assert not (league / "planted").exists()


@needs_sandbox
def test_no_network_not_even_the_hosts_loopback(league: Path) -> None:
    connected = threading.Event()
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def accept() -> None:
            """Note any connection."""
            with contextlib.suppress(OSError):
                server.accept()
                connected.set()

        threading.Thread(target=accept, daemon=True).start()
        jail = jail_of(["minds/alice.py"], 0, league)
        code = (f"import socket\ntry:\n socket.create_connection(('127.0.0.1', {port}), "
                "timeout=5)\n print('CONNECTED')\nexcept OSError as e:\n print('REFUSED', e)")
        lines = run_in(jail, f"{sys.executable} -I -S -c \"{code}\"", league / "minds")
    assert lines[0].startswith("REFUSED") and not connected.is_set()


@needs_sandbox
def test_no_capabilities_and_as_root_a_user_of_its_own(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league)
    lines = run_in(jail, "grep -E '^(Uid|CapEff|CapBnd|NoNewPrivs)' /proc/self/status",
                   league / "minds")
    fields = {line.split(":")[0]: line.split()[1:] for line in lines}
    assert fields["CapEff"] == ["0000000000000000"] and fields["CapBnd"] == ["0000000000000000"]
    assert fields["NoNewPrivs"] == ["1"]
    if os.geteuid() == 0:
        assert int(fields["Uid"][0]) >= sandbox.UID_BASE


@needs_sandbox
def test_the_process_limit_binds_even_as_root(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league, limits=Limits(processes=16))
    lines = run_in(jail, "n=0; while [ $n -lt 64 ]; do (sleep 30 &) 2>/dev/null || break; "
                   "n=$((n+1)); done; echo STARTED $n", league / "minds")
    started = int(lines[-1].split()[1])
    assert 0 < started < 16


@needs_sandbox
def test_memory_is_bounded_and_the_reason_says_so(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league, limits=Limits(memory_mb=256))
    lines = run_in(jail, f"{sys.executable} -I -S -c 'bytearray(1 << 30)' 2>&1 | tail -1",
                   league / "minds")
    assert lines[-1] == "MemoryError"
    assert "over its memory limit (256 MB)" in jail.explain("MemoryError (mind.py line 3)")


@needs_sandbox
def test_nothing_it_started_outlives_it(league: Path) -> None:
    mark = "2718.2818"
    jail = jail_of(["minds/alice.py"], 0, league)
    process = LineProcess(["sh", "-c", f"setsid sleep {mark} & echo STARTED; sleep 600"],
                          cwd=str(league / "minds"), jail=jail)
    assert process.read_line(HANG_S) == "STARTED"
    wait_until(lambda: _sleeping(mark), "the detached sleep to start")
    process.kill()
    wait_until(lambda: not _sleeping(mark), "the detached sleep to be gone with its sandbox")


def _sleeping(mark: str) -> bool:
    """True if a process ``sleep MARK`` runs on this machine."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/cmdline").read_bytes() == f"sleep\0{mark}\0".encode():
                return True
    return False


@needs_sandbox
def test_the_environment_keeps_no_secrets(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league)
    env = {**os.environ, "API_TOKEN": "s3cret", "PYTHONPATH": "/somewhere"}
    lines = run_in(jail, "echo token=$API_TOKEN path=$PYTHONPATH home=$HOME", league / "minds",
                   env)
    assert lines == ["token= path=/somewhere home=/tmp"]


@needs_sandbox
def test_a_warm_install_compiles_nothing_inside(tmp_path: Path) -> None:
    for name in ("cache_probe.py", "snoop.py"):
        shutil.copy(HOSTILE / name, tmp_path)
    player = confine([parse_player(str(tmp_path / "cache_probe.py")),
                      parse_player(str(tmp_path / "snoop.py"))], Sandbox())[0].create()
    play_against_random(player, sandboxed=True)


def test_a_command_names_its_own_files_not_the_software_it_runs(league: Path) -> None:
    (league / "build").mkdir()
    cases = {
        f"java -cp build:{league}/minds Main": [league / "build", league / "minds"],
        "sh minds/alice.py --out=minds/helper.py": [league / "minds" / "alice.py",
                                                    league / "minds" / "helper.py"],
        f"{sys.executable} minds/bob.py": [league / "minds" / "bob.py"],
        "./minds/alice.py -x": [league / "minds" / "alice.py"],
        "/usr/bin/env cat /etc/hostname / /proc/self": [],
    }
    for command, paths in cases.items():
        assert sandbox.named_paths(command.split(), str(league)) == [str(p) for p in paths]


def test_shared_folders_hide_the_others_files_separate_ones_the_whole_folder(
        league: Path) -> None:
    (league / "carol").mkdir()
    (league / "carol" / "mind.py").write_text("def choose(board):\n    return 0\n")
    with contextlib.chdir(league):
        specs = confine([parse_player(t) for t in ("minds/alice.py", "minds/bob.py",
                                                     "carol/mind.py", "random")],
                        Sandbox(), ["class.jsonl"])
    alice, bob, carol, built_in = (set(s.sandbox.hidden) for s in specs)
    minds = league / "minds"
    assert alice == {str(minds / "bob.py"), str(league / "carol" / "mind.py"),
                     str(league / "carol"), "class.jsonl"}
    assert str(minds / "alice.py") in bob and str(minds) not in bob
    assert {str(minds), str(minds / "alice.py"), str(minds / "bob.py")} <= carol
    assert specs[3].jail() is None and built_in  # an agent runs in plies, unsandboxed


def test_engines_are_sandboxed_only_when_asked() -> None:
    for kind, default in (("file", True), ("module", True), ("mind", True), ("uci", False),
                          ("xboard", False), ("agent", False), ("http", False)):
        assert Sandbox().covers(kind) is default
        assert Sandbox(engines=True).covers(kind) is (default or kind in ("uci", "xboard"))
        assert not Sandbox("off", engines=True).covers(kind)


def test_faults_name_the_limit_they_met() -> None:
    jail = Sandbox(limits=Limits(memory_mb=100, cpu_s=7, processes=9)).jail(())
    assert jail.explain("the process was killed by SIGXCPU").endswith(
        "(sandbox: over its CPU time limit (7 s))")
    assert "process limit (9)" in jail.explain(
        "BlockingIOError: [Errno 11] Resource temporarily unavailable")
    assert "write only in /tmp" in jail.explain("[Errno 30] Read-only file system: 'x'")
    assert jail.explain("ValueError: my bug") == "ValueError: my bug"


def test_strict_refuses_where_there_is_no_sandbox_on_warns_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    sandbox.unavailable.cache_clear()
    sandbox._warn_once.cache_clear()
    try:
        assert "bwrap" in (sandbox.unavailable() or "")
        with pytest.raises(SandboxError, match="cannot be built here"):
            Sandbox("strict").jail(()).wrap(["true"], None, None)
        mind = tmp_path / "mind.py"
        mind.write_text("def choose(board):\n    return board.legal_moves[0]\n")
        spec = parse_player(str(mind))
        with pytest.raises(PlayerError, match="cannot be built here"):
            dataclasses.replace(spec, sandbox=Sandbox("strict")).create()
        with caplog.at_level(logging.WARNING):
            for _ in range(2):
                assert not Sandbox().jail(()).wrap(["true"], None, None).confined
        assert len(caplog.records) == 1 and "without a sandbox" in caplog.text
        assert spec.sandbox_state() == "no"
    finally:
        sandbox.unavailable.cache_clear()
        sandbox._warn_once.cache_clear()


def test_standings_say_who_ran_sandboxed() -> None:
    standings = Standings(["alice", "stockfish"], [GameResult("alice", "stockfish", "0-1")],
                          sandboxed={"alice": "yes", "stockfish": "no"})
    assert standings.headers()[-1] == "Sandbox"
    assert "| alice | 1 | 0 | 0 | 1 |" in standings.to_markdown()
    assert "| no |" in standings.to_markdown() and "| yes |" in standings.to_markdown()
    assert "Sandbox" not in Standings(["a", "b"]).to_markdown()


def test_a_league_without_the_sandbox_keeps_it_and_refuses_a_contrary_flag() -> None:
    from plies.cli.common import CliError
    from plies.cli.match_options import sandbox_mode

    assert sandbox_mode(None, None, "class.jsonl") == "on"  # a new league
    assert sandbox_mode("strict", None, "class.jsonl") == "strict"
    assert sandbox_mode(None, {"sandbox": "off"}, "class.jsonl") == "off"
    with pytest.raises(CliError, match="without the sandbox"):
        sandbox_mode("strict", {"sandbox": "off"}, "class.jsonl")
    assert sandbox_mode("strict", {}, "class.jsonl") == "strict"
    with pytest.raises(CliError, match="in the sandbox"):
        sandbox_mode("off", {"depth": 2}, "class.jsonl")


def test_a_cache_only_readable_is_read_where_it_is() -> None:
    from numba.core.caching import CacheImpl

    from plies import jitcache
    from plies.core import movegen

    dispatcher = next(v for v in vars(movegen).values() if hasattr(v, "py_func"))
    locator = jitcache._readable_locator(CacheImpl._locator_classes, dispatcher.py_func,
                                         movegen.__file__)
    assert locator is not None
    assert any(n.startswith("movegen.") and n.endswith(".nbi")
               for n in os.listdir(locator.get_cache_path()))
    reader = jitcache.SourcesKeyedLocator(locator, Path(movegen.__file__), writable=False)
    reader.ensure_cache_path()  # no write check
    assert reader.get_cache_path() in jitcache._READ_ONLY_DIRS
    jitcache._READ_ONLY_DIRS.discard(reader.get_cache_path())


@needs_sandbox
def test_a_process_gone_in_the_sandbox_says_which_signal(league: Path) -> None:
    jail = jail_of(["minds/alice.py"], 0, league, limits=Limits(file_mb=1))
    process = LineProcess(["sh", "-c", "echo UP; exec head -c 2000000 /dev/zero > /tmp/big"],
                          cwd=str(league / "minds"), jail=jail)
    try:
        assert process.read_line(HANG_S) == "UP"
        with pytest.raises((ProcessGoneError, NoReplyError)) as gone:
            process.read_line(HANG_S)
    finally:
        process.kill()
    assert str(gone.value) == "the process was killed by SIGXFSZ"
    assert process.explain(str(gone.value)).endswith("(sandbox: over its file size limit (1 MB))")


@needs_sandbox
@pytest.mark.parametrize("kind", ["uci", "xboard"])
def test_an_engine_goes_in_the_sandbox_only_when_asked(kind: str) -> None:
    toy = Path(__file__).resolve().parents[1] / "arena" / f"toy_{kind}.py"
    spec = parse_player(f"{kind}:{sys.executable} {toy}")
    for engines in (False, True):
        player = dataclasses.replace(spec, sandbox=Sandbox(engines=engines)).create()
        play_against_random(player, sandboxed=engines)


def test_plies_players_says_what_runs_sandboxed(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.cli.main import main

    assert main(["players"]) == 0
    out = capsys.readouterr().out
    assert "FILE.py[:NAME]" in out and "mind:COMMAND" in out
    if sandbox.unavailable() is None:
        assert out.rstrip().splitlines()[-1].startswith("sandbox: bubblewrap")
        assert "sandboxed with --sandbox-engines" in out
    else:
        assert "cannot be built here" in out
