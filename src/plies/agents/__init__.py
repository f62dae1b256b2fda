"""Players: the practical's ladder, the player protocol, the mind protocol and player specs.

Every agent follows :class:`plies.agents.base.Agent`: ``choose(board) -> Move``,
a ``name`` and ``reset(seed)`` between games.  Build one by name with
:func:`make_agent` (``make_agent("alphabeta", {"depth": 3}, seed=1)``) or from a
spec string with :func:`agent_from_spec` (``"alphabeta:depth=3"``).

Whatever sits at a board (a ladder agent, a user's Python mind, a ``mind:``
program, a mind over HTTP, a UCI or xboard engine) is a
:class:`~plies.agents.player.Player`, made from a spec by :func:`parse_player`
and :meth:`PlayerSpec.create` (or :func:`load_player`, which also starts it
once); a spec that cannot load raises :class:`SpecError`.
"""

from plies.agents.base import Agent, Budget, FunctionAgent, Thought, as_agent
from plies.agents.mind import FORFEIT, Mind, action_move, mind_action, move_action
from plies.agents.player import MovePlayer, MoveReply, MoveRequest, Player, PlayerError
from plies.agents.registry import AGENT_NAMES, agent_from_spec, make_agent
from plies.agents.spec import PlayerSpec, SpecError, load_agent, load_player, parse_player

__all__ = [
    "AGENT_NAMES",
    "FORFEIT",
    "Agent",
    "Budget",
    "FunctionAgent",
    "Mind",
    "MovePlayer",
    "MoveReply",
    "MoveRequest",
    "Player",
    "PlayerError",
    "PlayerSpec",
    "SpecError",
    "Thought",
    "action_move",
    "agent_from_spec",
    "as_agent",
    "load_agent",
    "load_player",
    "make_agent",
    "mind_action",
    "move_action",
    "parse_player",
]
