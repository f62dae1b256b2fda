"""Playing strength limited to an Elo (``UCI_LimitStrength`` / ``UCI_Elo``).

A weaker plies still plays like a player: it deepens while it is within a
node budget (fewer nodes, shallower tactics; a started iteration is finished
and depth 1 always is) with a few best moves kept (MultiPV), then
picks among them at random with a softmax over their scores. The temperature
makes near-equal moves interchangeable, and a cap on the loss means it never
picks a move much worse than its best one: at every level it misses what it
cannot see, but it does not throw away what it sees.

The mapping from Elo to (nodes, temperature, loss cap) is data
(``plies.engine.levels``, ``levels.json``), anchored to Stockfish 15.1's
``UCI_Elo`` scale by matches (``benchmarks/calibrate_elo.py --fit``) and stamped
with the bench signature of the engine it was measured with.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plies.engine.levels import active_levels
from plies.engine.score import MATE_SCORE, Cp
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
    """Whether ``elo`` is above the measured curve, where nothing is held back."""
    return elo > active_levels().top_elo


def strength_for(elo: int) -> Strength:
    """The search budget and choice rule for ``elo`` (clamped to MIN_ELO..MAX_ELO)."""
    elo = min(max(elo, MIN_ELO), MAX_ELO)
    point = active_levels().at(elo)
    return Strength(elo, point.nodes, point.temperature_cp, point.max_loss_cp)


def _value(info: Info) -> float:
    """A line's score in centipawns, mates as huge values (nearer mates larger)."""
    if info.score is None:
        return 0.0
    score = info.score.relative
    mate = score.mate()
    if mate is None:
        return float(score.score() or 0)
    # Mates a pawn apart per move: a weak player still prefers the shorter mate.
    return (1.0 if score > Cp(0) else -1.0) * (MATE_SCORE - 100.0 * abs(mate))


def choose_line(lines: list[Info], strength: Strength, rng: random.Random) -> Info:
    """Pick one of the candidate lines (best first) as a player of ``strength`` would."""
    usable = [line for line in lines if line.pv]
    if not usable:
        raise ValueError("no candidate line to choose from")
    top = max(_value(line) for line in usable)
    allowed = [line for line in usable if top - _value(line) <= strength.max_loss_cp]
    weights = [math.exp((_value(line) - top) / strength.temperature_cp) for line in allowed]
    return rng.choices(allowed, weights=weights)[0]
