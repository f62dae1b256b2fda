"""``plies-uci``: the console script GUIs run, one executable without arguments that speaks UCI."""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

import chess
import chess.engine
import pytest
from tests.uci.conftest import START_TIMEOUT_S

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "plies.cli.uci:standalone"
# What the installed wrapper does: import the entry point and exit with its value.
WRAPPER = [sys.executable, "-c",
           "import sys; from plies.cli.uci import standalone; sys.exit(standalone())"]


def installed_script() -> str | None:
    """The installed ``plies-uci`` beside this interpreter, or on PATH; None if not installed."""
    beside = Path(sys.executable).parent / "plies-uci"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("plies-uci")


def play_one_game_start(command: list[str]) -> None:
    """Handshake through python-chess, check the name, play two moves at a node limit, quit."""
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=START_TIMEOUT_S)
    try:
        assert engine.id.get("name", "").startswith("plies")
        assert "Hash" in engine.options and "SyzygyPath" in engine.options
        board = chess.Board()
        for _ in range(2):
            result = engine.play(board, chess.engine.Limit(nodes=2000))
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.quit()


def test_pyproject_declares_the_script() -> None:
    """pyproject's console scripts map ``plies-uci`` to the standalone entry point."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["plies-uci"] == ENTRY


def test_entry_point_speaks_uci_without_arguments() -> None:
    """The entry point, run as the wrapper runs it (no arguments), plays through python-chess."""
    play_one_game_start(WRAPPER)


def test_installed_script_speaks_uci() -> None:
    """The installed executable (``pip install .`` puts it beside python) plays too."""
    script = installed_script()
    if script is None:
        if os.environ.get("CI"):
            pytest.fail("plies-uci is not installed although CI installed the project")
        pytest.skip("plies-uci is not installed in this environment (pip install -e . adds it)")
    play_one_game_start([script])
