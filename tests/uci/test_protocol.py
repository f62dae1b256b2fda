"""The UCI parser: every command, every go parameter, and malformed lines rejected in one line."""

from __future__ import annotations

import pytest

from plies.engine import Limit
from plies.uci.protocol import (
    MAX_NUMBER,
    Bench,
    Debug,
    Go,
    Position,
    SetOption,
    UciParseError,
    Word,
    parse_command,
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        *((word.value, word) for word in Word),
        ("register later", Word.REGISTER),
        ("debug on", Debug(True)),
        ("debug off", Debug(False)),
        ("bench", Bench(None)),
        ("bench 7", Bench(7)),
        ("  isready  \t", Word.ISREADY),
        ("uci extra tokens", Word.UCI),
    ],
)
def test_simple_commands(line: str, expected: object) -> None:
    """Commands without arguments parse to their word (trailing tokens and surrounding blanks
    ignored), the others to their dataclass."""
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["", "   ", "\t", "\r"])
def test_blank_lines_are_nothing(line: str) -> None:
    """A blank line is not a command and not an error."""
    assert parse_command(line) is None


def test_position_startpos_and_moves() -> None:
    """``position startpos`` with and without a move list."""
    assert parse_command("position startpos") == Position(None, ())
    assert parse_command("position startpos moves e2e4 e7e5") == Position(None, ("e2e4", "e7e5"))
    assert parse_command("position startpos moves") == Position(None, ())


def test_position_fen_keeps_all_fields() -> None:
    """The FEN is every token between ``fen`` and ``moves``, joined by single spaces."""
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert parse_command(f"position fen {fen}") == Position(fen, ())
    assert parse_command(f"position  fen  {fen}  moves e1g1") == Position(fen, ("e1g1",))
    # A short FEN is passed through; the board decides whether it is acceptable.
    assert parse_command("position fen 8/8/8/8/8/8/8/K6k w") == Position("8/8/8/8/8/8/8/K6k w", ())


@pytest.mark.parametrize(
    "line",
    [
        "position",
        "position fen",
        "position fen moves e2e4",
        "position moves e2e4",
        "position startpos e2e4",
        "position garbage",
    ],
)
def test_malformed_positions(line: str) -> None:
    """A position without a usable start raises one clear error."""
    with pytest.raises(UciParseError):
        parse_command(line)


def test_go_with_every_parameter() -> None:
    """All integer parameters, both flags and searchmoves in the middle of the line."""
    cmd = parse_command(
        "go wtime 300000 btime 290000 winc 2000 binc 1000 movestogo 20 depth 12 nodes 5000 "
        "movetime 1500 mate 3 searchmoves e2e4 d2d4 infinite ponder"
    )
    limit = Limit(depth=12, nodes=5000, movetime=1500, wtime=300000, btime=290000, winc=2000,
                  binc=1000, movestogo=20, mate=3, infinite=True)  # fmt: skip
    assert cmd == Go(limit, ponder=True, searchmoves=("e2e4", "d2d4"))


def test_go_defaults_and_limits() -> None:
    """A bare ``go`` has no limit; a clock or a depth is a limit."""
    bare = parse_command("go")
    assert bare == Go()
    assert isinstance(bare, Go) and bare.limit.is_unbounded()
    depth = parse_command("go depth 3")
    assert isinstance(depth, Go) and not depth.limit.is_unbounded() and depth.limit.depth == 3


def test_go_accepts_negative_clocks_and_zero_movestogo() -> None:
    """Some GUIs send a negative clock or ``movestogo 0``; neither is an error."""
    cmd = parse_command("go wtime -50 btime 1000 movestogo 0")
    assert cmd == Go(Limit(wtime=-50, btime=1000, movestogo=None))


def test_go_ignores_unknown_tokens_but_reports_them() -> None:
    """Unknown words are skipped (and listed) so the rest of the command still counts."""
    cmd = parse_command("go foo depth 4 bar")
    assert cmd == Go(Limit(depth=4), ignored=("foo", "bar"))


def test_go_perft_and_perft_alias() -> None:
    """``go perft N`` and the shorthand ``perft N``."""
    assert parse_command("go perft 3") == Go(perft=3)
    assert parse_command("perft 2") == Go(perft=2)


@pytest.mark.parametrize(
    "line",
    [
        "go depth abc",
        "go depth",
        "go depth 0",
        "go depth -3",
        "go nodes 1.5",
        "go movetime 1e3",
        "go wtime ",
        "go mate 0",
        f"go nodes {MAX_NUMBER + 1}",
        "go depth ٣",  # a non-ASCII digit
        "go depth 1_000",
        "go perft 0",
        "perft",
        "perft x",
        "bench zero",
        "bench 0",
        "go depth 128",
        "go mate 64",
        "go movestogo -1",
        "go wtime 2147483648",
        "go binc -2147483648",
        "go depth " + "9" * 5_000,  # past Python's int() digit limit: still one clean error
        "perft 13",
        "bench 65",
    ],
)
def test_go_bad_values_reject_the_command(line: str) -> None:
    """A bad number rejects the whole command (no half-understood search)."""
    with pytest.raises(UciParseError) as info:
        parse_command(line)
    assert "\n" not in str(info.value)


def test_setoption_names_and_values_with_spaces() -> None:
    """Names and values may contain spaces; a button has no value."""
    assert parse_command("setoption name Hash value 128") == SetOption("Hash", "128")
    assert parse_command("setoption name Move Overhead value 50") == SetOption(
        "Move Overhead", "50"
    )
    assert parse_command("setoption name Clear Hash") == SetOption("Clear Hash", None)
    assert parse_command("setoption name Book File value /tmp/my book.bin") == SetOption(
        "Book File", "/tmp/my book.bin"
    )
    assert parse_command("setoption name Hash value") == SetOption("Hash", "")


@pytest.mark.parametrize(
    "line", ["setoption", "setoption Hash 5", "setoption name", "setoption name value 3"]
)
def test_malformed_setoption(line: str) -> None:
    """``setoption`` without a name is rejected."""
    with pytest.raises(UciParseError):
        parse_command(line)


@pytest.mark.parametrize(
    "line",
    ["garbage", "xyzzy go depth 1", "GO depth 1", "♔♕♖", "\x00\x01", "x" * 10_000, "isready?"],
)
def test_unknown_commands(line: str) -> None:
    """Anything that does not start with a command word is unknown; the message stays short."""
    with pytest.raises(UciParseError) as info:
        parse_command(line)
    message = str(info.value)
    assert "unknown command" in message
    assert len(message) < 200
