"""The built-in players by name, e.g. ``alphabeta`` or ``alphabeta:depth=3,seed=7``.

Adding a player is its module and one line here. Each line names the factory as
``module:attr`` text so that naming a player imports only that player's module (the
searching ones pull in the compiled evaluation). Installed packages add players through
the ``plies.players`` entry-point group (see :mod:`plies.agents.spec`).
"""

from __future__ import annotations

from collections.abc import Mapping

from plies.agents.player import Player
from plies.registry import SEED, Option, Registry

#: Every player plies can make by name; the spec parser, ``plies players`` and the help
#: texts read it.
PLAYERS: Registry[Player] = Registry("player", group="plies.players")


def _limit(name: str, default: int | None = None, arg: str = "", help: str = "") -> Option:
    """A positive integer option (a depth, a node count, milliseconds)."""
    return Option(name, int, default, minimum=1, arg=arg, help=help)


PLAYERS.add("random", "plies.agents.random_agent:RandomPlayer", "a random legal move", SEED)
PLAYERS.add("capture", "plies.agents.capture:CapturePlayer",
            "a random capture if there is one, else a random move", SEED)
PLAYERS.add("minimax", "plies.agents.minimax:MinimaxPlayer",
            "minimax over material and piece-square tables", _limit("depth", 2), SEED)
PLAYERS.add("alphabeta", "plies.agents.alphabeta:AlphaBetaPlayer",
            "alpha-beta, same evaluation", _limit("depth", 4), SEED)
PLAYERS.add("engine", "plies.agents.engine_agent:EnginePlayer", "the plies engine",
            _limit("depth"), _limit("nodes"), _limit("movetime", arg="movetime_ms"),
            _limit("level"), _limit("elo"), _limit("hash", 16, arg="hash_mb"), SEED)

#: The built-in players' names, in ladder order.
AGENT_NAMES: tuple[str, ...] = PLAYERS.builtin_names()


def builtin_forms() -> list[str]:
    """Each built-in player as a spec writes it: ``random``, ``minimax[:depth=N]``, ..."""
    forms = []
    for entry in PLAYERS:
        options = [o.usage().split(" ")[0] for o in entry.options if o.name != "seed"]
        forms.append(entry.name + (f"[:{','.join(options)}]" if options else ""))
    return forms


def make_player(
    name: str, options: Mapping[str, str | int] | None = None, seed: int | None = None
) -> Player:
    """Create the player called ``name`` with ``options``; an explicit seed option wins.

    The limits among ``options`` (``depth``, ``nodes``, ``movetime``, ``level``) are the
    player's own: they win over the limit a game gives it.
    """
    from plies.agents.ladder import LadderPlayer

    given: dict[str, object] = dict(options or {})
    if seed is not None:
        given.setdefault("seed", seed)
    player = PLAYERS.make(name, given)
    if isinstance(player, LadderPlayer):
        player.fix("depth" if key == "level" else key for key in given)
    return player


def player_from_spec(spec: str, seed: int | None = None) -> Player:
    """Create a built-in player from ``name[:key=value,...]``."""
    from plies.registry import parse_options

    name, _, rest = spec.partition(":")
    return make_player(name, parse_options(rest), seed)
