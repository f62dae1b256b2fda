"""Registries: things plies makes by name (players, games, search algorithms, path finders).

A :class:`Registry` maps a name to a factory, with the options the factory takes (typed,
with defaults, checked with a one-line error) and a help line. Built-ins register with
one line, either a decorator on the class or function::

    @PLAYERS.register("random", "a random legal move", SEED)
    class RandomPlayer(LadderPlayer): ...

or, where importing the module must wait until the name is used, a ``module:attr`` text::

    PLAYERS.add("engine", "plies.agents.engine_agent:EnginePlayer", "the plies engine", ...)

Installed packages add names through the registry's entry-point group (``plies.players``,
``plies.games``, ``plies.searches``); the registry lists them beside the built-ins, for
``--help`` texts and ``plies players``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from plies.loader import LoadError, load_entry_point, load_text

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class RegistryError(LoadError):
    """An unknown name or a bad option; the message is one line naming it and why."""


def parse_options(text: str) -> dict[str, str]:
    """Parse ``key=value,key=value`` into a dict (keys stripped, values kept as text)."""
    options: dict[str, str] = {}
    if not text.strip():
        return options
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RegistryError(f"bad option {item.strip()!r}: expected key=value")
        options[key] = value.strip()
    return options


def guess_value(text: str) -> int | float | bool | str:
    """An option's text as an int, float or bool where it reads as one, else the text."""
    for kind in (int, float):
        try:
            return kind(text)  # type: ignore[no-any-return]
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


@dataclass(frozen=True)
class Option:
    """One option an entry takes: its type, default, lowest value and the keyword it is
    passed as (``movetime`` given as the factory's ``movetime_ms``)."""

    name: str
    kind: type = int
    default: Any = None
    minimum: int | float | None = None
    arg: str = ""
    help: str = ""

    def convert(self, owner: str, value: object) -> object:
        """``value`` (text or already typed) as this option's type; RegistryError if not."""
        if self.kind is bool and isinstance(value, str):
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise RegistryError(f"option {self.name} of {owner} must be true or false, "
                                    f"not {value!r}")
            return value.lower() in ("true", "1", "yes")
        try:
            typed = self.kind(value)
        except (TypeError, ValueError):
            word = {"int": "integer", "float": "number", "str": "text"}.get(
                self.kind.__name__, self.kind.__name__)
            article = "an" if word[0] in "aeiou" else "a"
            raise RegistryError(f"option {self.name} of {owner} must be {article} {word}, "
                                f"not {value!r}") from None
        if self.minimum is not None and typed < self.minimum:
            raise RegistryError(f"option {self.name} of {owner} must be at least "
                                f"{self.minimum}, not {typed}")
        return typed

    def usage(self) -> str:
        """``depth=N (default 2)``: how the option is written, for help texts."""
        shown = {int: "N", float: "X", bool: "true|false"}.get(self.kind, "TEXT")
        text = f"{self.name}={shown}"
        return text if self.default is None else f"{text} (default {self.default})"


#: The seed option every randomised player takes (the game's seed when not given).
SEED = Option("seed", int, help="the random seed")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered name: its factory (or ``module:attr`` text, imported when first
    used), help line and options. ``open`` entries take any ``key=value`` option as is.
    ``traits`` are words a kind's users ask about (``tree``: a game search whose tree
    can be drawn)."""

    name: str
    factory: Callable[..., T] | T | str
    help: str
    options: tuple[Option, ...] = ()
    open: bool = False
    origin: str = "built-in"
    entry_point: EntryPoint | None = field(default=None, compare=False)
    traits: frozenset[str] = frozenset()

    def load(self) -> Callable[..., T] | T:
        """The factory (or the ready object) itself, importing its module if it was named
        as text."""
        if not isinstance(self.factory, str):
            return self.factory
        if self.entry_point is not None:
            return load_entry_point(self.entry_point)  # type: ignore[return-value]
        return load_text(self.factory)  # type: ignore[return-value]

    def option_names(self) -> tuple[str, ...]:
        """The options this entry takes, sorted."""
        return tuple(sorted(option.name for option in self.options))

    def arguments(self, given: Mapping[str, object]) -> dict[str, object]:
        """The factory's keyword arguments: ``given`` checked and typed, defaults filled."""
        known = {option.name: option for option in self.options}
        out: dict[str, object] = {}
        for key, value in given.items():
            option = known.get(key)
            if option is None:
                if not self.open:
                    names = ", ".join(self.option_names()) or "none"
                    raise RegistryError(f"unknown option {key!r} for {self.name} "
                                        f"(known: {names})")
                out[key] = guess_value(value) if isinstance(value, str) else value
            else:
                out[option.arg or key] = option.convert(self.name, value)
        for option in self.options:
            if option.default is not None:
                out.setdefault(option.arg or option.name, option.default)
        return out

    def make(self, given: Mapping[str, object] | None = None, **objects: object) -> T:
        """Call the factory with ``given`` options (and ``objects``, passed as they are: an
        ordering hook, a random generator); an object that is not callable (an installed
        game instance) is returned as it is, and takes no options."""
        arguments = self.arguments(given or {})
        factory = self.load()
        if not callable(factory):
            if arguments:
                raise RegistryError(f"{self.name} is an instance; it takes no options")
            return factory  # type: ignore[return-value]
        made: T = factory(**arguments, **objects)
        return made

    def usage(self) -> str:
        """The help line followed by the options, for listings."""
        if not self.options:
            return self.help
        return f"{self.help}; {', '.join(o.usage() for o in self.options)}"


class Registry(Generic[T]):
    """Names -> factories of one kind (``player``, ``game``, ``algorithm``)."""

    def __init__(self, kind: str, group: str | None = None) -> None:
        """An empty registry of ``kind`` things, also fed by entry-point ``group``."""
        self.kind = kind
        self.group = group
        self._entries: dict[str, Entry[T]] = {}
        self._aliases: dict[str, str] = {}

    def add(self, name: str, factory: Callable[..., T] | T | str, help: str,
            *options: Option, aliases: Sequence[str] = (), open: bool = False,
            traits: Sequence[str] = ()) -> Entry[T]:
        """Register ``factory`` (or its ``module:attr``, or a ready object that is not
        callable, made as it is) as ``name``; returns the entry."""
        key = name.lower()
        if key in self._entries:
            raise RegistryError(f"{self.kind} {name!r} is registered twice")
        entry = Entry(key, factory, help, tuple(options), open, traits=frozenset(traits))
        self._entries[key] = entry
        for alias in aliases:
            self._aliases[alias.lower()] = key
        return entry

    def register(self, name: str, help: str, *options: Option, aliases: Sequence[str] = (),
                 open: bool = False, traits: Sequence[str] = ()) -> Callable[[F], F]:
        """A decorator registering the class or function it decorates as ``name``."""

        def decorate(factory: F) -> F:
            """Register ``factory`` and hand it back unchanged."""
            self.add(name, factory, help, *options, aliases=aliases, open=open, traits=traits)
            return factory

        return decorate

    def remove(self, name: str) -> None:
        """Forget ``name`` (a test's or a session's own registration)."""
        key = name.lower()
        self._entries.pop(key, None)
        self._aliases = {a: n for a, n in self._aliases.items() if n != key}

    def installed(self) -> dict[str, EntryPoint]:
        """The entry points installed packages register in this registry's group, by name."""
        if self.group is None:
            return {}
        return {ep.name: ep for ep in entry_points(group=self.group)}

    def builtin_names(self) -> tuple[str, ...]:
        """The names plies itself registers, in registration order."""
        return tuple(self._entries)

    def names(self) -> tuple[str, ...]:
        """Every name: the built-ins, then the installed ones (sorted)."""
        extra = sorted(n for n in self.installed() if n not in self._entries)
        return (*self._entries, *extra)

    def __contains__(self, name: object) -> bool:
        """True if ``name`` (or an alias) is a built-in or an installed name."""
        if not isinstance(name, str):
            return False
        key = self._aliases.get(name.lower(), name.lower())
        return key in self._entries or name in self.installed()

    def __iter__(self) -> Iterator[Entry[T]]:
        """The built-in entries, in registration order."""
        return iter(tuple(self._entries.values()))

    def get(self, name: str) -> Entry[T]:
        """The entry called ``name`` (or an alias); RegistryError listing the choices."""
        key = self._aliases.get(name.strip().lower(), name.strip().lower())
        entry = self._entries.get(key)
        if entry is not None:
            return entry
        installed = self.installed().get(name.strip())
        if installed is not None:
            dist = installed.dist.name if installed.dist is not None else "?"
            return Entry(installed.name, installed.value, f"installed by {dist}: "
                         f"{installed.value}", (), True, f"installed by {dist}", installed)
        raise RegistryError(f"unknown {self.kind} {name.strip()!r} "
                            f"(choose from {', '.join(self.names())})")

    def make(self, name: str, options: Mapping[str, object] | None = None,
             **objects: object) -> T:
        """Make ``name`` with ``options`` (text or typed values) and ``objects`` (passed as
        they are): the one way to build one."""
        return self.get(name).make(options, **objects)

    def key(self, name: str) -> str:
        """The registered name ``name`` (or an alias) stands for; RegistryError if none."""
        return self.get(name).name

    def with_trait(self, trait: str) -> tuple[str, ...]:
        """The built-in names whose entries have ``trait``, in registration order."""
        return tuple(e.name for e in self._entries.values() if trait in e.traits)

    def listing(self) -> list[tuple[str, str]]:
        """(name, help with options) for every name: the built-ins, then the installed."""
        return [(name, self.get(name).usage()) for name in self.names()]
