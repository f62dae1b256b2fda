"""An unusable default net: the engine starts on the classical evaluation and says why."""

from __future__ import annotations

from pathlib import Path

import pytest

import plies.core as core
from plies.board import Board
from plies.engine import Engine, Limit
from plies.engine.nets import DEFAULT_NET_ENV, default_net_file


def _corrupt(tmp_path: Path) -> Path:
    """A file named like a net that is not one (a truncated zip archive)."""
    path = tmp_path / "default.npz"
    path.write_bytes(b"PK\x03\x04 truncated, not a net")
    return path


@pytest.mark.parametrize("kind", ["corrupt", "missing"])
def test_unusable_default_net_falls_back_to_classical(tmp_path: Path, kind: str) -> None:
    """The engine is built, warns once, names the reason, searches and evaluates classically."""
    path = _corrupt(tmp_path) if kind == "corrupt" else tmp_path / "absent.npz"
    with pytest.warns(RuntimeWarning, match="default net unusable") as caught:
        engine = Engine(hash_mb=1, default_net=path)
    messages = [str(w.message) for w in caught]
    assert sum("default net" in m for m in messages) == 1, messages
    assert engine.net_notice is not None and str(path) in engine.net_notice
    assert "\n" not in engine.net_notice
    assert engine.net is None and not engine.use_net
    board = Board()
    result = engine.search(board, Limit(depth=2))
    assert result.move in board.legal_moves
    assert engine.evaluate(board) == core.evaluate_position(board.core_position())
    # Asking for the net again is refused with the same reason, and changes nothing.
    with pytest.raises(ValueError, match="net file"):
        engine.set_use_net(True)
    assert engine.net is None


def test_environment_names_the_default_net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$PLIES_DEFAULT_NET`` replaces the packaged net; a bad one does not stop the engine."""
    corrupt = _corrupt(tmp_path)
    monkeypatch.setenv(DEFAULT_NET_ENV, str(corrupt))
    assert default_net_file() == corrupt
    with pytest.warns(RuntimeWarning, match="default net unusable"):
        engine = Engine(hash_mb=1)
    assert engine.net is None and engine.net_notice is not None


def test_good_default_net_has_no_notice() -> None:
    """The packaged net (when shipped) loads without a notice."""
    engine = Engine(hash_mb=1)
    assert engine.net_notice is None
    assert engine.use_net is (core.default_net_path() is not None)


def test_one_notice_says_why_no_net_runs(tmp_path: Path) -> None:
    """``net_notice`` names the reason the classical evaluation runs while a net is wanted,
    and clears once a net is loaded: the default's failure, then a net file that works."""
    packaged = core.default_net_path()
    if packaged is None:
        pytest.skip("this install ships no net")
    with pytest.warns(RuntimeWarning, match="default net unusable"):
        engine = Engine(hash_mb=1, default_net=_corrupt(tmp_path))
    assert engine.net_notice is not None and "default net" in engine.net_notice
    engine.set_eval_file(str(packaged))
    engine.set_use_net(True)
    assert engine.net is not None
    assert engine.net_notice is None
