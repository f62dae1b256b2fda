"""UCI options: their declaration (the ``option name ...`` lines) and value checking.

An option knows its type, default and bounds; :meth:`UciOption.parse`
turns the text of a ``setoption`` into a checked value or raises
:class:`UciParseError` with a one-line reason, so a bad value never reaches
the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from plies.uci.protocol import UciParseError, parse_int, shorten

OptionValue = int | bool | str | None


@dataclass(frozen=True)
class UciOption:
    """One option as UCI declares it: ``spin``, ``check``, ``button``, ``string`` or ``combo``."""

    name: str
    type: str
    default: OptionValue = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

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

    def parse(self, text: str | None) -> OptionValue:
        """The checked value of ``setoption ... value TEXT`` (None for a button)."""
        if self.type == "button":
            return None
        if text is None:
            raise UciParseError(f"option {self.name} needs a value")
        if self.type == "spin":
            lo = self.minimum if self.minimum is not None else -(2**31)
            hi = self.maximum if self.maximum is not None else 2**31 - 1
            value = parse_int(text, f"option {self.name}")
            if not lo <= value <= hi:
                raise UciParseError(
                    f"option {self.name} must be between {lo} and {hi}, got {value}"
                )
            return value
        if self.type == "check":
            low = text.lower()
            if low not in ("true", "false"):
                raise UciParseError(
                    f"option {self.name} must be true or false, got {shorten(text)!r}"
                )
            return low == "true"
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            allowed = ", ".join(self.choices)
            raise UciParseError(
                f"option {self.name} must be one of {allowed}, got {shorten(text)!r}"
            )
        return "" if text == "<empty>" else text


def find_option(options: Iterable[UciOption], name: str) -> UciOption | None:
    """The option called ``name`` (UCI names are case-insensitive), or None."""
    wanted = name.lower()
    for option in options:
        if option.name.lower() == wanted:
            return option
    return None
