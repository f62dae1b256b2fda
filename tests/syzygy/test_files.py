"""Finding and checking table files: bad directories and files are skipped with a reason."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from tests.syzygy.data import DATA, copy_tables
from tests.syzygy.positions import random_position

from plies.syzygy.format import P_DATA, P_INDEXTABLE
from plies.syzygy.tablebase import Tablebase, TableError, read_table, split_path


def _probe_many(tb: Tablebase, name: str, count: int) -> list[int | None]:
    """Probe ``count`` random positions of ``name``; any answer is fine, a crash is not."""
    rng = random.Random(1)
    return [tb.probe_wdl(random_position(name, rng, swap=i % 2 == 1)) for i in range(count)]


def test_split_path_uses_the_platform_separator() -> None:
    """Directories are separated by ':' on Unix and ';' on Windows, as Stockfish reads them."""
    assert split_path(os.pathsep.join(["/a", "", "/b c"])) == ["/a", "/b c"]
    assert split_path("") == []
    assert split_path("<empty>") == []


def test_several_directories(tmp_path: Path) -> None:
    """Tables from every directory of the path are used together."""
    one = copy_tables(["KQvK.rtbw"], tmp_path / "one")
    two = copy_tables(["KRvK.rtbw"], tmp_path / "two")
    tb = Tablebase(os.pathsep.join([str(one), str(two)]))
    assert tb.problems == []
    assert tb.names() == ["KQvK", "KRvK"]
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")) == 2
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")) == -2


def test_missing_directory_is_reported(tmp_path: Path) -> None:
    """A directory that does not exist is a problem line; the others still load."""
    good = copy_tables(["KQvK.rtbw"], tmp_path / "good")
    tb = Tablebase(os.pathsep.join([str(tmp_path / "nowhere"), str(good)]))
    assert len(tb.problems) == 1 and "nowhere" in tb.problems[0]
    assert tb.names() == ["KQvK"]


def test_no_tables_probes_nothing(tmp_path: Path) -> None:
    """With no tables every probe is None, even bare kings' neighbours."""
    tb = Tablebase(str(tmp_path))
    assert tb.problems == [] and tb.max_men == 0
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) is None
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/K7 w - - 0 1")) == 0


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("KQvK.rtbw", b"", "invalid size"),
        ("KQvK.rtbw", bytes(100), "invalid size"),
        ("KQvK.rtbw", bytes(80), "bad magic"),
        ("KQvK.rtbz", (DATA / "KQvK.rtbw").read_bytes(), "bad magic"),
        ("KvKQ.rtbw", (DATA / "KQvK.rtbw").read_bytes(), "not a Syzygy table name"),
        ("README.rtbw", bytes(80), "not a Syzygy table name"),
    ],
)
def test_bad_file_is_reported_and_skipped(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    """Wrong size, magic bytes or name: one clear problem line, the table is not used."""
    copy_tables(["KRvK.rtbw"], tmp_path)
    (tmp_path / name).write_bytes(content)
    tb = Tablebase(str(tmp_path))
    assert tb.names() == ["KRvK"]
    assert len(tb.problems) == 1
    assert name in tb.problems[0] and message in tb.problems[0]
    with pytest.raises(TableError, match=message):
        read_table(str(tmp_path / name))


@pytest.mark.parametrize("keep", [1040, 4112, 8208])
def test_truncated_file_is_reported(tmp_path: Path, keep: int) -> None:
    """A file cut short (still 16 bytes past a multiple of 64) fails the layout check."""
    data = (DATA / "KQvKR.rtbw").read_bytes()
    assert keep % 64 == 16 and keep < len(data)
    (tmp_path / "KQvKR.rtbw").write_bytes(data[:keep])
    tb = Tablebase(str(tmp_path))
    assert tb.names() == []
    assert "truncated" in tb.problems[0]


@pytest.mark.parametrize("seed", range(6))
def test_garbage_after_the_magic_never_crashes(tmp_path: Path, seed: int) -> None:
    """Random bytes behind valid magic bytes: skipped with a reason, or probed without a crash."""
    rng = random.Random(seed)
    size = (DATA / "KQvKR.rtbw").stat().st_size
    body = bytes(rng.randrange(256) for _ in range(size - 4))
    (tmp_path / "KQvKR.rtbw").write_bytes(bytes((0x71, 0xE8, 0x23, 0x5D)) + body)
    copy_tables(["KQvK.rtbw", "KRvK.rtbw"], tmp_path)
    tb = Tablebase(str(tmp_path))
    if "KQvKR" in tb.names():
        answers = _probe_many(tb, "KQvKR", 300)
        assert all(a is None or -2 <= a <= 2 for a in answers)
    else:
        assert any("KQvKR" in p for p in tb.problems)


@pytest.mark.parametrize("seed", range(4))
def test_corrupt_blocks_never_crash(tmp_path: Path, seed: int) -> None:
    """A sound header over scrambled index and data blocks gives answers or None, never a crash."""
    source = DATA / "KQvKR.rtbw"
    info = read_table(str(source))
    start = int(min(p[P_INDEXTABLE] for p in info.pairs))
    first_data = int(min(p[P_DATA] for p in info.pairs))
    rng = random.Random(seed)
    data = bytearray(source.read_bytes())
    lo = start if seed % 2 == 0 else first_data
    for i in range(lo, len(data)):
        data[i] = rng.randrange(256)
    (tmp_path / "KQvKR.rtbw").write_bytes(bytes(data))
    copy_tables(["KQvK.rtbw", "KRvK.rtbw"], tmp_path)
    tb = Tablebase(str(tmp_path))
    assert tb.names() == ["KQvK", "KQvKR", "KRvK"]
    answers = _probe_many(tb, "KQvKR", 300)
    assert all(a is None or -2 <= a <= 2 for a in answers)


def _load_under_limit(soft_room: int, hard_room: int) -> str:
    """Open the bundled tables in a child process that may open only so many more files.

    The limits are set after the imports, as the number of descriptors already
    open plus ``soft_room`` / ``hard_room``.
    """
    code = (
        "import os, resource\n"
        "from plies.syzygy.tablebase import Tablebase\n"
        "used = len(os.listdir('/proc/self/fd')) if os.path.isdir('/proc/self/fd') else 16\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, (used + {soft_room}, used + {hard_room}))\n"
        f"tb = Tablebase({str(DATA)!r})\n"
        "print(len(tb.tables), len(tb.problems), tb.problems[:1])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(os.name == "nt", reason="no open-file limit on Windows")
def test_open_file_limit_is_raised_or_reported() -> None:
    """A soft limit below the table count is raised; a hard one leaves clear problems, no crash."""
    count = len(list(DATA.glob("*.rtb?")))
    assert _load_under_limit(4, 4096).startswith(f"{count} 0 ")
    out = _load_under_limit(4, 6)
    tables, problems, _ = out.split(" ", 2)
    assert 0 < int(tables) < count and int(tables) + int(problems) == count
    assert "open files" in out
