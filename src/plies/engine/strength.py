"""Playing strength limited to an Elo (``UCI_LimitStrength`` / ``UCI_Elo``).

A weaker plies still plays like a player: it deepens while it is within a
node budget (fewer nodes, shallower tactics; a started iteration is finished
and depth 1 always is) with a few best moves kept (MultiPV), then
picks among them at random with a softmax over their scores. The temperature
makes near-equal moves interchangeable, and a cap on the loss means it never
picks a move much worse than its best one: at every level it misses what it
cannot see, but it does not throw away what it sees.

The mapping from Elo to (nodes, temperature, loss cap) is anchored to
Stockfish 15.1's ``UCI_Elo`` scale by matches (``benchmarks/calibrate_elo.py``);
the figures behind it are in the README's UCI section.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plies.options import ELO

if TYPE_CHECKING:
    from plies.engine.limits import Info

__all__ = [
    "CANDIDATES", "DEFAULT_ELO", "MAX_ELO", "MIN_ELO", "Strength", "choose_line",
    "is_full_strength", "strength_for",
]

MIN_ELO, MAX_ELO = ELO.spin_range()
DEFAULT_ELO = ELO.spin_default()

CANDIDATES = 4
"""Moves the limited engine chooses among (Stockfish's skill levels use 4 as well)."""
NODES_AT_MIN = 1440
"""Node budget per move at ``MIN_ELO``."""
ELO_PER_DOUBLING = 105.0
"""Elo gained per doubling of the node budget.

Calibrated at 10+0.1, 40 games a level (README): with 2,000 nodes at 1350 and
95 Elo a doubling, 1400 (2.9 k nodes) scored 58.8% and 1800 (53 k) 70%; 1800
at 23 k nodes scored 35%, at 35 k 65% and 60%; this curve (1400: 2 k nodes,
1800: 28 k) scored 40% at 1400 and 56.2% at 1800."""
SHARPEST_ELO = 2150
"""Where the temperature and loss cap below reach their sharpest values (linearly
from ``MIN_ELO``; fixed apart from ``MAX_ELO`` so the calibrated levels keep them)."""
TEMPERATURE_AT_MIN = 58.0
"""Softmax temperature (centipawns) at ``MIN_ELO``; it falls linearly to ``SHARPEST_ELO``."""
TEMPERATURE_AT_SHARPEST = 8.0
"""Softmax temperature (centipawns) at ``SHARPEST_ELO``."""
MAX_LOSS_AT_MIN = 115
"""The worst a picked move may score below the best one at ``MIN_ELO`` (centipawns)."""
MAX_LOSS_AT_SHARPEST = 25
"""The same cap at ``SHARPEST_ELO``."""


@dataclass(frozen=True, slots=True)
class Strength:
    """How a limited engine searches and chooses at one Elo."""

    elo: int
    """The level asked for."""
    nodes: int
    """Node budget per move: no iteration starts once half of it is spent."""
    temperature_cp: float
    """Softmax temperature over the candidates' scores, in centipawns."""
    max_loss_cp: int
    """Candidates scoring more than this below the best are never picked."""


def is_full_strength(elo: int) -> bool:
    """Whether ``elo`` is the top of the scale, where nothing is held back."""
    return elo >= MAX_ELO


def strength_for(elo: int) -> Strength:
    """The search budget and choice rule for ``elo`` (clamped to MIN_ELO..MAX_ELO)."""
    elo = min(max(elo, MIN_ELO), MAX_ELO)
    share = (elo - MIN_ELO) / (SHARPEST_ELO - MIN_ELO)
    nodes = round(NODES_AT_MIN * 2.0 ** ((elo - MIN_ELO) / ELO_PER_DOUBLING))
    temperature = TEMPERATURE_AT_MIN + share * (TEMPERATURE_AT_SHARPEST - TEMPERATURE_AT_MIN)
    max_loss = round(MAX_LOSS_AT_MIN + share * (MAX_LOSS_AT_SHARPEST - MAX_LOSS_AT_MIN))
    return Strength(elo, nodes, temperature, max_loss)


def _value(info: Info) -> float:
    """A line's score in centipawns, mates as huge values (nearer mates larger)."""
    if info.score_mate is not None:
        sign = 1 if info.score_mate > 0 else -1
        return sign * (100_000.0 - 100.0 * abs(info.score_mate))
    return float(info.score_cp or 0)


def choose_line(lines: list[Info], strength: Strength, rng: random.Random) -> Info:
    """Pick one of the candidate lines (best first) as a player of ``strength`` would."""
    usable = [line for line in lines if line.pv]
    if not usable:
        raise ValueError("no candidate line to choose from")
    top = max(_value(line) for line in usable)
    allowed = [line for line in usable if top - _value(line) <= strength.max_loss_cp]
    weights = [math.exp((_value(line) - top) / strength.temperature_cp) for line in allowed]
    return rng.choices(allowed, weights=weights)[0]
