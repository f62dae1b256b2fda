"""The engine player: the full plies engine (:class:`plies.engine.Engine`) as a ladder rung.

Everything the simple agents do, done properly: iterative deepening with
principal-variation search, quiescence, a transposition table and careful move
ordering, all compiled.  Its strength is set by a level (search depth), a node
count or a time per move; in a timed game it manages its own clock. With
``elo`` it plays as a weaker player of that rating (``plies.engine.strength``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from plies.agents.ladder import LadderPlayer
from plies.engine.limits import DEFAULT_MOVETIME_MS, Info, Limit

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine import Engine

class EnginePlayer(LadderPlayer):
    """Wraps :class:`plies.engine.Engine`, created on first use."""

    name = "engine"

    def __init__(
        self,
        depth: int | None = None,
        nodes: int | None = None,
        movetime_ms: int | None = None,
        level: int | None = None,
        hash_mb: int = 16,
        seed: int | None = None,
        elo: int | None = None,
    ) -> None:
        """Own limits win over the game's; ``level`` N means depth N; ``elo`` limits strength."""
        super().__init__(seed, depth=depth if depth is not None else level, nodes=nodes,
                         movetime=movetime_ms)
        if elo is not None:
            from plies.engine.strength import MAX_ELO, MIN_ELO

            if not MIN_ELO <= elo <= MAX_ELO:
                raise ValueError(f"elo must be between {MIN_ELO} and {MAX_ELO}, got {elo}")
        self.elo = elo
        self._seed = seed
        self.hash_mb = hash_mb
        self._engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        """The engine instance (created and warmed up on first use)."""
        if self._engine is None:
            from plies.engine import Engine

            self._engine = Engine(self.hash_mb)
            if self.elo is not None:
                self._engine.limit_strength = True
                self._engine.set_elo(self.elo)
                self._engine.seed(self._seed)
        return self._engine

    def warm_up(self) -> None:
        """Compile the engine now (the first search would otherwise pay for it)."""
        self.engine.warm_up()

    def new_game(self, seed: int | None = None) -> None:
        """Start a new game: clear the engine's tables."""
        super().new_game(seed)
        if self._engine is not None:
            self._engine.new_game()

    def limit_for(self, limit: Limit | None) -> Limit:
        """The engine's limit for this move: own limits, then the game's; a move time
        when nothing at all bounds the search."""
        limit = super().limit_for(limit)
        if limit.is_unbounded() and not limit.infinite:
            limit = replace(limit, movetime=DEFAULT_MOVETIME_MS)
        return limit

    def play(self, board: Board, limit: Limit | None = None) -> Info:
        """Search with the engine; report each finished iteration to ``on_info``."""
        moves = board.legal_moves
        if not moves:
            return self.report(Info())
        result = self.engine.search(board, self.limit_for(limit), on_info=self.on_info)
        move = result.move
        if move is None or move not in moves:
            move = moves[0]  # never return an illegal or no move while a legal one exists
        self.last = replace(result, move=move)
        return self.last

    def stop(self) -> None:
        """Stop the engine's current search."""
        if self._engine is not None:
            self._engine.stop()
