"""A class league with hostile minds in it, run the way the docs say (``plies arena --league``),
as root and as an unprivileged user: every breach costs only the breaching mind its games,
the files, the network and the other minds stay untouched, honest minds play as before, and
no process of any mind outlives the league."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.waiting import HANG_S

from plies import sandbox

HOSTILE = Path(__file__).with_name("hostile")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "minds"
NOBODY = 65534
"""The unprivileged user the second run is played as."""
# What each hostile mind's fault may say: refused, or the limit it met (forking up to the
# process limit could outlast even the move's generous deadline on a busy machine).
EXPECTED = {
    "snoop": ("refused: read secret.txt",),
    "hog_memory": ("over its memory limit",),
    "fork_bomb": ("over its process limit", "hung"),
    "leave_child": ("refused: gives up",),
    "spin": ("over its CPU time limit",),
}
CPU_S = 6
"""The league's CPU limit: what stops the spinning mind, while an honest one (a second and a
half to start and play a game here) never meets it, its process renewed at half of it. The
move's deadline stays generous (``HANG_S``), so that no honest move is cut short by load."""
HONEST = ("capture_first", "minimax2")  # minimax2 imports the shared evaluation.py
LEFT_BEHIND = "3141.5926"  # leave_child's detached ``sleep``

pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(sandbox.unavailable() is not None,
                       reason=f"no sandbox here: {sandbox.unavailable()}"),
]


@contextlib.contextmanager
def listening() -> Iterator[tuple[int, threading.Event]]:
    """A server on the host's loopback: its port, and an event set if anyone connects."""
    connected = threading.Event()
    with socket.create_server(("127.0.0.1", 0)) as server:

        def accept() -> None:
            """Note any connection."""
            with contextlib.suppress(OSError):
                server.accept()
                connected.set()

        threading.Thread(target=accept, daemon=True).start()
        yield server.getsockname()[1], connected


def lay_out(root: Path, port: int) -> tuple[Path, list[str]]:
    """The teacher's folder: every mind in ``minds/`` (the examples' shared evaluation.py
    too), the secret beside it, the Java mind built; the folder and the player specs."""
    league = root / "league"
    minds = league / "minds"
    minds.mkdir(parents=True)
    for name in (*HONEST, "evaluation"):
        shutil.copy(EXAMPLES / f"{name}.py", minds)
    for name in EXPECTED:
        shutil.copy(HOSTILE / f"{name}.py", minds)
    (minds / "port.txt").write_text(str(port))
    (league / "secret.txt").write_text("the grades\n")
    specs = [f"minds/{name}.py" for name in (*HONEST, *EXPECTED)]
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is not None and java is not None:
        subprocess.run([javac, "-d", str(league / "java"), str(EXAMPLES / "java" /
                                                              "CaptureMind.java")],
                       check=True, timeout=HANG_S)
        specs.append(f"mind:{java} -cp java CaptureMind")
    for path in [league, *league.rglob("*")]:
        path.chmod(0o777 if path == league else 0o755 if path.is_dir() else 0o644)
    return league, specs


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` but the league file, with a hash of its contents."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "class.jsonl"}


def as_nobody(command: list[str], league: Path) -> list[str]:
    """``command`` run as user nobody from ``/league`` (the league folder mounted there),
    with this Python and plies reachable for it wherever they are installed."""
    outer = ["bwrap", "--dev-bind", "/", "/"]
    needed = [p for p in {sys.prefix, sys.base_prefix, *sys.path} if p and os.path.exists(p)]
    covered: set[str] = set()
    for path in sorted(needed):
        closed = next((a for a in reversed(Path(path).parents)
                       if not os.stat(a).st_mode & stat.S_IXOTH), None)
        if closed is None:
            continue
        if str(closed) not in covered:
            covered.add(str(closed))
            outer += ["--tmpfs", str(closed)]
        for parent in reversed(Path(path).parents):
            if len(parent.parts) > len(closed.parts):
                outer += ["--dir", str(parent)]
        outer += ["--ro-bind", path, path]
    # No cache folder nobody could write: plies reads root's compiled code where it is.
    outer += ["--bind", str(league), "/league", "--chdir", "/league", "--setenv", "HOME",
              "/tmp", "--setenv", "XDG_CACHE_HOME", "/nonexistent"]
    return [*outer, "--", "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
            "--clear-groups", "--", *command]


def processes_of(league: Path) -> list[str]:
    """The command lines of the processes still running a mind of ``league``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if LEFT_BEHIND in line or ("minds/" in line and ("/league" in line
                                                             or str(league) in line)):
                found.append(line)
    return found


@pytest.mark.parametrize("user", ["root", "nobody"] if os.geteuid() == 0 else ["self"])
def test_hostile_minds_lose_only_their_own_games(tmp_path: Path, user: str) -> None:
    with listening() as (port, connected):
        league, specs = lay_out(tmp_path, port)
        before = snapshot(league)
        command = [sys.executable, "-m", "plies", "arena", *specs, "--league", "class.jsonl",
                   "--depth", "1", "--games", "1", "--max-moves", "6", "--move-timeout",
                   str(HANG_S), "--sandbox-cpu", str(CPU_S), "--concurrency", "2", "-q"]
        if user == "nobody":
            command = as_nobody(command, league)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        done = subprocess.run(command, cwd=league, capture_output=True, text=True, env=env,
                              timeout=4 * HANG_S)
        assert done.returncode == 0, done.stderr[-3000:]
        assert not connected.is_set()
    assert snapshot(league) == before
    assert not processes_of(league)
    lines = [json.loads(line) for line in (league / "class.jsonl").read_text().splitlines()]
    games = [line["game"] for line in lines if "game" in line]
    assert len(games) == len(specs) * (len(specs) - 1) // 2
    assert "sandboxed" in done.stdout and "with your rights" not in done.stdout
    faulted: set[str] = set()
    for game in games:
        assert "BREACH" not in game["reason"], game["reason"]
        hostile = [s for s in (game["white"], game["black"]) if Path(s).stem in EXPECTED]
        if not hostile:  # honest minds play their games to the end
            assert not game["fault"], game["reason"]
            continue
        culprit = game[game["faulty"]]
        assert culprit in hostile and game["result"] == ("0-1" if game["faulty"] == "white"
                                                         else "1-0"), game
        assert any(w in game["reason"] for w in EXPECTED[Path(culprit).stem]), game["reason"]
        faulted.add(Path(culprit).stem)
    assert faulted == set(EXPECTED)


SPINNER = """\
import sys, time
forever = sys.argv[1] == "forever"
for line in sys.stdin:
    start = time.process_time()
    while forever or time.process_time() - start < 1.5:
        pass
    print("0,0", flush=True)
"""


def test_cpu_time_is_bounded_and_a_worn_process_is_replaced(tmp_path: Path) -> None:
    from plies.agents.player import PlayerError
    from plies.agents.spec import parse_player
    from plies.board import Board
    from plies.engine.limits import Limit
    from plies.sandbox import Limits, Sandbox

    (tmp_path / "spin.py").write_text(SPINNER)
    policy = Sandbox(limits=Limits(cpu_s=2))
    worn, forever = (dataclasses.replace(parse_player(f"mind:{sys.executable} -I -S "
                                                      f"{tmp_path / 'spin.py'} {mode}"),
                                         sandbox=policy).create()
                     for mode in ("worn", "forever"))
    try:
        # The process's id, on the player or on what it seats.
        process = getattr(worn, "inner", worn)
        first = process.pid
        assert worn.play(Board(), Limit(movetime=round(HANG_S * 1000))).resigned
        worn.new_game(2)  # 1.5 of its 2 CPU seconds used: a fresh process for this game
        assert process.pid not in (None, first)
        with pytest.raises(PlayerError) as fault:
            forever.play(Board(), Limit(movetime=round(HANG_S * 1000)))
        assert fault.value.kind == "crash"
        assert fault.value.detail == ("the process was killed by SIGXCPU (sandbox: over its "
                                      "CPU time limit (2 s))")
    finally:
        worn.close()
        forever.close()
