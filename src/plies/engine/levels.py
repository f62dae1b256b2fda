"""The ``UCI_Elo`` level curve as data: measured points, the bench signature they were fitted on.

A level is a node budget per move plus a choice rule (softmax temperature and
a cap on the loss of the picked move). The curve lives in ``levels.json`` next
to this module, written by ``benchmarks/calibrate_elo.py --fit`` from matches
against Stockfish 15.1 at the same ``UCI_Elo``. Between measured points the
node budget is interpolated geometrically (Elo is linear in doublings) and the
temperature and loss cap linearly; below the first point the first segment
continues, and above the last one the engine plays at full strength.

The file carries the ``plies bench`` node signature of the engine it was
measured with: a stronger or weaker engine plays every node budget at another
strength, so a different signature means the curve needs a refit
(``tools/check_levels.py`` says so).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "LEVELS_ENV",
    "LevelPoint",
    "Levels",
    "LevelsError",
    "Signature",
    "active_levels",
    "default_levels_path",
    "levels_from_dict",
    "load_levels",
    "save_levels",
]

LEVELS_ENV = "PLIES_LEVELS"
"""Environment variable naming a levels file used instead of the packaged one (for fitting)."""


class LevelsError(ValueError):
    """A levels file that cannot be read or breaks the curve's rules."""


@dataclass(frozen=True, slots=True)
class LevelPoint:
    """One measured level: its Elo, node budget and choice rule."""

    elo: int
    """The ``UCI_Elo`` of this point (Stockfish 15.1's scale)."""
    nodes: int
    """Node budget per move at this Elo."""
    temperature_cp: float
    """Softmax temperature over the candidates' scores, in centipawns."""
    max_loss_cp: int
    """The worst a picked move may score below the best one, in centipawns."""


@dataclass(frozen=True, slots=True)
class Signature:
    """The ``plies bench`` result the curve was measured with."""

    depth: int
    """Bench depth."""
    nodes: int
    """Total bench nodes at that depth (the behaviour signature)."""


@dataclass(frozen=True)
class Levels:
    """The level curve: measured points (ascending Elo) and the engine they belong to."""

    points: tuple[LevelPoint, ...]
    """Measured points (at least two), strictly ascending in Elo and in nodes."""
    signature: Signature
    """The bench signature of the engine the points were measured with."""
    notes: dict[str, Any] = field(default_factory=dict)
    """Free-form provenance: date, time control, opponent, match results."""

    @property
    def top_elo(self) -> int:
        """The highest measured level; anything above it is full strength."""
        return self.points[-1].elo

    def at(self, elo: int) -> LevelPoint:
        """The level at ``elo``: interpolated between points, the last point's above it."""
        pts = self.points
        last = pts[-1]
        if elo >= last.elo:
            return LevelPoint(elo, last.nodes, last.temperature_cp, last.max_loss_cp)
        if elo <= pts[0].elo:
            # Below the first point the first segment continues (fewer nodes, looser choice).
            return _blend(pts[0], pts[1], (elo - pts[0].elo) / (pts[1].elo - pts[0].elo), elo)
        for lo, hi in itertools.pairwise(pts):
            if elo <= hi.elo:
                return _blend(lo, hi, (elo - lo.elo) / (hi.elo - lo.elo), elo)
        raise AssertionError("unreachable: the points cover elo")


def _blend(lo: LevelPoint, hi: LevelPoint, share: float, elo: int) -> LevelPoint:
    """The point ``share`` of the way from ``lo`` to ``hi`` (nodes geometrically)."""
    log_nodes = math.log2(lo.nodes) + share * (math.log2(hi.nodes) - math.log2(lo.nodes))
    temperature = lo.temperature_cp + share * (hi.temperature_cp - lo.temperature_cp)
    max_loss = lo.max_loss_cp + share * (hi.max_loss_cp - lo.max_loss_cp)
    # Floors keep an extrapolated level playable: a node, a tiny temperature, no negative cap.
    return LevelPoint(elo, max(1, round(2.0**log_nodes)), max(temperature, 0.5),
                      max(0, round(max_loss)))


def _int(data: dict[str, Any], key: str, where: str) -> int:
    """``data[key]`` as a positive int, or a LevelsError naming ``where``."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise LevelsError(f"{where}: '{key}' must be a positive integer, got {value!r}")
    return value


def _number(data: dict[str, Any], key: str, where: str) -> float:
    """``data[key]`` as a positive number, or a LevelsError naming ``where``."""
    value = data.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise LevelsError(f"{where}: '{key}' must be a positive number, got {value!r}")
    return float(value)


def levels_from_dict(data: Any) -> Levels:
    """Validate parsed JSON and build the curve (LevelsError on any broken rule)."""
    if not isinstance(data, dict):
        raise LevelsError("levels: the file must hold a JSON object")
    stamp = data.get("signature")
    if not isinstance(stamp, dict):
        raise LevelsError("levels: missing 'signature' (the plies bench stamp)")
    signature = Signature(_int(stamp, "depth", "signature"), _int(stamp, "nodes", "signature"))
    raw = data.get("points")
    if not isinstance(raw, list) or len(raw) < 2:
        raise LevelsError("levels: 'points' must be a list of at least two levels")
    points = []
    for i, item in enumerate(raw):
        where = f"points[{i}]"
        if not isinstance(item, dict):
            raise LevelsError(f"{where}: must be an object")
        points.append(LevelPoint(_int(item, "elo", where), _int(item, "nodes", where),
                                 _number(item, "temperature_cp", where),
                                 _int(item, "max_loss_cp", where)))
    for a, b in itertools.pairwise(points):
        # A stronger level must search more and choose no more loosely.
        if not (b.elo > a.elo and b.nodes > a.nodes):
            raise LevelsError(f"levels: Elo and nodes must both rise ({a.elo}: {a.nodes} nodes, "
                              f"{b.elo}: {b.nodes} nodes)")
        if b.temperature_cp > a.temperature_cp or b.max_loss_cp > a.max_loss_cp:
            raise LevelsError(f"levels: temperature and loss cap must not rise from {a.elo} "
                              f"to {b.elo}")
    notes = data.get("notes", {})
    if not isinstance(notes, dict):
        raise LevelsError("levels: 'notes' must be an object")
    return Levels(tuple(points), signature, notes)


def default_levels_path() -> Path:
    """The packaged ``levels.json``."""
    return Path(str(resources.files("plies.engine").joinpath("levels.json")))


def load_levels(path: str | os.PathLike[str] | None = None) -> Levels:
    """Read a levels file (None: the packaged one); LevelsError if missing or malformed."""
    where = Path(path) if path is not None else default_levels_path()
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LevelsError(f"cannot read {where}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise LevelsError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from exc
    try:
        return levels_from_dict(data)
    except LevelsError as exc:
        raise LevelsError(f"{where}: {exc}") from exc


def save_levels(levels: Levels, path: str | os.PathLike[str]) -> None:
    """Write ``levels`` as JSON (the format ``load_levels`` reads)."""
    data = {
        "signature": asdict(levels.signature),
        "points": [asdict(p) for p in levels.points],
        "notes": levels.notes,
    }
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@cache
def active_levels() -> Levels:
    """The curve the engine plays by: ``$PLIES_LEVELS`` if set, else the packaged file."""
    return load_levels(os.environ.get(LEVELS_ENV) or None)
