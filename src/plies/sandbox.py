"""The sandbox a user's program runs in: what it sees, what it may use, the command around it.

Every process player (a Python mind's child, a ``mind:`` program and, on request, a
``uci:`` or ``xboard:`` engine) is started through :class:`Jail.wrap`, which puts the
command inside bubblewrap (``bwrap``) and resource limits:

- **what it sees**, read-only: the system's programs and libraries (``/usr`` and its
  links, a few files of ``/etc``), this Python installation with plies, its path and
  its compiled cache, the program's own installation, and the mind's own folders, with
  the other minds of the same league in them hidden (an empty file or folder over
  each); a private writable ``/tmp`` and ``/dev/shm`` of bounded size; nothing else;
- **namespaces**: its own network (no network at all), PID (its processes die with
  it: ``--die-with-parent``), IPC, UTS and cgroup namespaces, a new session (no
  controlling terminal to type into), every capability dropped;
- **limits** (``prlimit`` inside the sandbox, so that the process count is the
  sandbox's own): memory written (``RLIMIT_DATA``: a JVM reserves far more address
  space than it uses, so an address-space limit would stop it), CPU seconds,
  processes, open files and file size;
- **as root** (where process limits do not bind and files belong to the caller),
  the program runs as a user id of its own, from a range no account uses
  (:data:`UID_BASE`), through ``setpriv``.

Where the sandbox cannot be built (not Linux, no bubblewrap, namespaces refused),
mode ``on`` runs the program as before after one warning, and mode ``strict``
refuses to start it (:class:`SandboxError`).
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MODES = ("on", "strict", "off")
"""``on``: sandbox where possible (else warn once); ``strict``: refuse to play without it;
``off``: run with the caller's rights."""

MIND_KINDS = ("file", "module", "mind")
"""Spec kinds sandboxed whenever the mode is not ``off``."""
ENGINE_KINDS = ("uci", "xboard")
"""Spec kinds sandboxed only on request (:attr:`Sandbox.engines`)."""

DEFAULT_MEMORY_MB = 2048
"""Memory a process may write. A JVM's first heap is 1/64 of the machine's memory, so this
lets one start on machines of up to about 120 GB (docs/results.md has the measurement)."""
DEFAULT_CPU_S = 3600
"""CPU seconds per process; a player whose process has used half starts a fresh one before
its next game, so only a single game of that length meets the limit."""
DEFAULT_PROCESSES = 256
"""Processes and threads of one sandbox (a JVM starts a few dozen threads)."""
DEFAULT_OPEN_FILES = 512
"""Open files per process."""
DEFAULT_FILE_MB = 64
"""Largest file a process may write, and the size of each private temporary folder."""
CPU_GRACE_S = 5
"""Seconds between SIGXCPU (which says why) and SIGKILL (for a mind that ignores it)."""

UID_BASE = 1_900_000_000
"""As root, each sandbox runs as a user id from here on: above the ranges accounts and
containers use, below 2**31 (tools that read ids as signed integers)."""
UID_SPAN = 1 << 24
"""How many user ids the sandboxes of this machine cycle through."""

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The system's programs and libraries (links on merged-/usr systems, folders elsewhere)."""
NEVER_OWN = ("/etc", "/proc", "/sys", "/dev", "/run", "/var", "/boot")
"""Folders of the system a command may name that never count as a mind's own."""
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime",
             "timezone", "passwd", "group", "nsswitch.conf", "mime.types")  # fmt: skip
"""The files of /etc programs need (the dynamic linker, program links, time, user names)."""
ETC_PREFIXES = ("java-", "python3")
"""Folders of /etc that runtimes read: the JDK's configuration, Debian's Python's."""
KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR",
            "LD_LIBRARY_PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "_JAVA_OPTIONS")  # fmt: skip
"""Environment variables a sandboxed program keeps (tokens and keys in others stay out)."""
KEPT_ENV_PREFIXES = ("LC_", "PYTHON", "NUMBA_", "PLIES_", "JAVA_", "JDK_", "OMP_")
"""Prefixes of the environment variables it keeps."""
SANDBOX_TMP = "/tmp"
"""The private temporary folder (also HOME and TMPDIR inside)."""
UNWRITABLE_CACHE_HOME = "/.cache"
"""The cache home inside when the host keeps no numba cache: a folder the read-only root
cannot hold."""

_log = logging.getLogger(__name__)
_uids = itertools.count()


class SandboxError(RuntimeError):
    """The sandbox was required (mode ``strict``) but cannot be built here."""


@dataclass(frozen=True)
class Limits:
    """The resource limits of every process in a sandbox."""

    memory_mb: int = DEFAULT_MEMORY_MB
    cpu_s: int = DEFAULT_CPU_S
    processes: int = DEFAULT_PROCESSES
    open_files: int = DEFAULT_OPEN_FILES
    file_mb: int = DEFAULT_FILE_MB

    def prlimit(self) -> list[str]:
        """The ``prlimit`` command that applies them (then ``--`` and the program)."""
        mb = 1 << 20
        return ["prlimit", f"--data={self.memory_mb * mb}",
                f"--cpu={self.cpu_s}:{self.cpu_s + CPU_GRACE_S}",
                f"--nproc={self.processes}", f"--nofile={self.open_files}",
                f"--fsize={self.file_mb * mb}", "--"]

    def summary(self) -> str:
        """One line for the user: ``memory 2048 MB, CPU 3600 s, ...``."""
        return (f"memory {self.memory_mb} MB, CPU {self.cpu_s} s, {self.processes} processes, "
                f"{self.open_files} open files, files up to {self.file_mb} MB")


@dataclass(frozen=True)
class Sandbox:
    """How players are confined: the mode, whether engines are too, the limits, and the
    other minds' paths (of the same league) to hide from each."""

    mode: str = "on"
    engines: bool = False
    limits: Limits = field(default_factory=Limits)
    hidden: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """ValueError for a mode not in :data:`MODES`."""
        if self.mode not in MODES:
            raise ValueError(f"sandbox mode must be one of {', '.join(MODES)}, not {self.mode!r}")

    def covers(self, kind: str) -> bool:
        """True if players of spec kind ``kind`` run in the sandbox under this policy."""
        if self.mode == "off":
            return False
        return kind in MIND_KINDS or (self.engines and kind in ENGINE_KINDS)

    def jail(self, own: Iterable[str]) -> Jail:
        """The sandbox of one player whose own files are in the folders ``own``."""
        return Jail(self, tuple(dict.fromkeys(os.path.abspath(p) for p in own)))


@dataclass(frozen=True)
class Launch:
    """What to run: the command (maybe wrapped), its environment, whether it is confined."""

    command: list[str]
    env: dict[str, str] | None
    confined: bool


@dataclass(frozen=True)
class Jail:
    """One player's sandbox: the policy and the folders holding its own files."""

    sandbox: Sandbox
    own: tuple[str, ...]

    def wrap(self, command: Sequence[str], env: Mapping[str, str] | None,
             cwd: str | None) -> Launch:
        """The launch of ``command`` in this sandbox; as it is (after one warning) where the
        sandbox cannot be built in mode ``on``; SandboxError in mode ``strict``."""
        problem = unavailable()
        if problem is not None:
            if self.sandbox.mode == "strict":
                raise SandboxError(f"the sandbox cannot be built here: {problem}")
            _warn_once(problem)
            return Launch(list(command), dict(env) if env is not None else None, False)
        where = os.path.abspath(cwd or os.getcwd())
        inner = [*self.sandbox.limits.prlimit(), *_as_other_user(), *command]
        return Launch([*bwrap_arguments(self, command, where), "--", *inner],
                      sandbox_env(os.environ if env is None else env), True)

    def worn(self, pid: int) -> bool:
        """True once a process of the sandbox started as ``pid`` has used half its CPU limit:
        the player starts a fresh one before its next game, so that no game meets the limit
        for what earlier games used."""
        return cpu_seconds(pid) * 2 > self.sandbox.limits.cpu_s

    def explain(self, text: str) -> str:
        """``text`` (why a sandboxed program failed) with the sandbox's part in it, if any."""
        limits = self.sandbox.limits
        rules = (
            (("SIGXCPU",), f"over its CPU time limit ({limits.cpu_s} s)"),
            (("SIGXFSZ", "File too large"), f"over its file size limit ({limits.file_mb} MB)"),
            (("MemoryError", "Cannot allocate memory", "OutOfMemoryError", "bad_alloc",
              "Not enough space"), f"over its memory limit ({limits.memory_mb} MB)"),
            (("Resource temporarily unavailable", "BlockingIOError"),
             f"over its process limit ({limits.processes})"),
            (("Too many open files",), f"over its open files limit ({limits.open_files})"),
            (("Read-only file system",), f"it may write only in {SANDBOX_TMP}"),
            (("Network is unreachable", "Connection refused"), "it has no network"),
            (("Permission denied",), "it reads only what others may: as root, minds run as "
             "a user of their own (chmod o+rX their folder)" if os.geteuid() == 0 else
             "it reads only its own folder and the software it needs"),
        )
        for needles, why in rules:
            if any(n in text for n in needles):
                return f"{text} (sandbox: {why})"
        return text


def bwrap_arguments(jail: Jail, command: Sequence[str], cwd: str) -> list[str]:
    """The ``bwrap`` command line (up to the ``--`` before the program) for ``jail``."""
    root = os.geteuid() == 0
    size = str(jail.sandbox.limits.file_mb << 20)
    args = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if root:  # setpriv changes to the sandbox's user id and drops these too
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add",
                 "CAP_SETPCAP"]
    else:
        args += ["--unshare-user", "--disable-userns"]
    # The private folders first, so that a bound folder inside /tmp shows on top of them.
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", size, "--tmpfs", SANDBOX_TMP,
             "--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"]
    for name in SYSTEM_DIRS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
    own = [p for p in jail.own if p != os.sep]  # never the whole machine
    trees = _outermost([*_system_trees(), *_runtime_trees(command, cwd), *own])
    etc = _etc_files()
    for folder in _missing_folders([*trees, *etc], cwd, trees):
        args += ["--dir", folder]  # bwrap would make them 0700: nobody but root could enter
    for path in [*trees, *etc]:
        args += ["--ro-bind", path, path]
    for path in _to_hide(jail, trees):
        if os.path.isdir(path):
            args += ["--tmpfs", path, "--remount-ro", path]
        else:
            args += ["--ro-bind", os.devnull, path]
    return [*args, "--chdir", cwd, "--remount-ro", "/dev", "--remount-ro", "/"]


def sandbox_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment inside: the kept variables of ``env``, the private folder as HOME and
    TMPDIR, and numba's user-wide cache where ``env`` has it (read-only inside)."""
    kept = {k: v for k, v in env.items()
            if k in KEPT_ENV or k.startswith(KEPT_ENV_PREFIXES)}
    kept.update(HOME=SANDBOX_TMP, TMPDIR=SANDBOX_TMP)
    # Never a cache folder numba can write: it would compile everything anew into it. With
    # none, plies reads the compiled code where it is cached (plies.jitcache).
    kept["XDG_CACHE_HOME"] = _numba_cache_home(env) or UNWRITABLE_CACHE_HOME
    return kept


def _as_other_user() -> list[str]:
    """As root: ``setpriv`` to a user id of the sandbox's own, with no way back."""
    if os.geteuid() != 0:
        return []
    uid = str(UID_BASE + (os.getpid() * 4096 + next(_uids)) % UID_SPAN)
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]


def _system_trees() -> list[str]:
    """The system folders that are real folders here (links are made as links)."""
    return [d for d in SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)]


def _etc_files() -> list[str]:
    """The files and folders of /etc a program may need that exist here."""
    found = [f"/etc/{n}" for n in ETC_FILES if os.path.lexists(f"/etc/{n}")]
    try:
        names = sorted(os.listdir("/etc"))
    except OSError:
        return found
    return found + [f"/etc/{n}" for n in names if n.startswith(ETC_PREFIXES)]


def _runtime_trees(command: Sequence[str], cwd: str) -> list[str]:
    """This Python with plies, its path and compiled cache, and the program's installation;
    never the current folder (the league's folder, often), a home folder or one holding
    either."""
    found = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             *sysconfig.get_paths().values(), str(Path(__file__).resolve().parents[1])]
    found += [p for p in sys.path if p]
    cache = os.environ.get("NUMBA_CACHE_DIR")
    if cache:
        found.append(cache)
    cache_home = _numba_cache_home(os.environ)
    if cache_home is not None:
        found.append(os.path.join(cache_home, "numba"))
    if command:
        found += _installation(command[0], cwd)
    held = (cwd, os.path.expanduser("~"), SANDBOX_TMP)
    return [p for p in (os.path.abspath(f) for f in found)
            if not any(_inside(h, p) for h in held) and os.path.exists(p)]


def _installation(program: str, cwd: str) -> list[str]:
    """Where ``program`` is installed when it is shared software outside the system folders
    (found on the PATH, or ``X/bin/program``): ``X``, or its folder; else nothing (a
    user's own program is one of its own files)."""
    path = os.path.join(cwd, program) if os.sep in program else shutil.which(program)
    if path is None:
        return []
    real = Path(os.path.realpath(path)).parent
    if os.sep in program and real.name != "bin":
        return []
    home = str(real.parent if real.name == "bin" else real)
    return [] if any(_inside(home, d) for d in SYSTEM_DIRS) else [home]


def named_paths(command: Sequence[str], cwd: str | None = None) -> list[str]:
    """A user's own files and folders a command names: the program when given as a path and
    not installed software, and every word (or ``--opt=`` value, or entry of a ``:``-list
    such as a class path) that names an existing path from ``cwd``; never the system's or
    this Python's folders, nor the program's installation."""
    where = cwd or os.getcwd()
    shared = [*SYSTEM_DIRS, *NEVER_OWN, *_runtime_trees(command, where)]
    words = list(command[:1]) if command and os.sep in command[0] else []
    for word in command[1:]:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        words += [] if value.startswith("-") else value.split(os.pathsep)
    found = []
    for word in words:
        path = os.path.abspath(os.path.join(where, word)) if word else ""
        if (path not in ("", os.sep) and os.path.exists(path)
                and not any(_inside(path, d) for d in shared)):
            found.append(path)
    return list(dict.fromkeys(found))


def own_folders(paths: Iterable[str]) -> list[str]:
    """The folders of ``paths``: a folder itself, a file's parent."""
    return list(dict.fromkeys(p if os.path.isdir(p) else os.path.dirname(p) for p in paths))


def _numba_cache_home(env: Mapping[str, str]) -> str | None:
    """The cache home numba's user-wide cache lives in, when it holds one."""
    home = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "~", ".cache")
    home = os.path.expanduser(home)
    return home if os.path.isdir(os.path.join(home, "numba")) else None


def _inside(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` or below it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _outermost(paths: Iterable[str]) -> list[str]:
    """The paths that are not inside another of them, shortest first."""
    out: list[str] = []
    for path in sorted(set(paths), key=lambda p: (p.count(os.sep), p)):
        if not any(_inside(path, kept) for kept in out):
            out.append(path)
    return out


def _missing_folders(paths: Iterable[str], cwd: str, trees: Sequence[str]) -> list[str]:
    """The folders to create, parents first: every parent of ``paths`` and ``cwd`` itself,
    unless a bound tree holds it already."""
    wanted: set[str] = set()
    for path, last in [*((p, len(Path(p).parts) - 1) for p in paths), (cwd, len(Path(cwd).parts))]:
        parts = Path(path).parts
        for n in range(2, last + 1):
            folder = os.path.join(*parts[:n])
            if any(_inside(folder, t) for t in trees):
                break
            wanted.add(folder)
    return sorted(wanted, key=lambda p: (p.count(os.sep), p))


def _to_hide(jail: Jail, trees: Sequence[str]) -> list[str]:
    """The other minds' paths that would show in a bound tree (never one of our own)."""
    out = []
    for path in dict.fromkeys(os.path.abspath(p) for p in jail.sandbox.hidden):
        if any(_inside(own, path) for own in jail.own):
            continue
        if any(_inside(path, t) for t in trees) and os.path.lexists(path):
            out.append(path)
    return out


def cpu_seconds(pid: int) -> float:
    """CPU seconds used by the busiest process below ``pid`` (a sandbox's ``bwrap``): the
    figure its CPU limit counts (0 when none can be read)."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        children.setdefault(int(fields[1]), []).append(int(name))
        times[int(name)] = (int(fields[11]) + int(fields[12])) / tick
    busiest, todo = 0.0, list(children.get(pid, ()))
    while todo:
        child = todo.pop()
        busiest = max(busiest, times[child])
        todo += children.get(child, ())
    return busiest


@functools.cache
def unavailable() -> str | None:
    """Why the sandbox cannot be built on this machine, or None when it can (tried once)."""
    if not sys.platform.startswith("linux"):
        return f"it needs Linux (this is {sys.platform})"
    needed = ["bwrap", "prlimit"] + (["setpriv"] if os.geteuid() == 0 else [])
    missing = [n for n in needed if shutil.which(n) is None]
    if missing:
        return f"{' and '.join(missing)} not found (install bubblewrap and util-linux)"
    true = shutil.which("true") or "/bin/true"
    trial = Sandbox().jail(())
    command = [*bwrap_arguments(trial, [true], "/"), "--", *_as_other_user(), true]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=30, env=sandbox_env(os.environ))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap did not run: {exc}"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return f"bwrap failed: {lines[-1] if lines else f'status {done.returncode}'}"
    return None


@functools.cache
def _warn_once(problem: str) -> None:
    """Say once per process that minds run unconfined, and why."""
    _log.warning("plies: minds run without a sandbox here (%s); --sandbox strict refuses "
                 "to play instead", problem)
