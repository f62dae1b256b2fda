"""Builds of plies to match against each other: this source tree or a git revision.

A build is a ``src`` directory holding a ``plies`` package; it is played as
``python -m plies uci`` with ``PYTHONPATH`` pointing at that directory (through
``env``, since arena players take a command line).  A git revision is checked
out with ``git worktree add --detach`` into a temporary directory, which is
removed (``git worktree remove --force``) when the match is over.  numba
caches compiled code beside the sources, so a fresh checkout compiles the
engine once: :func:`warm_up` does that before any clock runs.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import plies
from plies.agents.spec import PlayerSpec
from plies.params import find_param

CURRENT_SRC = Path(plies.__file__).resolve().parent.parent
"""The ``src`` directory of the plies that is running (the "working tree" build)."""

# One full engine compile on a busy machine can take several minutes.
WARM_UP_TIMEOUT_S = 1800.0


class BuildError(ValueError):
    """A build could not be checked out or does not run."""


@dataclass(frozen=True)
class Build:
    """One side of a build-against-build match: sources, UCI options and a display name."""

    name: str
    src: Path
    options: tuple[tuple[str, str], ...] = ()
    revision: str = ""

    tune: bool = False
    """Declare the search parameters as options (``plies uci --tune``), as a build whose
    options set one does too."""

    def command(self) -> tuple[str, ...]:
        """The engine command: this build's ``python -m plies uci`` (with ``--tune`` if it
        is tuned or sets a search parameter)."""
        env = shutil.which("env") or "/usr/bin/env"
        tune = self.tune or any(find_param(name) is not None for name, _ in self.options)
        return (env, f"PYTHONPATH={python_path(self.src)}", sys.executable, "-m", "plies", "uci",
                *(("--tune",) if tune else ()))  # fmt: skip

    def spec(self) -> PlayerSpec:
        """The arena player for this build."""
        text = f"build:{self.name}"
        return PlayerSpec(text, "uci", self.name, None, self.command(), self.options)


def check_net_options(options: tuple[tuple[str, str], ...]) -> None:
    """Load a plies engine's ``EvalFile`` here, with the engine's own loader, so a missing,
    unreadable or malformed net is a BuildError before any game (the engine would only
    print an ``info string`` and play on with its old evaluation)."""
    for key, value in options:
        if key.strip().lower() == "evalfile" and value.strip():
            from plies.core import load_net

            try:
                load_net(value.strip())
            except ValueError as exc:
                raise BuildError(f"EvalFile: {exc}") from None


def is_plies_command(command: tuple[str, ...] | list[str]) -> bool:
    """Whether an engine command runs plies (``plies uci`` or ``python -m plies uci``)."""
    words = list(command)
    if words and Path(words[0]).name == "plies":
        return True
    return any(a == "-m" and b == "plies" for a, b in itertools.pairwise(words))


def python_path(src: Path) -> str:
    """``PYTHONPATH`` with ``src`` first (other entries kept for the packages plies needs)."""
    rest = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join([str(src), *(p for p in rest.split(os.pathsep) if p)])


def _git(repo: Path, *args: str) -> str:
    """Run git in ``repo``; BuildError with git's own message if it fails."""
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
        )
    except OSError as exc:
        raise BuildError(f"cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise BuildError(f"git {args[0]}: {message}")
    return done.stdout.strip()


def resolve(repo: Path, ref: str) -> str:
    """The full commit hash of ``ref`` in ``repo``."""
    return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")


@contextlib.contextmanager
def checkout(repo: Path, ref: str) -> Iterator[tuple[Path, str]]:
    """Check ``ref`` out into a temporary worktree; yield (its src dir, commit hash)."""
    try:
        commit = resolve(repo, ref)
    except BuildError:
        raise BuildError(f"{ref!r} is not a commit in {repo}") from None
    parent = Path(tempfile.mkdtemp(prefix="plies-build-"))
    tree = parent / commit[:12]
    _git(repo, "worktree", "add", "--detach", str(tree), commit)
    try:
        src = tree / "src"
        if not (src / "plies" / "__main__.py").is_file():
            raise BuildError(f"{ref} ({commit[:12]}) has no src/plies package to run")
        yield src, commit
    finally:
        with contextlib.suppress(BuildError):
            _git(repo, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(parent, ignore_errors=True)


def repository_root(start: Path) -> Path:
    """The top of the git repository holding ``start``."""
    return Path(_git(start, "rev-parse", "--show-toplevel"))


def warm_up(src: Path) -> None:
    """Compile (or load) the engine of the build in ``src`` once, so no game pays for it."""
    env = dict(os.environ, PYTHONPATH=python_path(src))
    code = "from plies.engine import Engine; Engine(hash_mb=1).warm_up()"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            timeout=WARM_UP_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        limit = f"{WARM_UP_TIMEOUT_S:g}s"
        raise BuildError(f"the engine in {src} did not compile within {limit}") from None
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(f"the engine in {src} does not run: {tail}")
