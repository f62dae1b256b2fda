"""Protocol checks for any game: seeded random playouts that look for every breach of ``Game``.

A search trusts the game: an empty action list before the end, a ``result`` that changes
its input, a utility outside [-1, 1] or a key that differs between equal states gives
wrong answers without any error. :func:`check_game` plays random games and reports each
kind of breach once, with the first state that shows it and the line that reaches it.
"""

from __future__ import annotations

import copy
import math
import numbers
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from plies.games.protocol import TextGame

#: The kinds of breach, in the order they are reported, with what each means.
KINDS = {
    "error": "a game method raised",
    "to-move": "to_move is not 0 or 1",
    "no-actions": "an empty action list before the end",
    "actions-at-end": "actions offered after the end",
    "mutates": "result changed its input state",
    "utility": "utility outside [-1, 1]",
    "evaluate": "evaluate outside (-1, 1)",
    "key": "key unequal for equal states",
    "no-end": "a game that never ends within the bound",
}


@dataclass(frozen=True)
class Breach:
    """The first sighting of one kind of breach."""

    #: One of :data:`KINDS`.
    kind: str
    #: What exactly went wrong, one line.
    detail: str
    #: The game's picture of the state that shows it.
    picture: str
    #: The actions from the initial state that reach it, as text.
    line: tuple[str, ...]
    #: Which playout (from 1) found it.
    playout: int


@dataclass
class CheckReport:
    """What :func:`check_game` saw: playouts, plies, breaches (first of each kind, counted)."""

    playouts: int = 0
    plies: int = 0
    seed: int = 0
    max_plies: int = 0
    breaches: dict[str, Breach] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether no breach was seen."""
        return not self.breaches

    def add(self, breach: Breach) -> None:
        """Count ``breach``; keep it if it is the first of its kind."""
        self.breaches.setdefault(breach.kind, breach)
        self.counts[breach.kind] = self.counts.get(breach.kind, 0) + 1

    def ordered(self) -> list[Breach]:
        """Return the breaches in :data:`KINDS` order."""
        return [self.breaches[k] for k in KINDS if k in self.breaches]


class _PlayoutOverError(Exception):
    """Ends the current playout after a breach that leaves nothing sound to continue from."""


def check_game(
    game: TextGame[Any, Any], playouts: int = 100, seed: int = 1, max_plies: int = 1000
) -> CheckReport:
    """Play ``playouts`` random games from ``seed``, each cut at ``max_plies``; report breaches."""
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    if max_plies < 1:
        raise ValueError(f"max_plies must be at least 1, not {max_plies}")
    rng = random.Random(seed)
    report = CheckReport(seed=seed, max_plies=max_plies)
    for number in range(1, playouts + 1):
        report.playouts += 1
        _playout(game, rng, report, number, max_plies)
    return report


def _playout(
    game: TextGame[Any, Any], rng: random.Random, report: CheckReport, number: int, max_plies: int
) -> None:
    """Play one random game, recording every breach met on the way."""
    line: list[str] = []
    state: Any = None

    def breach(kind: str, detail: str, at: Any = None, picture: str | None = None) -> None:
        """Record a breach shown by ``at`` (the current state unless given)."""
        if picture is None:
            picture = _picture(game, state if at is None else at)
        report.add(Breach(kind, detail, picture, tuple(line), number))

    def call(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Call a game method; a raised exception is a breach that ends the playout."""
        try:
            return fn(*args)
        except Exception as exc:
            breach("error", f"{name} raised {type(exc).__name__}: {' '.join(str(exc).split())}")
            raise _PlayoutOverError from None

    try:
        state = call("initial_state", game.initial_state)
        for _ in range(max_plies):
            mover = call("to_move", game.to_move, state)
            if mover not in (0, 1):
                breach("to-move", f"to_move returned {mover!r}")
                return
            if call("is_terminal", game.is_terminal, state):
                _check_end(game, state, breach, call)
                return
            _check_evaluate(game, state, breach, call)
            actions = list(call("actions", game.actions, state))
            if not actions:
                breach("no-actions", "actions returned nothing but is_terminal is False")
                return
            _check_key_of_copy(game, state, breach, call)
            action = rng.choice(actions)
            text = _action_text(game, action)
            before = _fingerprint(game, state)
            child = call("result", game.result, state, action)
            after = _fingerprint(game, state)
            if after != before:
                breach("mutates", f"result(state, {text}) changed the state it was given "
                                  "(shown as it was before)", picture=before[0])
                report.plies += 1
                return
            twin = call("result", game.result, state, action)
            key_a, key_b = call("key", game.key, child), call("key", game.key, twin)
            if key_a != key_b:
                line.append(text)
                breach("key", f"two calls of result(state, {text}) gave keys {_short(key_a)} "
                              f"and {_short(key_b)}", at=child)
                return
            line.append(text)
            state = child
            report.plies += 1
        breach("no-end", f"not over after {max_plies} plies (raise the bound if it is too low)")
    except _PlayoutOverError:
        return


def _check_end(game: TextGame[Any, Any], state: Any, breach: Any, call: Any) -> None:
    """At the end: no actions, and a utility in [-1, 1] for both players."""
    left = list(call("actions", game.actions, state))
    if left:
        breach("actions-at-end", f"is_terminal is True but actions lists {len(left)}")
    for player in (0, 1):
        value = call("utility", game.utility, state, player)
        if not _number(value) or not -1.0 <= value <= 1.0:
            breach("utility", f"utility(state, {player}) = {value!r}")


def _check_evaluate(game: TextGame[Any, Any], state: Any, breach: Any, call: Any) -> None:
    """Before the end: the heuristic stays strictly inside (-1, 1), where proofs cannot be."""
    for player in (0, 1):
        value = call("evaluate", game.evaluate, state, player)
        if not _number(value) or not -1.0 < value < 1.0:
            breach("evaluate", f"evaluate(state, {player}) = {value!r}")


def _check_key_of_copy(game: TextGame[Any, Any], state: Any, breach: Any, call: Any) -> None:
    """The key must be hashable and the same for a deep copy of the state."""
    key = call("key", game.key, state)
    try:
        hash(key)
    except TypeError:
        breach("key", f"key returned an unhashable {type(key).__name__}")
        return
    try:
        twin = copy.deepcopy(state)
    except Exception:  # a state that cannot be copied is checked by the result twins only
        return
    other = call("key", game.key, twin)
    if other != key:
        breach("key", f"a copy of the state has key {_short(other)}, the state {_short(key)}")


def _fingerprint(game: TextGame[Any, Any], state: Any) -> tuple[str, str, Any]:
    """Return what a state looks like from outside: its picture, key and a deep copy."""
    try:
        snapshot: Any = copy.deepcopy(state)
    except Exception:
        snapshot = None
    if snapshot is not None and vars(object)["__eq__"] is getattr(type(state), "__eq__", None):
        snapshot = None  # identity equality would report every copy as a change
    return _picture(game, state), repr(_safe_key(game, state)), _Equal(snapshot)


class _Equal:
    """Compares a deep copy by the state's own equality (or not at all when there is none)."""

    def __init__(self, snapshot: Any) -> None:
        """Hold the copy."""
        self.snapshot = snapshot

    def __eq__(self, other: object) -> bool:
        """Equal unless both hold copies that differ."""
        if not isinstance(other, _Equal) or self.snapshot is None or other.snapshot is None:
            return True
        try:
            return bool(self.snapshot == other.snapshot)
        except Exception:
            return True

    def __hash__(self) -> int:
        """Unhashable in spirit; a constant keeps tuples of it hashable."""
        return 0


def _safe_key(game: TextGame[Any, Any], state: Any) -> Hashable:
    """Return the key, or a marker when it raises (reported elsewhere)."""
    try:
        return game.key(state)
    except Exception:
        return "<key raised>"


def _picture(game: TextGame[Any, Any], state: Any) -> str:
    """Return the game's picture of ``state``, or its repr if rendering fails."""
    try:
        return str(game.render(state))
    except Exception:
        return repr(state)


def _action_text(game: TextGame[Any, Any], action: Any) -> str:
    """Return an action's text, or its repr if the game cannot write it."""
    try:
        return str(game.action_text(action))
    except Exception:
        return repr(action)


def _number(value: Any) -> bool:
    """Return whether ``value`` is a real, finite number."""
    return (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    )


def _short(value: Any) -> str:
    """Return a repr cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
