"""UCI option declarations and value checks; the line reader and the locked writer."""

from __future__ import annotations

import io
import threading

import pytest

from plies.options import Option, OptionError, find_option
from plies.uci.channel import Output, OverlongLine, read_lines

HASH = Option("Hash", "spin", 64, 1, 4096)
PONDER = Option("Ponder", "check", False)
CLEAR = Option("Clear Hash", "button")
STYLE = Option("Style", "combo", "Normal", choices=("Solid", "Normal", "Risky"))
NAME = Option("Book", "string", "")


def test_declarations() -> None:
    """Each type's ``option`` line follows the UCI grammar."""
    assert HASH.declaration() == "option name Hash type spin default 64 min 1 max 4096"
    assert PONDER.declaration() == "option name Ponder type check default false"
    assert CLEAR.declaration() == "option name Clear Hash type button"
    assert STYLE.declaration() == (
        "option name Style type combo default Normal var Solid var Normal var Risky"
    )
    assert NAME.declaration() == "option name Book type string default <empty>"


def test_values_are_checked() -> None:
    """Good values convert; bad ones raise a one-line error."""
    assert HASH.parse("128") == 128
    assert PONDER.parse("TRUE") is True
    assert PONDER.parse("false") is False
    assert CLEAR.parse(None) is None
    assert STYLE.parse("risky") == "Risky"
    assert NAME.parse("<empty>") == ""
    for option, text in ((HASH, "-5"), (HASH, "0"), (HASH, "99999"), (HASH, "lots"), (HASH, None),
                         (PONDER, "yes"), (STYLE, "wild")):  # fmt: skip
        with pytest.raises(OptionError):
            option.parse(text)


def test_find_option_ignores_case() -> None:
    """UCI option names match case-insensitively."""
    assert find_option([HASH, CLEAR], "clear hash") is CLEAR
    assert find_option([HASH, CLEAR], "Threads") is None


def test_read_lines_decodes_and_caps() -> None:
    """Bad UTF-8 is replaced, CRLF is stripped, and an overlong line is reported by length."""
    data = b"uci\r\n\xff\xfebad\nisready\n" + b"x" * 100 + b"\nquit"
    lines = list(read_lines(io.BytesIO(data), max_bytes=50))
    assert lines[0] == "uci"
    assert lines[1] == "\ufffd\ufffdbad"
    assert lines[2] == "isready"
    assert lines[3] == OverlongLine(101)
    assert lines[4] == "quit"


def test_output_keeps_lines_whole_across_threads() -> None:
    """Lines and blocks written from several threads never interleave."""
    stream = io.StringIO()
    out = Output(stream)

    def writer(tag: str) -> None:
        """Write blocks of ten tagged lines."""
        for _ in range(50):
            out.send_block([f"{tag} {i}" for i in range(10)])

    threads = [threading.Thread(target=writer, args=(t,)) for t in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 * 50 * 10
    for start in range(0, len(lines), 10):
        block = lines[start : start + 10]
        tag = block[0].split()[0]
        assert block == [f"{tag} {i}" for i in range(10)]


def test_info_string_is_one_line() -> None:
    """Newlines inside an info string are flattened."""
    stream = io.StringIO()
    Output(stream).info_string("two\nlines")
    assert stream.getvalue() == "info string two lines\n"


def test_output_survives_a_closed_stream() -> None:
    """Writing after the reader went away is dropped, not raised."""
    stream = io.StringIO()
    out = Output(stream)
    stream.close()
    out.send("bestmove e2e4")
    assert out.closed
