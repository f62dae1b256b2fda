"""The generic registry: names, typed options with defaults, one-line errors, entry points."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from plies.registry import SEED, Option, Registry, RegistryError, guess_value, parse_options


def _pair(depth: int, seed: int | None = None, movetime_ms: int = 0) -> tuple[int, int | None, int]:
    """A factory showing what it was given."""
    return depth, seed, movetime_ms


def _registry() -> Registry[tuple[int, int | None, int]]:
    """A registry with one entry taking a depth (default 2), a seed and a renamed option."""
    things: Registry[tuple[int, int | None, int]] = Registry("thing")
    things.add("pair", _pair, "a pair", Option("depth", int, 2, minimum=1), SEED,
               Option("movetime", int, minimum=1, arg="movetime_ms"), aliases=("twin",))
    return things


def test_defaults_conversion_and_renamed_arguments() -> None:
    things = _registry()
    assert things.make("pair") == (2, None, 0)
    assert things.make("PAIR", {"depth": "5", "seed": "-3", "movetime": 40}) == (5, -3, 40)
    assert things.make("twin", {"depth": 1}) == (1, None, 0)
    assert "twin" in things and "pair" in things and "other" not in things


@pytest.mark.parametrize(("name", "options", "message"), [
    ("trio", {}, "unknown thing 'trio' (choose from pair)"),
    ("pair", {"width": "2"}, "unknown option 'width' for pair (known: depth, movetime, seed)"),
    ("pair", {"depth": "deep"}, "option depth of pair must be an integer, not 'deep'"),
    ("pair", {"depth": "0"}, "option depth of pair must be at least 1, not 0"),
])
def test_bad_names_and_options_are_one_line(name: str, options: dict[str, str],
                                            message: str) -> None:
    with pytest.raises(RegistryError) as info:
        _registry().make(name, options)
    assert str(info.value) == message


def test_decorator_registers_and_lists_in_order() -> None:
    things = _registry()

    @things.register("solo", "one alone", Option("flag", bool, False))
    def solo(flag: bool) -> tuple[int, int | None, int]:
        """A second factory."""
        return (1 if flag else 0, None, 0)

    assert things.make("solo", {"flag": "true"}) == (1, None, 0)
    assert things.builtin_names() == ("pair", "solo")
    assert things.listing() == [
        ("pair", "a pair; depth=N (default 2), seed=N, movetime=N"),
        ("solo", "one alone; flag=true|false (default False)"),
    ]
    with pytest.raises(RegistryError, match="registered twice"):
        things.add("solo", solo, "again")
    things.remove("solo")
    assert things.builtin_names() == ("pair",)


def test_lazy_factory_text_imports_on_first_use() -> None:
    things: Registry[object] = Registry("thing")
    things.add("counter", "collections:Counter", "counts", open=True)
    assert things.make("counter", {"a": "2", "b": "x"}) == {"a": 2, "b": "x"}


def test_entry_points_join_the_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shapes.py").write_text("class Square:\n    def __init__(self, side=1):\n"
                                        "        self.side = side\nUNIT = Square()\n")
    info = tmp_path / "shapes-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shapes\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[plies.test_shapes]\nsquare = shapes:Square\nunit = shapes:UNIT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    shapes: Registry[Any] = Registry("shape", group="plies.test_shapes")
    assert shapes.names() == ("square", "unit")
    assert shapes.make("square", {"side": "3"}).side == 3
    assert shapes.make("unit").side == 1
    with pytest.raises(RegistryError, match="unit is an instance; it takes no options"):
        shapes.make("unit", {"side": "2"})
    assert shapes.listing()[0] == ("square", "installed by shapes: shapes:Square")


def test_option_text() -> None:
    assert parse_options(" depth = 3, seed=1 ") == {"depth": "3", "seed": "1"}
    assert parse_options("") == {}
    with pytest.raises(RegistryError, match="bad option 'depth': expected key=value"):
        parse_options("depth")
    assert [guess_value(t) for t in ("3", "0.5", "True", "x")] == [3, 0.5, True, "x"]


def test_traits_objects_and_the_loaders_error() -> None:
    """Traits name what an entry can do; objects pass as they are; errors are LoadErrors."""
    from plies.loader import LoadError

    things: Registry[tuple[object, ...]] = Registry("thing")
    things.add("pair", lambda depth=1, order=None: (depth, order), "a pair",
               Option("depth", int), traits=("tree",))
    things.add("solo", lambda: ("solo",), "alone")
    hook = object()
    assert things.make("pair", {"depth": "3"}, order=hook) == (3, hook)
    assert things.with_trait("tree") == ("pair",)
    assert things.key("PAIR") == "pair"
    with pytest.raises(LoadError, match="unknown thing"):
        things.key("trio")
    things.add("broken", "no_such_module_here:Thing", "lazily broken")
    with pytest.raises(LoadError, match="no module named 'no_such_module_here'"):
        things.make("broken")
