"""``read_games`` on compressed files: xz, gzip and bzip2 told by their bytes, damage named."""

from __future__ import annotations

import bz2
import gzip
import lzma
from collections.abc import Callable
from pathlib import Path

import chess.pgn
import pytest

from plies.analysis import PgnFileError, Problem, read_games
from plies.cli.main import main

DATA = Path(__file__).with_name("data")
REPO_GAMES = Path(__file__).parents[2] / "benchmarks" / "games"


def _several_games(count: int) -> str:
    """``count`` copies of the opera game, each with its own Round header."""
    text = (DATA / "opera.pgn").read_text(encoding="utf-8").strip()
    return "\n\n".join(text.replace("[Event ", f'[Round "{n}"]\n[Event ', 1)
                       for n in range(1, count + 1)) + "\n"


@pytest.mark.parametrize(
    "compress", [lzma.compress, gzip.compress, bz2.compress], ids=["xz", "gzip", "bzip2"]
)
def test_compressed_file_reads_as_the_plain_one(
    compress: Callable[[bytes], bytes], tmp_path: Path
) -> None:
    """The same games come out of the compressed file, whatever its name says."""
    text = _several_games(3)
    plain, packed = tmp_path / "plain.pgn", tmp_path / "games.dat"
    plain.write_text(text, encoding="utf-8")
    packed.write_bytes(compress(text.encode("utf-8")))
    expected = [str(g) for g in read_games(plain)]
    got = [str(g) for g in read_games(packed)]
    assert len(got) == 3 and got == expected


def test_cut_short_xz_keeps_the_whole_games_and_names_the_damage(tmp_path: Path) -> None:
    """A truncated archive: the games before the cut are read, then one Problem says why."""
    data = lzma.compress(_several_games(40).encode("utf-8"), preset=0)
    path = tmp_path / "cut.pgn.xz"
    path.write_bytes(data[: len(data) * 3 // 4])
    items = list(read_games(path))
    games = [i for i in items if isinstance(i, chess.pgn.Game)]
    problems = [i for i in items if isinstance(i, Problem)]
    assert len(problems) == 1 and items[-1] is problems[0]
    assert "xz data is damaged or cut short" in problems[0].reason
    assert 0 < len(games) < 40
    assert [g.headers["Round"] for g in games] == [str(n) for n in range(1, len(games) + 1)]


def test_garbage_after_the_magic_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes that only start like gzip: exit status 2, no traceback."""
    path = tmp_path / "bad.pgn.gz"
    path.write_bytes(b"\x1f\x8b" + b"not really gzip" * 10)
    assert main(["analyse", "--pgn", str(path), "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert "gzip data is damaged" in err and "Traceback" not in err


def test_empty_compressed_file_has_no_games(tmp_path: Path) -> None:
    """An archive of nothing is an empty PGN."""
    path = tmp_path / "empty.pgn.xz"
    path.write_bytes(lzma.compress(b""))
    with pytest.raises(PgnFileError, match="no games"):
        list(read_games(path))


def test_published_match_archive_is_readable() -> None:
    """The match archives the results page points to open as PGN."""
    archive = sorted(REPO_GAMES.glob("*gauntlet-ethereal*.pgn.xz"))[0]
    games = [g for g in read_games(archive) if isinstance(g, chess.pgn.Game)]
    assert len(games) == 200
    assert {g.headers["White"] for g in games} | {g.headers["Black"] for g in games} >= {"plies"}
