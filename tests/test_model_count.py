"""``tools/model_count.py``: the counts of players, limits, scores, reports, UCI clients and
re-export modules, checked on small made-up packages and on plies itself."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    """``tools/model_count.py`` as a module."""
    spec = importlib.util.spec_from_file_location("model_count", ROOT / "tools/model_count.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["model_count"] = module
    spec.loader.exec_module(module)
    return module


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package ``plies`` under ``tmp_path`` with these modules (path -> source)."""
    src = tmp_path / "plies"
    for name, text in files.items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def test_counts_each_concept_where_it_is_defined(tmp_path: Path) -> None:
    """Two protocols, a limit, a settings class with its own depth, two mate scales, two
    reports, a UCI client, and a re-export module are each found; a partial base, settings
    holding a Limit, the UCI server and a package ``__init__`` that re-exports are not."""
    src = _package(tmp_path, {
        "__init__.py": "from plies.agents.player import Player\n",
        "agents/__init__.py": '"""Agents."""\n',
        "agents/player.py": (
            "from abc import ABC, abstractmethod\n"
            "class Player(ABC):\n    @abstractmethod\n    def play(self): ...\n"
            "class SearchBase(Player):\n    @abstractmethod\n    def search(self): ...\n"
            "class Info:\n    depth: int = 0\n"
            "MATE_CP = 100_000\n"
        ),
        "agents/mind.py": "class Mind:\n    pass\nclass Thought:\n    pass\n",
        "agents/client.py": "def start(p):\n    p.expect('uciok')\n",
        "uci/__init__.py": "",
        "uci/loop.py": "def answer(out):\n    out('uciok')\n",
        "arena/referee.py": (
            "class GameSettings:\n    depth: int | None = None\n"
            "class Limit:\n    depth: int | None = None\n"
        ),
        "arena/rules.py": "class GameSettings:\n    limit: object = None\n",
        "web/analysis.py": "MATE_CP: int = 2000\n",
        "web/shim.py": (
            '"""A shim."""\nfrom plies.agents.player import Player\n__all__ = ["Player"]\n'
        ),
    })
    counts = _tool().count(src)
    assert counts.player == ["plies.agents.mind.Mind", "plies.agents.player.Player"]
    assert counts.limit == ["plies.arena.referee.GameSettings", "plies.arena.referee.Limit"]
    assert counts.score == ["plies.agents.player.MATE_CP", "plies.web.analysis.MATE_CP"]
    assert counts.report == ["plies.agents.mind.Thought", "plies.agents.player.Info"]
    assert counts.uci_client == ["plies.agents.client"]
    assert counts.reexport == ["plies.web.shim"]


def test_python_chess_scores_count_once_where_plies_takes_them(tmp_path: Path) -> None:
    """Importing python-chess's ``Cp``/``Mate`` to be plies's score is one score type."""
    src = _package(tmp_path, {
        "engine/score.py": "from chess.engine import Cp, Mate, PovScore\nMATE = 1\n",
    })
    assert _tool().count(src).score == ["plies.engine.score.Cp/Mate (python-chess's)"]


def test_the_command_prints_each_count_of_the_tree(capsys: pytest.CaptureFixture[str]) -> None:
    """The real tree: a line per concept whose number is the count of what it names."""
    tool = _tool()
    counts = tool.count()
    assert tool.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    numbers = [int(line[18:21]) for line in lines]
    assert numbers == [len(v) for v in counts.__dict__.values()]
