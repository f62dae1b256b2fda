"""The engine's options, declared once: name, UCI type, default, range and help.

The UCI loop prints this table in reply to ``uci`` and checks ``setoption``
values against it; :meth:`plies.engine.Engine.set_option` dispatches through
it; the CLI takes its ranges from it. It imports nothing from plies but the table of
search parameters (``plies.params``, itself free of imports), so the loop answers ``uci``
before numba loads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from plies.params import PARAMS, Param

OptionValue = int | bool | str | None
"""A checked option value: an int (spin), a bool (check), a str (string, combo), None (button)."""

MAX_NUMBER = 2**53
"""The largest number accepted anywhere: far beyond any real count, and exact in int64 and
float64 alike."""

_INTEGER = re.compile(r"[+-]?[0-9]+")
# More digits than this cannot be in range; checked before int() so a
# 100,000-digit number costs nothing (and never hits Python's digit limit).
_MAX_DIGITS = 19


class OptionError(ValueError):
    """A value an option does not accept (or an integer that is not one); one line."""


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut) for messages."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_int(text: str, what: str) -> int:
    """A plain decimal integer within +-``MAX_NUMBER`` for ``what``, or OptionError."""
    if not text.isascii() or not _INTEGER.fullmatch(text):
        raise OptionError(f"{what} needs an integer, got {shorten(text)!r}")
    if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
        raise OptionError(f"{what} {shorten(text, 24)} is out of range")
    value = int(text)
    if value > MAX_NUMBER or value < -MAX_NUMBER:
        raise OptionError(f"{what} {shorten(text, 24)} is out of range")
    return value


@dataclass(frozen=True)
class Option:
    """One option as UCI declares it: ``spin``, ``check``, ``button``, ``string`` or ``combo``."""

    name: str
    """The UCI name (matched case-insensitively)."""
    type: str
    """The UCI type: ``spin``, ``check``, ``button``, ``string`` or ``combo``."""
    default: OptionValue = None
    """The value before a GUI sets it."""
    minimum: int | None = None
    """A spin's smallest value."""
    maximum: int | None = None
    """A spin's largest value."""
    choices: tuple[str, ...] = ()
    """A combo's values."""
    help: str = ""
    """One line for users (the docs' option table)."""

    def spin_range(self) -> tuple[int, int]:
        """A spin's (minimum, maximum)."""
        if self.minimum is None or self.maximum is None:
            raise TypeError(f"option {self.name} is not a spin")
        return self.minimum, self.maximum

    def spin_default(self) -> int:
        """A spin's default."""
        if not isinstance(self.default, int) or isinstance(self.default, bool):
            raise TypeError(f"option {self.name} is not a spin")
        return self.default

    def spin_value(self, value: OptionValue) -> int:
        """A spin's checked value of ``value`` (a ``setoption`` text or an int)."""
        number = self.parse(value)
        if not isinstance(number, int) or isinstance(number, bool):
            raise OptionError(f"option {self.name} is not a spin")
        return number

    def declaration(self) -> str:
        """The ``option name ... type ...`` line sent in reply to ``uci``."""
        parts = [f"option name {self.name} type {self.type}"]
        if self.type == "check":
            parts.append(f"default {'true' if self.default else 'false'}")
        elif self.type == "string":
            parts.append(f"default {self.default if self.default not in (None, '') else '<empty>'}")
        elif self.type != "button":
            parts.append(f"default {self.default}")
        if self.type == "spin":
            parts.append(f"min {self.minimum} max {self.maximum}")
        parts.extend(f"var {choice}" for choice in self.choices)
        return " ".join(parts)

    def check(self, value: int) -> int:
        """``value`` if it is within a spin's range, else OptionError."""
        lo = self.minimum if self.minimum is not None else -(2**31)
        hi = self.maximum if self.maximum is not None else 2**31 - 1
        if not lo <= value <= hi:
            raise OptionError(f"option {self.name} must be between {lo} and {hi}, got {value}")
        return value

    def parse(self, value: OptionValue) -> OptionValue:
        """The checked value of ``value``: the text of a ``setoption``, or a typed value."""
        if self.type == "button":
            return None
        if value is None:
            raise OptionError(f"option {self.name} needs a value")
        if self.type == "spin":
            if isinstance(value, bool):
                raise OptionError(f"option {self.name} needs an integer, got {value}")
            number = value if isinstance(value, int) else read_int(value, f"option {self.name}")
            return self.check(number)
        text = str(value)
        if self.type == "check":
            low = text.lower()
            if low not in ("true", "false"):
                raise OptionError(
                    f"option {self.name} must be true or false, got {shorten(text)!r}"
                )
            return low == "true"
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            allowed = ", ".join(self.choices)
            raise OptionError(f"option {self.name} must be one of {allowed}, got {shorten(text)!r}")
        return "" if text == "<empty>" else text


def markdown_table(options: Iterable[Option]) -> list[str]:
    """The options as the lines of a Markdown table: name, type, default, range, help."""
    lines = ["| option | type | default | range | what it does |", "|" + " --- |" * 5]
    for o in options:
        if o.type == "check":
            default = "true" if o.default else "false"
        elif o.type == "button":
            default = ""
        else:
            default = str(o.default) if o.default not in (None, "") else "empty"
        span = f"{o.minimum}-{o.maximum}" if o.type == "spin" else ", ".join(o.choices)
        lines.append(f"| `{o.name}` | {o.type} | {default} | {span} | {o.help} |")
    return lines


def find_option(options: Iterable[Option], name: str) -> Option | None:
    """The option called ``name`` (UCI names are case-insensitive), or None."""
    wanted = name.strip().lower()
    for option in options:
        if option.name.lower() == wanted:
            return option
    return None


HASH = Option("Hash", "spin", 64, 1, 4096, help="transposition-table size in MB (clears it)")
THREADS = Option(
    "Threads", "spin", 1, 1, 64, help="search threads sharing one table (lazy SMP)"
)
CLEAR_HASH = Option("Clear Hash", "button", help="forget the table and move-ordering memory")
MOVE_OVERHEAD = Option(
    "Move Overhead", "spin", 10, 0, 5000,
    help="milliseconds lost per move outside the engine (the pipe, the GUI), as Stockfish",
)  # fmt: skip
SLOW_MOVER = Option(
    "Slow Mover", "spin", 100, 10, 1000,
    help="percent of the planned time per move to aim at (more: deeper now, less later)",
)  # fmt: skip
PONDER = Option("Ponder", "check", False, help="the GUI may send go ponder (read by the loop)")
MULTIPV = Option(
    "MultiPV", "spin", 1, 1, 256,
    # 256: more lines than any position has legal moves.
    help="lines reported per iteration, each searched fully",
)  # fmt: skip
LIMIT_STRENGTH = Option(
    "UCI_LimitStrength", "check", False, help="play at UCI_Elo instead of full strength"
)
ELO = Option(
    "UCI_Elo", "spin", 1800, 1350, 2200,
    # On Stockfish 15.1's scale (benchmarks/calibrate_elo.py): its lowest level is 1350 too;
    # every level is a limited one read from the level curve (engine/levels.json).
    help="the level of UCI_LimitStrength on Stockfish 15.1's UCI_Elo scale",
)  # fmt: skip
SHOW_WDL = Option("UCI_ShowWDL", "check", False, help="add win/draw/loss per mille to info lines")
CHESS960 = Option(
    "UCI_Chess960", "check", False,
    help="play Chess960: castling rules, and castling written as king takes rook (e1h1)",
)  # fmt: skip
OWN_BOOK = Option("OwnBook", "check", False, help="answer go from BookFile while in book")
BOOK_FILE = Option("BookFile", "string", "", help="a Polyglot .bin opening book")
BOOK_MODE = Option(
    "BookMode", "combo", "weighted", choices=("weighted", "best"),
    help="pick book moves at random by weight, or always the heaviest",
)  # fmt: skip
EVAL_FILE = Option(
    "EvalFile", "string", "", help="a .npz net (empty: the net installed with plies, if any)"
)
USE_NET = Option("UseNet", "check", True, help="evaluate with the net (else the classical one)")

SYZYGY_PATH = Option(
    "SyzygyPath", "string", "",
    help="directories of Syzygy tables, separated by ':' (';' on Windows)",
)  # fmt: skip
SYZYGY_PROBE_DEPTH = Option(
    "SyzygyProbeDepth", "spin", 1, 1, 100,
    help="the search probes the tables at this remaining depth or more",
)  # fmt: skip
SYZYGY_50_MOVE_RULE = Option(
    "Syzygy50MoveRule", "check", True,
    help="a win or loss the fifty-move rule turns into a draw counts as a draw",
)  # fmt: skip
SYZYGY_PROBE_LIMIT = Option(
    "SyzygyProbeLimit", "spin", 7, 0, 7,
    help="probe positions of at most this many men (7: the largest published tables)",
)  # fmt: skip

OPTIONS: tuple[Option, ...] = (
    HASH, THREADS, CLEAR_HASH, MOVE_OVERHEAD, SLOW_MOVER, PONDER, MULTIPV,
    LIMIT_STRENGTH, ELO, SHOW_WDL, CHESS960, OWN_BOOK, BOOK_FILE, BOOK_MODE, EVAL_FILE, USE_NET,
    SYZYGY_PATH, SYZYGY_PROBE_DEPTH, SYZYGY_50_MOVE_RULE, SYZYGY_PROBE_LIMIT,
)  # fmt: skip
"""Every option declared to GUIs, in the order ``uci`` lists them."""

BOOK_OPTIONS: tuple[Option, ...] = (OWN_BOOK, BOOK_FILE, BOOK_MODE)
"""The options the UCI loop's opening book reads (``plies.uci.book``)."""

NET_OPTIONS: tuple[Option, ...] = (EVAL_FILE, USE_NET)
"""The options that choose the evaluation (answered with the evaluation now in use)."""

SYZYGY_OPTIONS: tuple[Option, ...] = (
    SYZYGY_PATH, SYZYGY_PROBE_DEPTH, SYZYGY_50_MOVE_RULE, SYZYGY_PROBE_LIMIT,
)  # fmt: skip
"""The tablebase options (``plies.syzygy.root``)."""


def param_option(param: Param) -> Option:
    """A search parameter as a UCI spin option."""
    return Option(param.name, "spin", param.default, param.minimum, param.maximum,
                  help=param.help)  # fmt: skip


TUNE_OPTIONS: tuple[Option, ...] = tuple(param_option(p) for p in PARAMS)
"""The search's tunable numbers as spin options: declared by ``plies uci --tune`` (after
``OPTIONS``), always accepted by ``plies.engine.Engine.set_option``."""

LOOP_OPTIONS: tuple[Option, ...] = (PONDER, SHOW_WDL, CHESS960)
"""Options only the UCI loop reads (``go ponder`` drives pondering; WDL is printed there;
the loop's board plays Chess960 or not)."""
