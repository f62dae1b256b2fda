"""Arena test fixtures: a real Ray cluster, a head and one worker node started with ``ray start``.

Both nodes run as separate process trees (``ray start --block``, each in its own
session), share a private temp dir and free ports, and are stopped by signalling
exactly those processes, never with ``ray stop`` (which would end every Ray
instance of this user on the machine).  Nodes and driver share a random token
(Ray's token authentication), so nothing else can join.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.waiting import HANG_S

import plies


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ray_command() -> str:
    """The ``ray`` console script of this Python."""
    sibling = Path(sys.executable).with_name("ray")
    return str(sibling) if sibling.exists() else (shutil.which("ray") or "ray")


@dataclass
class Cluster:
    """A running test cluster: where to reach it and the processes behind it."""

    address: str
    client_address: str
    head: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes]
    env: dict[str, str]

    def actor_pids(self) -> list[int]:
        """Processes of the worker node's actors (children of its raylet, titled by Ray)."""
        procs = _processes()
        node = {pid for pid, _, pgid, _ in procs if pgid == self.worker.pid}
        return [pid for pid, ppid, _, cmd in procs
                if ppid in node and cmd.startswith("ray::_SlotActor")]

    def engine_pids(self, name: str) -> list[int]:
        """Engine processes (command ``name``) started by this cluster's actors."""
        actors = set(self.actor_pids())
        return [pid for pid, ppid, _, cmd in _processes()
                if ppid in actors and Path(cmd.split(" ")[0]).name == name]

    def engine_owners(self, name: str) -> list[int]:
        """Actor processes that keep a ``name`` engine running."""
        engines = set(self.engine_pids(name))
        return sorted({ppid for pid, ppid, _, _ in _processes() if pid in engines})


def _processes() -> list[tuple[int, int, int, str]]:
    """(pid, ppid, pgid, command line) of every process we may look at."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found.append((int(entry.name), int(stat[1]), int(stat[2]), cmd))
    return found


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Run ``ray start --block ARGS`` in a session of its own."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [ray_command(), "start", "--block", "--disable-usage-stats",
             "--include-log-monitor=false",
             f"--dashboard-agent-listen-port={free_port()}",
             f"--dashboard-agent-grpc-port={free_port()}",
             f"--metrics-export-port={free_port()}",
             f"--runtime-env-agent-port={free_port()}", *args],
            env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop one ``ray start --block`` and everything in its session."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(20)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(5)


@contextlib.contextmanager
def ray_cluster(worker_cpus: int = 2) -> Iterator[Cluster]:
    """Start a head (no CPUs, so every actor lands on the worker) and a worker node.

    This process is connected to the cluster as a Ray driver while it is up.
    """
    tmp = Path(tempfile.mkdtemp(prefix="plies-ray-"))
    src = str(Path(plies.__file__).resolve().parents[1])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p),
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    port = free_port()
    client_port = free_port()
    common = [f"--temp-dir={tmp}", "--node-ip-address=127.0.0.1"]
    head = _start(["--head", f"--port={port}", "--num-cpus=0", "--include-dashboard=false",
                   f"--ray-client-server-port={client_port}", *common], env, tmp / "head.log")
    worker = _start([f"--address=127.0.0.1:{port}", f"--num-cpus={worker_cpus}", *common],
                    env, tmp / "worker.log")
    cluster = Cluster(f"127.0.0.1:{port}", f"ray://127.0.0.1:{client_port}", head, worker, env)
    # Ray reads the token settings when it is imported: set them first.
    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN")}
    os.environ.update({k: env[k] for k in saved})
    if "ray" in sys.modules:
        from ray._raylet import Config

        Config.initialize("")
    try:
        _wait_for_cpus(cluster, worker_cpus, tmp)
        yield cluster
    finally:
        import ray

        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _stop(worker)
        _stop(head)
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_for_cpus(cluster: Cluster, cpus: int, tmp: Path) -> None:
    """Connect this process to the cluster and wait until the worker node's CPUs show."""
    import ray

    deadline = time.monotonic() + HANG_S  # only a node that never comes up
    while time.monotonic() < deadline:
        for proc, name in ((cluster.head, "head"), (cluster.worker, "worker")):
            if proc.poll() is not None:
                log = (tmp / f"{name}.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"ray {name} exited early:\n{log}")
        if not ray.is_initialized():
            with contextlib.suppress(Exception):
                ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
        if ray.is_initialized() and ray.cluster_resources().get("CPU", 0) >= cpus:
            return
        time.sleep(0.5)
    raise RuntimeError("the test Ray cluster did not come up in time")


# One cluster for the whole session: a second one, started in the same process after the
# first was shut down, did not come up within the start timeout (seen in a run of
# tests/arena); and each start costs a quarter of a minute on a busy machine.
@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """One head and one 2-CPU worker node, shared by every test that asks for it."""
    if importlib.util.find_spec("ray") is None:
        pytest.skip("needs Ray: pip install 'plies[cluster]'")
    with ray_cluster(worker_cpus=2) as c:
        yield c
