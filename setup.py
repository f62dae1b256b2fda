"""Build hook: compile the chess engine into the package's own cache while it is installed.

Everything else about the package is declared in ``pyproject.toml``. A first
run of the engine otherwise waits for numba to compile it; building the wheel
(``pip install .``) or the editable install (``pip install -e .``) does that
once instead (two parts at a time, a line per step on stderr: ``pip install -v``
shows them), into the ``__pycache__`` folders beside the compiled sources
(or the user's ``NUMBA_CACHE_DIR``), where every later run finds it. The cache
is keyed on the sources' contents and on this machine's CPU (``plies.jitcache``),
so a wheel carried to another kind of CPU just compiles on its first run, as
without the hook. Set
``PLIES_BUILD_COMPILE=0`` to skip the step; a failure to compile never fails
the install.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COMPILE_TIMEOUT_S = 1800.0
"""Longest wait for the ahead-of-time compile (far beyond a slow, loaded machine)."""


def compile_engine(source_root: Path) -> None:
    """Run the engine's warm-up with ``source_root`` first on the path, caching what it compiles."""
    if os.environ.get("PLIES_BUILD_COMPILE", "1") == "0":
        return
    env = dict(os.environ)  # a NUMBA_CACHE_DIR of the user's is where later runs look too
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(source_root) if not path else os.pathsep.join([str(source_root), path])
    command = [sys.executable, "-m", "plies.engine.ahead"]  # prints a line per step to stderr
    try:
        subprocess.run(command, env=env, check=True, timeout=COMPILE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"plies: not compiled ahead ({exc}); the first run compiles it", file=sys.stderr)


class BuildPyCompiled(build_py):
    """``build_py`` that also compiles the engine into the built (or, editable, the source) tree."""

    def run(self) -> None:
        """Copy the sources as usual, then compile the engine beside them."""
        super().run()
        if getattr(self, "editable_mode", False):
            compile_engine(Path(__file__).resolve().parent / "src")
        else:
            compile_engine(Path(self.build_lib).resolve())


setup(cmdclass={"build_py": BuildPyCompiled})
