"""Session set-up shared by every test directory."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.cli.runs import RunCli

    from plies.engine import Engine

# The Polyglot book fixtures serve the board, uci and agents tests alike.
pytest_plugins = ["tests.book_writer"]


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's own ``tmp_path``, made readable by others: run as root, the sandbox runs a
    mind as a user of its own, who must be able to read the mind's folder."""
    tmp_path.chmod(0o755)
    return tmp_path


def pytest_configure(config: pytest.Config) -> None:
    """Let the Ctrl-C tests press Ctrl-C: a run started in the background inherits SIGINT
    ignored, which the arena rightly keeps ignored (as under nohup); restoring Python's
    handler here also gives every child process SIGINT back (exec resets caught signals)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

SAMPLED_ABOVE = 100
"""``--sample-every`` thins only parametrizations larger than this: the Chess960 suite's 960
positions at depth 6 (about 50 CPU minutes whole), the perft suite at full depth (126) and
every mate in two (212); the other slow tests have a few cases each and run whole."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--sample-every N``: how CI fits the slow tier in its time (docs/getting-started.md)."""
    parser.addoption(
        "--sample-every", type=int, default=1, metavar="N",
        help=f"of each test parametrized over more than {SAMPLED_ABOVE} cases, run only every "
        "Nth case (the 1st, the N+1st... in the order of its parameters): a fixed sample",
    )  # fmt: skip


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Apply ``--sample-every``: deselect all but every Nth case of each large parametrization."""
    every: int = config.getoption("--sample-every")
    if every <= 1:
        return
    cases: dict[str, list[pytest.Item]] = {}
    for item in items:
        if hasattr(item, "callspec"):
            cases.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    dropped = {
        id(item)
        for group in cases.values()
        if len(group) > SAMPLED_ABOVE
        for index, item in enumerate(group)
        if index % every
    }
    if dropped:
        config.hook.pytest_deselected(items=[item for item in items if id(item) in dropped])
        items[:] = [item for item in items if id(item) not in dropped]


# Test directories whose tests run the engine, in process or as `plies uci`.
_ENGINE_DIRS = frozenset(
    {"engine", "uci", "arena", "agents", "play", "analysis", "board", "cli", "datagen", "syzygy"}
)


@pytest.fixture(scope="session", autouse=True)
def compiled_engine(request: pytest.FixtureRequest) -> None:
    """Compile the chess engine once, before any test starts engine subprocesses.

    numba caches compiled code on disk; without this, the first tests that
    launch ``plies uci`` processes in parallel would each compile it anew.
    Sessions that never touch the engine skip it.
    """
    items = request.session.items
    if not any(Path(str(item.path)).parent.name in _ENGINE_DIRS for item in items):
        return
    from plies.engine import Engine

    Engine(hash_mb=1).warm_up()


@pytest.fixture(scope="module")
def engine() -> Engine:
    """One warmed engine with a 16 MB table for a test module (its tests share its state)."""
    from plies.engine import Engine

    e = Engine(hash_mb=16)
    e.warm_up()
    return e


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the figures that guarded tests measured (CI keeps them in its log)."""
    module = sys.modules.get("test_compile_budget") or next(
        (m for name, m in sys.modules.items() if name.endswith("test_compile_budget")), None
    )
    figures = getattr(module, "measured", {}) if module is not None else {}
    for name, value in figures.items():
        terminalreporter.write_line(f"{name}: {value:.1f}")


@pytest.fixture
def cli() -> RunCli:
    """Run ``plies ARGV`` in this process, typed input from a string: (status, out, err)."""
    from tests.cli.runs import in_process

    def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
        """Run ``plies ARGV``; return its exit status, stdout and stderr."""
        done = in_process(*argv, stdin=stdin)
        return done.returncode, done.stdout, done.stderr

    return run
