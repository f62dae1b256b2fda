"""The agent ladder: random, capture, minimax, alpha-beta and the full engine.

Every agent follows :class:`plies.agents.base.Agent`: ``choose(board) -> Move``,
a ``name`` and ``reset(seed)`` between games.  Build one by name with
:func:`make_agent` (``make_agent("alphabeta", {"depth": 3}, seed=1)``) or from a
spec string with :func:`agent_from_spec` (``"alphabeta:depth=3"``).
"""

from plies.agents.base import Agent, Budget, FunctionAgent, Thought, as_agent
from plies.agents.mind import FORFEIT, Mind, mind_action
from plies.agents.registry import AGENT_NAMES, agent_from_spec, make_agent

__all__ = [
    "AGENT_NAMES",
    "FORFEIT",
    "Agent",
    "Budget",
    "FunctionAgent",
    "Mind",
    "Thought",
    "agent_from_spec",
    "as_agent",
    "make_agent",
    "mind_action",
]
