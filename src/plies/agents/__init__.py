"""Players: the practical's ladder, the player protocol, the mind protocol and player specs.

Whatever sits at a board (a ladder player, a user's Python mind, a ``mind:``
program, a mind over HTTP, a UCI or xboard engine) is a
:class:`~plies.agents.player.Player`: ``play(board, limit) -> Info``, ``new_game(seed)``,
``stop()``, ``close()``.  Build a built-in one by name with :func:`make_player`
(``make_player("alphabeta", {"depth": 3}, seed=1)``) or from a spec string with
:func:`player_from_spec` (``"alphabeta:depth=3"``); a plain function ``board -> Move``
plays as a :class:`FunctionPlayer`.  Any spec (a file, a program, an engine) is parsed
by :func:`parse_player` and made by :meth:`PlayerSpec.create` (or :func:`start_player`,
which also tells it of a new game); a spec that cannot load raises :class:`SpecError`.
"""

from plies.agents.function_player import FunctionPlayer, as_function_player
from plies.agents.ladder import LadderPlayer
from plies.agents.mind import FORFEIT, action_move, mind_action, mind_answer, move_action
from plies.agents.player import Player, PlayerError
from plies.agents.registry import AGENT_NAMES, make_player, player_from_spec
from plies.agents.spec import PlayerSpec, SpecError, load_player, parse_player, start_player

__all__ = [
    "AGENT_NAMES",
    "FORFEIT",
    "FunctionPlayer",
    "LadderPlayer",
    "Player",
    "PlayerError",
    "PlayerSpec",
    "SpecError",
    "action_move",
    "as_function_player",
    "load_player",
    "make_player",
    "mind_action",
    "mind_answer",
    "move_action",
    "parse_player",
    "player_from_spec",
    "start_player",
]
