"""SPSA: tune many search parameters at once from game pairs, as fishtest does.

Each iteration ``k`` perturbs every parameter by ``+-c_k`` (a random sign per parameter),
plays one game pair (one opening, each side once with each colour) between the ``plus``
and the ``minus`` values, and moves every parameter along its sign by ``R_k c_k`` times
the pair's result (wins minus losses of ``plus``, -2..2). The schedules are fishtest's:

    c_k = c / k**gamma             c = c_end * N**gamma
    a_k = a / (A + k)**alpha       a = r_end * c_end**2 * (A + N)**alpha
    R_k = a_k / c_k**2

so after ``N`` iterations a parameter moves by about ``r_end * c_end`` per unit of result
and the perturbation has shrunk to ``c_end``. Values stay inside each parameter's range;
the engines get them rounded to integers.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from plies.params import Param

ALPHA = 0.602
"""Exponent of the step-size schedule (Spall's recommendation, fishtest's default)."""
GAMMA = 0.101
"""Exponent of the perturbation schedule."""
R_END = 0.002
"""fishtest's default final learning rate."""
A_SHARE = 0.1
"""The stability constant ``A`` as a share of the iterations (fishtest: 10%)."""


class SpsaError(ValueError):
    """Settings SPSA cannot run with (one line)."""


@dataclass
class Tunable:
    """One parameter being tuned: its current (real-valued) estimate and its range."""

    name: str
    value: float
    minimum: float
    maximum: float
    c_end: float
    """The final perturbation."""
    r_end: float = R_END
    """The final learning rate."""

    @classmethod
    def of(cls, param: Param, r_end: float = R_END) -> Tunable:
        """The engine's parameter, starting from its default."""
        return cls(param.name, float(param.default), param.minimum, param.maximum, param.step,
                   r_end)  # fmt: skip

    def clip(self, value: float) -> float:
        """``value`` within the range."""
        return min(self.maximum, max(self.minimum, value))


@dataclass(frozen=True)
class Proposal:
    """The values of one iteration's game pair."""

    k: int
    """The iteration, from 1."""
    flips: tuple[int, ...]
    """The sign of each parameter's perturbation (+1 or -1)."""
    c_k: tuple[float, ...]
    """Each parameter's perturbation size."""
    plus: dict[str, int]
    """The values of one side (rounded, in range)."""
    minus: dict[str, int]
    """The values of the other."""


class Spsa:
    """The tuner's state: estimates, schedules and the iteration count (thread-safe)."""

    def __init__(
        self,
        tunables: Sequence[Tunable],
        iterations: int,
        seed: int | None = None,
        a_share: float = A_SHARE,
        alpha: float = ALPHA,
        gamma: float = GAMMA,
    ) -> None:
        """Tune ``tunables`` over ``iterations`` game pairs."""
        if iterations < 1:
            raise SpsaError("SPSA needs at least one iteration")
        if not tunables:
            raise SpsaError("nothing to tune")
        for t in tunables:
            if not t.minimum <= t.value <= t.maximum:
                span = f"{t.minimum:g}..{t.maximum:g}"
                raise SpsaError(f"{t.name} starts at {t.value:g}, outside {span}")
            if t.c_end <= 0 or t.r_end <= 0:
                raise SpsaError(f"{t.name}: c_end and r_end must be positive")
        self.tunables = list(tunables)
        self.iterations = iterations
        self.big_a = a_share * iterations
        self.alpha = alpha
        self.gamma = gamma
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._issued = 0
        self.done = 0
        """Iterations whose result has been applied."""

    def _schedule(self, t: Tunable, k: int) -> tuple[float, float]:
        """``(c_k, R_k)`` of tunable ``t`` at iteration ``k``."""
        n = self.iterations
        c = t.c_end * n**self.gamma
        a = t.r_end * t.c_end**2 * (self.big_a + n) ** self.alpha
        c_k = c / k**self.gamma
        a_k = a / (self.big_a + k) ** self.alpha
        return c_k, a_k / c_k**2

    def propose(self) -> Proposal | None:
        """The next iteration's values (None once every iteration has been handed out)."""
        with self._lock:
            if self._issued >= self.iterations:
                return None
            self._issued += 1
            k = self._issued
            flips = tuple(self._rng.choice((-1, 1)) for _ in self.tunables)
            sizes = tuple(self._schedule(t, k)[0] for t in self.tunables)
            plus = {t.name: round(t.clip(t.value + c * f))
                    for t, c, f in zip(self.tunables, sizes, flips, strict=True)}  # fmt: skip
            minus = {t.name: round(t.clip(t.value - c * f))
                     for t, c, f in zip(self.tunables, sizes, flips, strict=True)}  # fmt: skip
            return Proposal(k, flips, sizes, plus, minus)

    def update(self, proposal: Proposal, result: float) -> None:
        """Apply a pair's ``result`` (wins minus losses of ``plus``, -2..2)."""
        if not -2 <= result <= 2 or math.isnan(result):
            raise SpsaError(f"a game pair's result is between -2 and 2, got {result}")
        with self._lock:
            for t, c_k, flip in zip(self.tunables, proposal.c_k, proposal.flips, strict=True):
                _, r_k = self._schedule(t, proposal.k)
                t.value = t.clip(t.value + r_k * c_k * result * flip)
            self.done += 1

    def values(self) -> dict[str, float]:
        """The current estimates."""
        with self._lock:
            return {t.name: t.value for t in self.tunables}

    def rounded(self) -> dict[str, int]:
        """The current estimates as the engine takes them."""
        return {name: round(v) for name, v in self.values().items()}
