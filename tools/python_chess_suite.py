"""Run python-chess's own tests of its ``Board`` on ``plies.Board``: how far the drop-in holds.

Fetches python-chess 1.11.2's source distribution from the package index with
``pip download`` (kept in ``--cache``, by default a directory under the system's
temporary directory, and checked against its SHA-256), takes its ``test.py`` as
it is, and runs six of its test cases in this process with unittest's loader:

- ``BoardTestCase`` and ``LegalMoveGeneratorTestCase`` with ``chess.Board`` set
  to ``plies.Board`` before ``test.py`` is imported;
- ``MoveTestCase``, ``PieceTestCase``, ``SquareTestCase`` and
  ``SquareSetTestCase`` with, in addition, every python-chess name that
  ``plies.board`` exports too replaced by ``plies.board``'s.

The replacement is made in a copy of the ``chess`` module that only ``test.py``
sees: ``plies.Board`` builds python-chess boards itself for positions its core
does not play, and ``chess.variant``, ``chess.pgn`` and the rest (which
``test.py`` imports) must keep subclassing and building python-chess's own.

Prints each case's counts, every failing test with the first line of its error
and the line of ``test.py`` it stopped at, and exits 1 when the share of
``BoardTestCase`` and ``LegalMoveGeneratorTestCase`` tests passing (skips left
out) is below ``--min-board``; 2 when the tests cannot be fetched.

Usage: python tools/python_chess_suite.py [--cache DIR] [--min-board SHARE]
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import tempfile
import traceback
import types
import unittest
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TypeAlias

import chess

VERSION = "1.11.2"
SDIST = f"chess-{VERSION}.tar.gz"
SDIST_SHA256 = "a8b43e5678fdb3000695bdaa573117ad683761e5ca38e591c4826eba6d25bb39"
TEST_MEMBER = f"chess-{VERSION}/test.py"
# The python-chess modules test.py imports: loaded first, from the installed python-chess,
# so that they bind python-chess's own Board.
SUBMODULES = ("engine", "gaviota", "pgn", "polyglot", "svg", "syzygy", "variant")
BOARD_CASES = ("BoardTestCase", "LegalMoveGeneratorTestCase")
TYPE_CASES = ("MoveTestCase", "PieceTestCase", "SquareTestCase", "SquareSetTestCase")
DEFAULT_CACHE = Path(tempfile.gettempdir()) / f"plies-python-chess-{VERSION}"

# What unittest passes a result for a failure (typeshed's ``OptExcInfo``).
ErrInfo: TypeAlias = (tuple[type[BaseException], BaseException, TracebackType]
                      | tuple[None, None, None])


class FetchError(Exception):
    """The source distribution could not be fetched or is not the one expected."""


def sha256(path: Path) -> str:
    """The hex SHA-256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_sdist(cache: Path) -> Path:
    """The sdist in ``cache``, downloaded with pip when it is not there yet."""
    path = cache / SDIST
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", f"chess=={VERSION}", "--no-deps",
                   "--no-binary", ":all:", "--quiet", "-d", str(cache)]  # fmt: skip
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        if proc.returncode != 0 or not path.exists():
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise FetchError(f"pip download chess=={VERSION} failed: {last}")
    if sha256(path) != SDIST_SHA256:
        raise FetchError(f"{path} is not python-chess {VERSION}'s sdist (SHA-256 differs); "
                         "delete it to fetch it again")  # fmt: skip
    return path


def test_source(sdist: Path) -> str:
    """The text of ``test.py`` in the sdist."""
    with tarfile.open(sdist, "r:gz") as archive:
        member = archive.extractfile(TEST_MEMBER)
        if member is None:
            raise FetchError(f"{TEST_MEMBER} is missing from {sdist}")
        return member.read().decode("utf-8")


def chess_namespace(replace: Iterable[str]) -> types.ModuleType:
    """A copy of the ``chess`` module with the names in ``replace`` taken from plies.board."""
    import plies.board

    shim = types.ModuleType("chess", chess.__doc__)
    shim.__dict__.update({k: v for k, v in vars(chess).items() if not k.startswith("__")})
    for name in replace:
        setattr(shim, name, getattr(plies.board, name))
    return shim


def load_tests(source: str, shim: types.ModuleType, name: str) -> types.ModuleType:
    """``test.py`` imported as module ``name`` with ``shim`` as the ``chess`` it imports."""
    for sub in SUBMODULES:
        setattr(shim, sub, __import__(f"chess.{sub}", fromlist=["_"]))
    module = types.ModuleType(name)
    module.__file__ = TEST_MEMBER
    code = compile(source, TEST_MEMBER, "exec")
    real = sys.modules["chess"]
    sys.modules["chess"] = shim  # what `import chess` and `import chess.pgn` bind in test.py
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    finally:
        sys.modules["chess"] = real
    return module


def first_line(err: ErrInfo) -> str:
    """``ValueError: message`` (its first line) ``[test.py:123]``: where and why a test failed."""
    kind, value, tb = err
    if kind is None:
        return "unknown error"
    lines = str(value).strip().splitlines()
    text = f"{kind.__name__}: {lines[0]}" if lines else kind.__name__
    where = [f for f in traceback.extract_tb(tb) if f.filename == TEST_MEMBER]
    return f"{text} [test.py:{where[-1].lineno}]" if where else text


@dataclass
class CaseTally:
    """One test case's outcomes: passed, skipped, and the failing tests with their errors."""

    passed: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def run(self) -> int:
        """Tests that ran to a verdict (skips left out)."""
        return self.passed + len(self.failed)


class TallyResult(unittest.TestResult):
    """A unittest result that keeps a :class:`CaseTally` per test case class."""

    def __init__(self) -> None:
        """No test seen yet."""
        super().__init__()
        self.cases: dict[str, CaseTally] = {}

    def tally(self, test: unittest.TestCase) -> CaseTally:
        """The tally of ``test``'s class."""
        return self.cases.setdefault(type(test).__name__, CaseTally())

    def fail(self, test: unittest.TestCase, err: ErrInfo) -> None:
        """Note a failing test with the first line of its error."""
        self.tally(test).failed.append((test._testMethodName, first_line(err)))

    def addSuccess(self, test: unittest.TestCase) -> None:
        """Count a pass."""
        super().addSuccess(test)
        self.tally(test).passed += 1

    def addFailure(self, test: unittest.TestCase, err: ErrInfo) -> None:
        """Count a failed assertion."""
        super().addFailure(test, err)
        self.fail(test, err)

    def addError(self, test: unittest.TestCase, err: ErrInfo) -> None:
        """Count an exception."""
        super().addError(test, err)
        self.fail(test, err)

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        """Count a skip."""
        super().addSkip(test, reason)
        self.tally(test).skipped += 1

    def addExpectedFailure(self, test: unittest.TestCase, err: ErrInfo) -> None:
        """An expected failure passes, as unittest counts it."""
        super().addExpectedFailure(test, err)
        self.tally(test).passed += 1

    def addUnexpectedSuccess(self, test: unittest.TestCase) -> None:
        """An unexpected success fails, as unittest counts it."""
        super().addUnexpectedSuccess(test)
        self.tally(test).failed.append((test._testMethodName, "unexpected success"))


def run_cases(module: types.ModuleType, names: Iterable[str], result: TallyResult) -> None:
    """Run the test case classes ``names`` of ``module`` into ``result``."""
    loader = unittest.TestLoader()
    for name in names:
        loader.loadTestsFromTestCase(getattr(module, name)).run(result)


def report(result: TallyResult) -> None:
    """Print each case's counts and its failing tests."""
    for name in (*BOARD_CASES, *TYPE_CASES):
        t = result.cases.get(name, CaseTally())
        print(f"{name}: {t.passed}/{t.run} passed, {len(t.failed)} failed, {t.skipped} skipped")
        for test, error in t.failed:
            print(f"  {test}: {error}")


def main() -> int:
    """Fetch python-chess's tests, run them on plies.Board, report, judge the Board share."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                   help=f"where the sdist is kept (default {DEFAULT_CACHE})")
    p.add_argument("--min-board", type=float, default=0.95,
                   help="least share of the Board and legal-move tests that must pass")
    args = p.parse_args()
    if not 0.0 <= args.min_board <= 1.0:
        p.error("--min-board is a share between 0 and 1")
    try:
        source = test_source(fetch_sdist(args.cache))
    except (FetchError, OSError, tarfile.TarError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import plies.board

    if chess.__version__ != VERSION:
        print(f"note: the installed python-chess is {chess.__version__}, the tests {VERSION}'s")
    board_tests = load_tests(source, chess_namespace(["Board"]), "python_chess_board_tests")
    shared = [n for n in plies.board.__all__ if hasattr(chess, n)]
    type_tests = load_tests(source, chess_namespace(shared), "python_chess_type_tests")
    result = TallyResult()
    run_cases(board_tests, BOARD_CASES, result)
    run_cases(type_tests, TYPE_CASES, result)
    report(result)
    tallies = [result.cases.get(name, CaseTally()) for name in BOARD_CASES]
    passed, ran = sum(t.passed for t in tallies), sum(t.run for t in tallies)
    share = passed / ran if ran else 0.0
    verdict = "at or above" if share >= args.min_board else "below"
    print(f"Board and legal-move tests: {passed}/{ran} passed ({share:.1%}), "
          f"{verdict} the threshold {args.min_board:.0%}")
    return 0 if share >= args.min_board else 1


if __name__ == "__main__":
    sys.exit(main())
