"""The players the arena seats: the player protocol, the spec loader and the UCI player.

The protocol (:class:`Player`, :class:`MoveRequest`, :class:`MoveReply`,
:class:`PlayerError`) lives in :mod:`plies.agents.player`, the spec loader
(:func:`parse_player`, :class:`PlayerSpec`, :class:`SpecError`) in
:mod:`plies.agents.spec` and the outside UCI engine in :mod:`plies.agents.uci_engine`;
the arena and its callers import them from here.
"""

from __future__ import annotations

# Each name is imported "as" itself: the typing convention for a deliberate re-export.
from plies.agents.agent_player import AgentPlayer as AgentPlayer
from plies.agents.player import MATE_CP as MATE_CP
from plies.agents.player import MovePlayer as MovePlayer
from plies.agents.player import MoveReply as MoveReply
from plies.agents.player import MoveRequest as MoveRequest
from plies.agents.player import PlayerError as PlayerError
from plies.agents.spec import PlayerSpec as PlayerSpec
from plies.agents.spec import SpecError as SpecError
from plies.agents.spec import load_player as load_player
from plies.agents.spec import parse_player as parse_player
from plies.agents.uci_engine import READY_TIMEOUT_S as READY_TIMEOUT_S
from plies.agents.uci_engine import UciEngine as UciEngine
from plies.agents.uci_engine import refusal as refusal
from plies.agents.uci_engine import variant_refusal as variant_refusal

# The arena still seats players of the protocol plies.agents.player.Player replaces.
Player = MovePlayer
