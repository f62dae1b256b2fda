"""Time controls (``10+0.1``, ``40/60``, ``1:30+1``) and the chess clock that enforces them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TC_RE = re.compile(
    r"^(?:(?P<moves>\d+)/)?(?P<base>\d+(?:\.\d+)?|\d+:\d{1,2}(?:\.\d+)?)(?:\+(?P<inc>\d+(?:\.\d+)?))?$"
)


@dataclass(frozen=True)
class TimeControl:
    """Base time, increment per move and (optionally) moves per period, in milliseconds."""

    base_ms: int
    increment_ms: int = 0
    moves: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse ``[MOVES/]SECONDS[+INC]``; seconds may be written ``M:SS``."""
        m = _TC_RE.match(text.strip())
        if m is None:
            raise ValueError(
                f"bad time control {text!r}: use SECONDS[+INC] or MOVES/SECONDS[+INC], e.g. 10+0.1"
            )
        base = m.group("base")
        if ":" in base:
            minutes, seconds = base.split(":")
            base_s = int(minutes) * 60 + float(seconds)
        else:
            base_s = float(base)
        inc_s = float(m.group("inc") or 0.0)
        moves = int(m.group("moves")) if m.group("moves") else None
        if base_s <= 0:
            raise ValueError(f"bad time control {text!r}: the base time must be positive")
        if moves == 0:
            raise ValueError(f"bad time control {text!r}: moves per period must be positive")
        return cls(round(base_s * 1000), round(inc_s * 1000), moves)

    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag value (seconds)."""
        base = _seconds(self.base_ms)
        text = f"{self.moves}/{base}" if self.moves else base
        if self.increment_ms:
            text += f"+{_seconds(self.increment_ms)}"
        return text


def _seconds(ms: int) -> str:
    """Milliseconds as seconds without a trailing ``.0``."""
    return f"{ms // 1000}" if ms % 1000 == 0 else f"{ms / 1000:g}"


class Clock:
    """Both players' clocks: time left, increments and period refills, in milliseconds."""

    def __init__(self, tc: TimeControl, margin_ms: int = 0) -> None:
        """Start both clocks at the base time; ``margin_ms`` forgives lag before a flag."""
        self.tc = tc
        self.margin_ms = margin_ms
        self.left = [tc.base_ms, tc.base_ms]
        self.moves_made = [0, 0]

    def remaining(self, side: int) -> int:
        """Time left for ``side`` (0 white, 1 black) in milliseconds."""
        return self.left[side]

    def moves_to_go(self, side: int) -> int | None:
        """Moves ``side`` must still make in this period (None in sudden death)."""
        if self.tc.moves is None:
            return None
        return self.tc.moves - self.moves_made[side] % self.tc.moves

    def spend(self, side: int, elapsed_ms: int) -> bool:
        """Charge a move's time; return False (and stop the clock) if ``side`` flagged."""
        self.left[side] -= elapsed_ms
        if self.left[side] < -self.margin_ms:
            return False
        self.left[side] = max(self.left[side], 0) + self.tc.increment_ms
        self.moves_made[side] += 1
        if self.tc.moves and self.moves_made[side] % self.tc.moves == 0:
            self.left[side] += self.tc.base_ms
        return True
