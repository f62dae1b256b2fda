"""The players the arena seats: the player protocol, the spec loader and the UCI player.

The protocol (:class:`Player`, :class:`MoveRequest`, :class:`MoveReply`,
:class:`PlayerError`) lives in :mod:`plies.agents.player`, the spec loader
(:func:`parse_player`, :class:`PlayerSpec`, :class:`SpecError`) in
:mod:`plies.agents.spec` and the outside UCI engine in :mod:`plies.agents.uci_player`;
the arena and its callers import them from here.
"""

from __future__ import annotations

from plies.agents.agent_player import AgentPlayer
from plies.agents.player import MATE_CP, MoveReply, MoveRequest, Player, PlayerError
from plies.agents.spec import PlayerSpec, SpecError, load_player, parse_player
from plies.agents.uci_player import (
    READY_TIMEOUT_S,
    UciPlayer,
    configure_checked,
    refusal,
    variant_refusal,
)

__all__ = [
    "MATE_CP",
    "READY_TIMEOUT_S",
    "AgentPlayer",
    "MoveReply",
    "MoveRequest",
    "Player",
    "PlayerError",
    "PlayerSpec",
    "SpecError",
    "UciPlayer",
    "configure_checked",
    "load_player",
    "parse_player",
    "refusal",
    "variant_refusal",
]
