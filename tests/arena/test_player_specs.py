"""The one player-spec loader: every form parses to the right kind, every bad spec is one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from plies.agents.spec import SpecError, load_player, parse_player

TOY_MIND = Path(__file__).with_name("toy_mind.py")


def _write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` and return the path."""
    path.write_text(text, encoding="utf-8")
    return path


def test_every_form_parses_to_its_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mind = _write(tmp_path / "mymind.py", "def choose(board):\n    return board.legal_moves[0]\n")
    _write(tmp_path / "other.py",
           "class Player:\n    def choose(self, board):\n        return 'e4'\n")
    pkg = tmp_path / "clubminds"
    pkg.mkdir()
    _write(pkg / "__init__.py", "")
    _write(pkg / "fast.py", "def pick(board):\n    return board.legal_moves[0]\n")
    monkeypatch.chdir(tmp_path)
    cases: list[tuple[str, str, str]] = [
        ("alphabeta:depth=3", "agent", "alphabeta:depth=3"),
        (str(mind), "file", "mymind"),
        ("other.py:Player", "file", "other:Player"),
        ("clubminds.fast:pick", "module", "clubminds.fast:pick"),
        (f"mind:{sys.executable} {TOY_MIND}", "mind", "toy_mind.py"),
        ("mind+http://127.0.0.1:8080/mind", "http", "127.0.0.1:8080/mind"),
        ("uci:/usr/games/stockfish:Hash=16", "uci", "stockfish(Hash=16)"),
        ("xboard:/bin/sh", "xboard", "sh"),
    ]
    for text, kind, name in cases:
        spec = parse_player(text)
        assert (spec.kind, spec.name) == (kind, name), text
    assert parse_player(str(mind)).attr == "choose"
    assert parse_player("other.py:Player").target == str((tmp_path / "other.py").resolve())
    assert parse_player("mind+http://127.0.0.1:8080/mind").target == "http://127.0.0.1:8080/mind"


def test_bad_specs_raise_one_error_naming_spec_and_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "broken.py", "def choose(board)\n    return 1\n")
    _write(tmp_path / "empty.py", "x = 1\n")
    _write(tmp_path / "plain.txt", "")
    (tmp_path / "noexec").write_text("#!/bin/sh\n")
    cases = [
        ("", "empty player spec"),
        ("wizard", "unknown player"),
        ("minimax:width=2", "unknown option"),
        ("missing.py", "no such file"),
        ("broken.py", "syntax error in broken.py line 1"),
        ("empty.py", "empty.py defines no choose"),
        ("empty.py:play", "empty.py defines no play"),
        ("empty.py:9lives", "not a Python name"),
        ("nosuchpackage.minds:choose", "no module named 'nosuchpackage'"),
        ("mind:/no/such/program", "not found or not executable"),
        (f"mind:{tmp_path / 'noexec'}", "not found or not executable"),
        ("mind:", "needs a program"),
        ("xboard:/no/such/engine", "not found or not executable"),
        ("uci:", "needs an engine command"),
        ("mind+ftp://host/x", "bad URL"),
        ("mind+http:///path", "no host"),
        ("mind+http://host:99999/x", "port"),
    ]
    for text, reason in cases:
        with pytest.raises(SpecError) as info:
            parse_player(text)
        message = str(info.value)
        assert "\n" not in message
        assert message.startswith(f"player {text.strip()!r}: "), message
        assert reason in message, (text, message)
        assert isinstance(info.value, ValueError)  # callers catching ValueError still do


def test_code_that_fails_on_import_is_a_spec_error_at_load(tmp_path: Path) -> None:
    raising = _write(tmp_path / "raising.py",
                     "raise RuntimeError('no luck')\ndef choose(b): pass\n")
    needs = _write(tmp_path / "needs.py",
                   "class Mind:\n    def __init__(self, depth):\n        pass\n"
                   "    def choose(self, board):\n        pass\n")
    for text, reason in ((str(raising), "RuntimeError: no luck (raising.py line 1)"),
                         (f"{needs}:Mind", "Mind() cannot be made without arguments")):
        parse_player(text)  # nothing is run by parsing
        with pytest.raises(SpecError) as info:
            load_player(text)
        assert reason in str(info.value), str(info.value)
        assert "\n" not in str(info.value)
