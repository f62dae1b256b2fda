"""The one loader of user code: files, modules, names in them and entry points."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from plies.loader import LoadError, load_entry_point, load_object, load_text


def test_files_and_modules(tmp_path: Path) -> None:
    """A file runs as a fresh module that can import its siblings; a module imports."""
    (tmp_path / "helper.py").write_text("ANSWER = 42\n")
    (tmp_path / "mind.py").write_text("from helper import ANSWER\n\ndef choose(b):\n"
                                      "    return ANSWER\n")
    choose = load_object("file", str(tmp_path / "mind.py"), "choose")
    assert callable(choose) and choose(None) == 42
    assert load_object("module", "json", "dumps")([1]) == "[1]"
    assert load_text("collections:Counter") is __import__("collections").Counter


@pytest.mark.parametrize(("kind", "target", "name", "message"), [
    ("file", "no_such.py", "choose", "no such file: no_such.py"),
    ("module", "no_such_module_here", "x", "no module named 'no_such_module_here'"),
    ("module", "json", "nothing", "json defines no nothing"),
])
def test_failures_are_one_line(kind: str, target: str, name: str, message: str) -> None:
    with pytest.raises(LoadError) as info:
        load_object(kind, target, name)
    assert str(info.value) == message


def test_a_file_that_fails_and_naming_the_spec(tmp_path: Path) -> None:
    """What went wrong inside, on one line; ``about`` names the spec."""
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no\\nway')\n")
    with pytest.raises(LoadError) as info:
        load_object("file", str(broken), "choose")
    assert str(info.value) == f"{broken} failed to run: RuntimeError: no way"
    assert str(info.value.about("x.py", "player")) == (
        f"player 'x.py': {broken} failed to run: RuntimeError: no way")


def test_entry_point_that_fails() -> None:
    entry = EntryPoint("bad", "no_such_module_here:Thing", "plies.games")
    with pytest.raises(LoadError, match="entry point no_such_module_here:Thing failed to load: "
                                        "ModuleNotFoundError"):
        load_entry_point(entry)
