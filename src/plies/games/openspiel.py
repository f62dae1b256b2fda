"""OpenSpiel's games through the ``Game`` protocol (the optional ``openspiel`` extra).

Any OpenSpiel game that is sequential, deterministic, perfect-information, two-player and
zero-sum plays here: nim, dots and boxes, breakthrough, hex, connect four, chess ... States
are OpenSpiel states (``result`` clones before it applies, so a state handed to a search
never changes); actions are OpenSpiel's action ids. Utilities are scaled to [-1, 1].
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

#: How to install the extra, quoted in the error when OpenSpiel is missing.
INSTALL_HINT = "pip install 'plies[openspiel]'"


class OpenSpielError(ValueError):
    """An OpenSpiel game that cannot be loaded or cannot be played here; one line."""


class OpenSpielGame:
    """One OpenSpiel game, loaded by its OpenSpiel spec (``nim(pile_sizes=1;3;5)``)."""

    def __init__(self, spec: str) -> None:
        """Load ``spec`` with ``pyspiel.load_game``; refuse games the protocol cannot express."""
        try:
            import pyspiel
        except ImportError:
            raise OpenSpielError(f"OpenSpiel is not installed ({INSTALL_HINT})") from None
        if not spec:
            raise OpenSpielError("openspiel: needs a game name, e.g. openspiel:nim")
        try:
            game = pyspiel.load_game(spec)
        except pyspiel.SpielError as exc:
            reason = " ".join(str(exc).split())
            raise OpenSpielError(f"OpenSpiel cannot load it: {reason}") from None
        kind = game.get_type()
        refusals = []
        if game.num_players() != 2:
            refusals.append(f"{game.num_players()} players")
        if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            refusals.append("imperfect information")
        if kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
            refusals.append("chance moves")
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            refusals.append("simultaneous moves")
        if kind.utility != pyspiel.GameType.Utility.ZERO_SUM:
            refusals.append("not zero-sum")
        if refusals:
            raise OpenSpielError(
                f"{kind.short_name} has {', '.join(refusals)}; plies plays sequential, "
                "deterministic, perfect-information, two-player, zero-sum games"
            )
        self.spec = spec
        self.game = game
        self.name = kind.short_name
        #: Divides returns into [-1, 1].
        self.scale = max(abs(game.min_utility()), abs(game.max_utility())) or 1.0
        self._start = game.new_initial_state()

    def __repr__(self) -> str:
        """Show the OpenSpiel spec."""
        return f"OpenSpielGame({self.spec!r})"

    def initial_state(self) -> Any:
        """Return a fresh initial state."""
        return self.game.new_initial_state()

    def to_move(self, state: Any) -> int:
        """Return the player to move (after the end: the player who would have been next)."""
        player = state.current_player()
        if player >= 0:
            return int(player)
        # OpenSpiel names no mover at the end; any fixed choice is consistent, since every
        # search asks the utility for a named player.
        history = state.history()
        return len(history) % 2 if history else 0

    def actions(self, state: Any) -> Sequence[int]:
        """Return the legal action ids (none at the end)."""
        if state.is_terminal():
            return []
        return state.legal_actions()  # type: ignore[no-any-return]

    def result(self, state: Any, action: int) -> Any:
        """Return a clone of ``state`` with ``action`` applied."""
        child = state.clone()
        child.apply_action(action)
        return child

    def is_terminal(self, state: Any) -> bool:
        """Return whether the game is over."""
        return bool(state.is_terminal())

    def utility(self, state: Any, player: int) -> float:
        """Return ``player``'s return, scaled to [-1, 1]."""
        return float(state.returns()[player]) / self.scale

    def evaluate(self, state: Any, player: int) -> float:
        """Know nothing: OpenSpiel offers no heuristic."""
        return 0.0

    def key(self, state: Any) -> Hashable:
        """Return the player to move and the state's text (a perfect-information state's whole)."""
        return state.current_player(), str(state)

    def render(self, state: Any) -> str:
        """Return OpenSpiel's text of the state."""
        return str(state)

    def action_text(self, action: int) -> str:
        """Return OpenSpiel's name for ``action`` as the first player would play it."""
        try:
            return str(self._start.action_to_string(0, action))
        except Exception:  # some games name only actions legal in the state asked
            return str(action)

    def state_action_text(self, state: Any, action: int) -> str:
        """Return OpenSpiel's name for ``action`` played by the mover of ``state``."""
        return str(state.action_to_string(state.current_player(), action))

    def parse_action(self, state: Any, text: str) -> int:
        """Read an action id or OpenSpiel's name for a legal action."""
        wanted = text.strip()
        legal = self.actions(state)
        if wanted.lstrip("-").isdecimal() and int(wanted) in legal:
            return int(wanted)
        for action in legal:
            if self.state_action_text(state, action) == wanted:
                return action
        raise ValueError(f"not a legal action here: {wanted!r}")
