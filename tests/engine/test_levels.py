"""The level curve as data: the packaged file, its rules, interpolation, the override."""

from __future__ import annotations

import copy
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plies.engine.levels import (
    LEVELS_ENV,
    LevelsError,
    default_levels_path,
    levels_from_dict,
    load_levels,
    save_levels,
)
from plies.options import ELO

MIN_ELO, MAX_ELO = ELO.spin_range()

CURVE: dict[str, Any] = {
    "signature": {"depth": 13, "nodes": 1000},
    "points": [
        {"elo": 1400, "nodes": 1000, "temperature_cp": 50.0, "max_loss_cp": 100},
        {"elo": 1800, "nodes": 16000, "temperature_cp": 30.0, "max_loss_cp": 60},
    ],
}


def test_packaged_file_loads_is_monotonic_and_stamped() -> None:
    """The shipped curve has its bench stamp and rises in nodes, sharpens in choice."""
    raw = json.loads(default_levels_path().read_text(encoding="utf-8"))
    assert isinstance(raw["signature"]["nodes"], int) and raw["signature"]["depth"] >= 1
    levels = load_levels()
    assert len(levels.points) >= 2
    for weak, strong in itertools.pairwise(levels.points):
        assert strong.elo > weak.elo and strong.nodes > weak.nodes
        assert strong.temperature_cp <= weak.temperature_cp
    budgets = [levels.at(elo).nodes for elo in range(MIN_ELO, MAX_ELO + 1, 25)]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)


def test_interpolation_is_geometric_in_nodes_and_linear_in_choice() -> None:
    """Halfway between 1,000 and 16,000 nodes is 4,000; the first segment continues below."""
    levels = levels_from_dict(CURVE)
    mid = levels.at(1600)
    assert mid.nodes == 4000 and mid.temperature_cp == pytest.approx(40.0)
    assert mid.max_loss_cp == 80
    below = levels.at(1300)
    # 4 doublings over 400 Elo: 100 Elo below the first point is half its budget.
    assert below.nodes == 500 and below.temperature_cp == pytest.approx(55.0)
    above = levels.at(2000)
    assert (above.nodes, above.temperature_cp, above.max_loss_cp) == (16000, 30.0, 60)
    assert levels.top_elo == 1800


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("signature",), None, "signature"),
        (("signature", "nodes"), -5, "nodes"),
        (("points", 1, "nodes"), 500, "must both rise"),
        (("points", 1, "elo"), 1400, "must both rise"),
        (("points", 1, "temperature_cp"), 60.0, "must not rise"),
        (("points", 0, "max_loss_cp"), "ten", "max_loss_cp"),
    ],
)
def test_broken_curves_are_refused(path: tuple[Any, ...], value: Any, message: str) -> None:
    """A missing stamp, a falling budget or a sharper-then-looser choice is a LevelsError."""
    data = copy.deepcopy(CURVE)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is None:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    with pytest.raises(LevelsError, match=message):
        levels_from_dict(data)


def test_one_point_or_bad_json_is_refused(tmp_path: Path) -> None:
    """A single point is no curve; a file that is not JSON names itself."""
    data = copy.deepcopy(CURVE)
    data["points"] = data["points"][:1]
    with pytest.raises(LevelsError, match="at least two"):
        levels_from_dict(data)
    bad = tmp_path / "levels.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(LevelsError, match=str(bad)):
        load_levels(bad)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """What ``save_levels`` writes, ``load_levels`` reads back unchanged."""
    levels = levels_from_dict({**CURVE, "notes": {"control": "10+0.1"}})
    path = tmp_path / "levels.json"
    save_levels(levels, path)
    assert load_levels(path) == levels


def test_override_reaches_the_engine_strength(tmp_path: Path) -> None:
    """``$PLIES_LEVELS`` replaces the packaged curve in a fresh process."""
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(CURVE), encoding="utf-8")
    code = ("from plies.engine.strength import strength_for, is_full_strength;"
            "s = strength_for(1600); print(s.nodes, is_full_strength(1800), "
            "is_full_strength(1801))")
    env_out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env={**os.environ, LEVELS_ENV: str(path)}).stdout
    assert env_out.split() == ["4000", "False", "True"]


def test_check_script_warns_on_a_different_signature(tmp_path: Path) -> None:
    """``tools/check_levels.py`` is quiet on the stamped signature and warns on another."""
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(CURVE), encoding="utf-8")
    script = Path(__file__).resolve().parents[2] / "tools" / "check_levels.py"
    env = {**os.environ, LEVELS_ENV: str(path)}

    def check(*extra: str) -> subprocess.CompletedProcess[str]:
        """Run the script with ``extra`` arguments."""
        return subprocess.run([sys.executable, str(script), *extra], capture_output=True,
                              text=True, env=env, check=False)

    same = check("--nodes", "1000")
    assert same.returncode == 0 and "matches" in same.stdout and "WARNING" not in same.stdout
    other = check("--nodes", "1001")
    assert other.returncode == 0 and other.stdout.startswith("WARNING")
    assert "1,000" in other.stdout and "1,001" in other.stdout
    assert check("--nodes", "1001", "--strict").returncode == 1
