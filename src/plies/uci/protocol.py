"""UCI text to typed commands: one frozen dataclass per command, and the line parser.

Parsing is pure and never touches the engine or the board: a ``position``
command carries its FEN and moves as text, and the loop decides whether they
are legal.  Anything malformed raises :class:`UciParseError` with a one-line
message the loop sends back as ``info string``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from plies.engine.limits import Limit
from plies.options import MAX_NUMBER, OptionError, read_int, shorten
from plies.uci.bench import MAX_BENCH_DEPTH

MAX_TIME_MS = 2**31 - 1
"""The longest clock, increment or move time accepted (24.8 days): beyond any game,
and within what a timer can wait for."""

MAX_GO_DEPTH = 127
"""The deepest ``go depth``: the search's ``MAX_PLY - 1``."""

MAX_MATE_MOVES = 63
"""The longest ``go mate`` (a mate in 63 is 125 plies: within the search's horizon)."""

MAX_MOVES_TO_GO = 10_000
"""The largest ``movestogo`` (the time manager plans for at most 50 anyway)."""

MAX_PERFT_DEPTH = 12
"""The deepest ``perft`` (depth 12 from the start is 6e16 leaves: stop ends it)."""


class UciParseError(ValueError):
    """A line that is not a well-formed UCI command; the message is one line."""


class Word(Enum):
    """A command without arguments (trailing tokens are ignored, as UCI asks)."""

    UCI = "uci"  # identify the engine and list its options
    ISREADY = "isready"  # answer readyok once the engine is compiled and idle enough
    REGISTER = "register"  # plies needs no registration: accepted and ignored
    UCINEWGAME = "ucinewgame"  # the next search belongs to a new game
    STOP = "stop"  # end the current search and print its bestmove
    PONDERHIT = "ponderhit"  # the expected move was played: the ponder search goes on for real
    QUIT = "quit"  # stop any search and leave
    DISPLAY = "d"  # print the board, its FEN and key (an extra)
    EVAL = "eval"  # print the static evaluation of the current position (an extra)
    HELP = "help"  # list the commands understood (an extra)


@dataclass(frozen=True)
class Debug:
    """``debug [on|off]``: accepted and ignored (plies has no debug output)."""

    on: bool = True


@dataclass(frozen=True)
class Position:
    """``position startpos|fen FEN [moves M1 M2 ...]``; ``fen`` is None for startpos."""

    fen: str | None = None
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class Go:
    """``go ...``: the search's limits as sent (times in milliseconds), or ``perft``."""

    limit: Limit = field(default_factory=Limit)
    """Every limit the line gave (clocks as sent: the loop clamps them)."""
    ponder: bool = False
    searchmoves: tuple[str, ...] = ()
    perft: int | None = None
    ignored: tuple[str, ...] = ()
    """Tokens the parser did not understand (reported, then skipped)."""


@dataclass(frozen=True)
class SetOption:
    """``setoption name NAME [value VALUE]``; ``value`` is None for buttons."""

    name: str
    value: str | None = None


@dataclass(frozen=True)
class Bench:
    """``bench [depth]``: search the bench positions and print nodes and speed (an extra)."""

    depth: int | None = None


Command = Word | Debug | Position | Go | SetOption | Bench

# The integer parameters of ``go`` and the range each accepts; a value outside
# rejects the command with an ``info string`` naming the range.  Clocks and
# increments may be negative (some GUIs send the overdraft); the loop clamps them.
_GO_INTEGERS: dict[str, tuple[int, int]] = {
    "wtime": (-MAX_TIME_MS, MAX_TIME_MS),
    "btime": (-MAX_TIME_MS, MAX_TIME_MS),
    "winc": (-MAX_TIME_MS, MAX_TIME_MS),
    "binc": (-MAX_TIME_MS, MAX_TIME_MS),
    "movestogo": (0, MAX_MOVES_TO_GO),
    "depth": (1, MAX_GO_DEPTH),
    "nodes": (1, MAX_NUMBER),
    "movetime": (0, MAX_TIME_MS),
    "mate": (1, MAX_MATE_MOVES),
    "perft": (1, MAX_PERFT_DEPTH),
}
_GO_FLAGS = frozenset({"infinite", "ponder"})
_GO_KEYWORDS = frozenset(_GO_INTEGERS) | _GO_FLAGS | {"searchmoves"}

COMMAND_NAMES: tuple[str, ...] = (
    "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position",
    "go", "stop", "ponderhit", "quit", "d", "eval", "bench", "perft", "help",
)  # fmt: skip
"""Every command word the parser knows, in the order ``help`` lists them."""

_WORDS = frozenset(w.value for w in Word)


def parse_int(text: str, what: str, minimum: int = -MAX_NUMBER) -> int:
    """Parse a plain decimal integer for ``what``, at least ``minimum``, or raise."""
    try:
        value = read_int(text, what)
    except OptionError as exc:
        raise UciParseError(str(exc)) from None
    if value < minimum:
        raise UciParseError(f"{what} must be at least {minimum}, got {value}")
    return value


def parse_bounded(text: str, what: str, minimum: int, maximum: int) -> int:
    """Parse an integer for ``what`` within ``minimum..maximum``, or raise naming the range."""
    value = parse_int(text, what)
    if not minimum <= value <= maximum:
        raise UciParseError(f"{what} must be {minimum}..{maximum}, got {shorten(text, 24)}")
    return value


def parse_command(line: str) -> Command | None:
    """Parse one line of UCI input; None for a blank line; UciParseError if malformed."""
    tokens = line.split()
    if not tokens:
        return None
    word, args = tokens[0], tokens[1:]
    if word in _WORDS:
        return Word(word)
    if word == "position":
        return _parse_position(args)
    if word == "go":
        return _parse_go(args)
    if word == "setoption":
        return _parse_setoption(args)
    if word == "debug":
        return Debug(not args or args[0] != "off")
    if word == "bench":
        return Bench(parse_bounded(args[0], "bench depth", 1, MAX_BENCH_DEPTH) if args else None)
    if word == "perft":
        if not args:
            raise UciParseError("perft needs a depth, e.g. 'perft 4'")
        return Go(perft=parse_bounded(args[0], "perft depth", 1, MAX_PERFT_DEPTH))
    raise UciParseError(f"unknown command {shorten(word)!r} (try 'help')")


def _parse_position(args: list[str]) -> Position:
    """``startpos|fen F1 .. F6 [moves ...]``."""
    if not args:
        raise UciParseError("position needs 'startpos' or 'fen <FEN>'")
    try:
        cut = args.index("moves")
    except ValueError:
        cut = len(args)
    head, moves = args[:cut], tuple(args[cut + 1 :])
    if head[:1] == ["startpos"]:
        if len(head) > 1:
            raise UciParseError(f"unexpected {shorten(head[1])!r} after 'position startpos'")
        return Position(None, moves)
    if head[:1] == ["fen"]:
        if len(head) == 1:
            raise UciParseError("position fen needs a FEN")
        return Position(" ".join(head[1:]), moves)
    first = head[0] if head else "moves"
    raise UciParseError(f"position needs 'startpos' or 'fen <FEN>', got {shorten(first)!r}")


def _parse_go(args: list[str]) -> Go:
    """All ``go`` parameters; a bad number rejects the whole command."""
    values: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[str] = []
    ignored: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token in _GO_INTEGERS:
            if i + 1 >= len(args):
                raise UciParseError(f"go {token} needs a value")
            lo, hi = _GO_INTEGERS[token]
            values[token] = parse_bounded(args[i + 1], f"go {token}", lo, hi)
            i += 2
        elif token in _GO_FLAGS:
            flags.add(token)
            i += 1
        elif token == "searchmoves":
            i += 1
            while i < len(args) and args[i] not in _GO_KEYWORDS:
                searchmoves.append(args[i])
                i += 1
        else:
            ignored.append(token)
            i += 1
    # movestogo 0 is sent by some GUIs for "no moves-to-go": treat as absent.
    if not values.get("movestogo"):
        values.pop("movestogo", None)
    perft = values.pop("perft", None)
    limit = Limit(infinite="infinite" in flags, **values)
    return Go(limit, "ponder" in flags, tuple(searchmoves), perft, tuple(ignored))


def _parse_setoption(args: list[str]) -> SetOption:
    """``name NAME... [value VALUE...]`` (names and values may contain spaces)."""
    if not args or args[0] != "name":
        raise UciParseError("setoption needs 'name <NAME> [value <VALUE>]'")
    try:
        cut = args.index("value")
    except ValueError:
        cut = len(args)
    name = " ".join(args[1:cut])
    if not name:
        raise UciParseError("setoption needs an option name")
    value = " ".join(args[cut + 1 :]) if cut < len(args) else None
    return SetOption(name, value)
