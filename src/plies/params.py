"""The search's tunable numbers: one table of names, defaults, ranges and tuning steps.

The compiled search reads these from its stack at run time (``plies.core.stack``), so a
tuner can change them between games without a recompile: ``plies uci --tune`` declares
each as a UCI spin option and ``plies spsa`` tunes them. The defaults are the engine's
numbers; the index constants name each number's slot for the compiled code. Like
``plies.options`` this module imports nothing, so the loop answers ``uci`` before numba
loads.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    """One tunable number of the search."""

    name: str
    """The UCI option name under ``plies uci --tune``."""
    default: int
    """The engine's value."""
    minimum: int
    """The smallest value accepted (a tuner stays inside the range)."""
    maximum: int
    """The largest value accepted."""
    step: float
    """SPSA's final perturbation (fishtest's ``c_end``): about a tenth of the useful range,
    large enough that the two sides of a game pair play measurably differently."""
    help: str
    """What the number does, in one line."""


PARAMS: tuple[Param, ...] = (
    Param("RfpMargin", 75, 30, 150, 8, "reverse futility: margin per ply above beta"),
    Param("RfpImproving", 50, 0, 120, 8, "reverse futility: margin taken off when improving"),
    Param("NullEvalDiv", 200, 80, 400, 20,
          "null move: one more ply of reduction per this many cp above beta (at most 3)"),
    Param("RazorMargin", 300, 100, 600, 25, "razoring at depth 1: margin below alpha"),
    Param("SingularMargin", 2, 1, 6, 1,
          "singular extension: cp per ply the other moves must fall short by"),
    Param("LmpBase", 3, 1, 10, 1, "late-move pruning: quiet moves searched at depth 0"),
    Param("FutilityBase", 100, 20, 250, 10, "futility pruning of quiet moves: base margin"),
    Param("FutilityMargin", 100, 40, 200, 10, "futility pruning of quiet moves: margin per ply"),
    Param("HistoryPrune", 4000, 1000, 12000, 400,
          "quiet moves whose history is below minus this per ply are pruned (depth <= 4)"),
    Param("SeeCaptureMargin", 90, 30, 200, 8,
          "captures losing more than this per ply by SEE are pruned (depth <= 6)"),
    Param("LmrBase", 80, 20, 150, 6, "late-move reductions: constant term, in 1/100 ply"),
    Param("LmrDivisor", 220, 140, 360, 12,
          "late-move reductions: ln(depth) ln(move) divided by this over 100"),
    Param("HistoryPerPly", 10000, 3000, 24000, 800,
          "late-move reductions: summed history worth one ply"),
    Param("HistoryBonus", 16, 4, 40, 1.5, "history bonus per depth squared"),
    Param("HistoryBonusMax", 1600, 400, 4000, 120, "largest history bonus"),
    Param("QsearchDelta", 200, 40, 500, 20,
          "quiescence: captures that cannot reach alpha by this margin are skipped"),
)
"""Every tunable number, in slot order."""

_SLOT = {p.name: i for i, p in enumerate(PARAMS)}

RFP_MARGIN = _SLOT["RfpMargin"]
RFP_IMPROVING = _SLOT["RfpImproving"]
NULL_EVAL_DIV = _SLOT["NullEvalDiv"]
RAZOR_MARGIN = _SLOT["RazorMargin"]
SINGULAR_MARGIN = _SLOT["SingularMargin"]
LMP_BASE = _SLOT["LmpBase"]
FUTILITY_BASE = _SLOT["FutilityBase"]
FUTILITY_MARGIN = _SLOT["FutilityMargin"]
HISTORY_PRUNE = _SLOT["HistoryPrune"]
SEE_CAPTURE_MARGIN = _SLOT["SeeCaptureMargin"]
LMR_BASE = _SLOT["LmrBase"]
LMR_DIVISOR = _SLOT["LmrDivisor"]
HISTORY_PER_PLY = _SLOT["HistoryPerPly"]
HISTORY_BONUS = _SLOT["HistoryBonus"]
HISTORY_BONUS_MAX = _SLOT["HistoryBonusMax"]
QSEARCH_DELTA = _SLOT["QsearchDelta"]


class ParamError(ValueError):
    """A parameter name or value the search does not accept (one line)."""


def find_param(name: str) -> Param | None:
    """The parameter called ``name`` (case-insensitive, as UCI option names), or None."""
    wanted = name.strip().lower()
    for param in PARAMS:
        if param.name.lower() == wanted:
            return param
    return None


def default_values() -> list[int]:
    """The engine's values, in slot order."""
    return [p.default for p in PARAMS]


def checked_values(values: dict[str, int]) -> list[int]:
    """The defaults with ``values`` (by name) put in, each checked against its range."""
    out = default_values()
    for name, value in values.items():
        param = find_param(name)
        if param is None:
            raise ParamError(f"no search parameter {name!r}")
        if not param.minimum <= value <= param.maximum:
            raise ParamError(
                f"{param.name} must be between {param.minimum} and {param.maximum}, got {value}"
            )
        out[_SLOT[param.name]] = value
    return out
