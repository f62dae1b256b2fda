"""The engine agent: the full plies engine (:class:`plies.engine.Engine`) as a ladder rung.

Everything the simple agents do, done properly: iterative deepening with
principal-variation search, quiescence, a transposition table and careful move
ordering, all compiled.  Its strength is set by a level (search depth), a node
count or a time per move; in a timed game it manages its own clock. With
``elo`` it plays as a weaker player of that rating (``plies.engine.strength``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.agents.base import Agent, Budget, Thought

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.engine import Engine, Info

# Without any limit the engine thinks this long per move (milliseconds).
DEFAULT_MOVETIME_MS = 1000


class EngineAgent(Agent):
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
        super().__init__(seed)
        if elo is not None:
            from plies.engine.strength import MAX_ELO, MIN_ELO

            if not MIN_ELO <= elo <= MAX_ELO:
                raise ValueError(f"elo must be between {MIN_ELO} and {MAX_ELO}, got {elo}")
        self.elo = elo
        self._seed = seed
        self.depth = depth if depth is not None else level
        self.nodes_limit = nodes
        self.movetime_ms = movetime_ms
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

    def reset(self, seed: int | None = None) -> None:
        """Start a new game: clear the engine's tables."""
        super().reset(seed)
        if self._engine is not None:
            self._engine.new_game()

    def limit_for(self, board: Board, budget: Budget | None) -> Any:
        """The :class:`plies.engine.Limit` for this move: own limits, then the game's."""
        from plies.board import WHITE
        from plies.engine import Limit

        b = budget or Budget()
        depth = self.depth if self.depth is not None else b.depth
        nodes = self.nodes_limit if self.nodes_limit is not None else b.nodes
        movetime = self.movetime_ms if self.movetime_ms is not None else b.movetime_ms
        if b.time_left_ms is None:
            if depth is None and nodes is None and movetime is None:
                movetime = DEFAULT_MOVETIME_MS
            return Limit(depth=depth, nodes=nodes, movetime=movetime)
        own, opp = b.time_left_ms, b.opponent_time_ms
        white = board.turn == WHITE
        return Limit(
            depth=depth,
            nodes=nodes,
            movetime=movetime,
            wtime=own if white else opp,
            btime=opp if white else own,
            winc=b.increment_ms,
            binc=b.increment_ms,
            movestogo=b.moves_to_go,
        )

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Search with the engine; report each finished iteration to ``on_info``."""
        moves = board.legal_moves
        if not moves:
            from plies.board import Move

            return Move.null()
        self._stop.clear()
        result = self.engine.search(board, self.limit_for(board, budget), on_info=self._info)
        move: Move | None = result.move
        if move is None or move not in moves:
            move = moves[0]  # never return an illegal or null move while a legal one exists
        if result.score is not None:
            self.last = _thought(result)
        return move

    def _info(self, info: Info) -> None:
        """Forward one iteration's info as a :class:`Thought`."""
        self.last = _thought(info)
        if self.on_info is not None:
            self.on_info(self.last)

    def stop(self) -> None:
        """Stop the engine's current search."""
        super().stop()
        if self._engine is not None:
            self._engine.stop()


def _thought(info: Info) -> Thought:
    """Convert an engine :class:`Info` into a :class:`Thought`."""
    return Thought(
        depth=info.depth,
        score_cp=info.score_cp,
        mate_in=info.score_mate,
        nodes=info.nodes,
        pv=list(info.pv),
    )
