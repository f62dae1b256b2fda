"""Monte Carlo tree search with the UCT selection rule and random playouts."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Generic

from plies.engine.limits import Info, Limit, Meter
from plies.games.protocol import A, Game, S
from plies.games.report import report

#: The classic UCT exploration constant, for rewards scaled to [0, 1].
EXPLORATION = math.sqrt(2.0)


@dataclass(slots=True, eq=False)
class _Node(Generic[S, A]):
    """One state in the search tree, with the statistics of the playouts through it."""

    state: S
    parent: _Node[S, A] | None
    action: A | None
    #: The player who chose ``action``: rewards here are counted for them.
    mover: int
    untried: list[A]
    children: list[_Node[S, A]] = field(default_factory=list)
    visits: int = 0
    #: Sum of playout rewards for ``mover``, each in [-1, 1].
    total: float = 0.0

    def mean(self) -> float:
        """Return the average reward for ``mover``, in [-1, 1]."""
        return self.total / self.visits if self.visits else 0.0

    def best_child(self, c: float) -> _Node[S, A]:
        """Return the child with the highest upper confidence bound (UCT)."""
        log_n = math.log(self.visits)
        best = self.children[0]
        best_score = -math.inf
        for child in self.children:
            # The mean is mapped from [-1, 1] to [0, 1], the scale UCT's constant assumes.
            score = (child.total / child.visits + 1.0) / 2.0 + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def most_visited(self) -> _Node[S, A]:
        """Return the child searched most often (the robust final choice)."""
        return max(self.children, key=lambda n: n.visits)


def mcts(
    game: Game[S, A],
    state: S,
    iterations: int | None = None,
    limit: Limit | None = None,
    exploration: float = EXPLORATION,
    rng: random.Random | None = None,
    meter: Meter | None = None,
) -> Info:
    """Search ``state`` by UCT for ``iterations`` playouts and/or within ``limit``'s time
    or nodes (player 0's clock is ``wtime``, player 1's ``btime``).

    Each iteration walks down the tree by the UCT rule, adds one new state, plays random
    moves to the end and credits the result to every state on the way. The answer is the
    most visited action; its value is its mean playout result for the player to move, in
    [-1, 1]. At least one iteration runs; ``meter`` (made from ``limit`` if not given)
    lets the caller ``stop()`` the search after the iteration it is in. Pass a seeded
    ``rng`` for repeatable searches.
    """
    me = game.to_move(state)
    if meter is None:
        meter = Meter(limit, me == 0)
    if iterations is None and not meter.limited:
        raise ValueError("mcts needs a limit: iterations, a time or nodes")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be >= 1, not {iterations}")
    rng = rng if rng is not None else random.Random()
    if game.is_terminal(state):
        return report(game.utility(state, me), exact=True)

    root: _Node[S, A] = _Node(state, None, None, 1 - me, _shuffled(game, state, rng))
    done = 0
    max_depth = 0
    while True:
        # Step 1: selection, down fully expanded nodes.
        node = root
        depth = 0
        meter.nodes += 1
        while not node.untried and node.children:
            node = node.best_child(exploration)
            depth += 1
            meter.nodes += 1
        # Step 2: expansion, one untried action.
        if node.untried:
            action = node.untried.pop()
            child_state = game.result(node.state, action)
            child = _Node(
                child_state,
                node,
                action,
                game.to_move(node.state),
                _shuffled(game, child_state, rng),
            )
            node.children.append(child)
            node = child
            depth += 1
            meter.nodes += 1
        max_depth = max(max_depth, depth)
        # Step 3: simulation, random moves to the end.
        playout = node.state
        while not game.is_terminal(playout):
            playout = game.result(playout, rng.choice(game.actions(playout)))
            meter.nodes += 1
        rewards = (game.utility(playout, 0), game.utility(playout, 1))
        # Step 4: backpropagation, each node credited from its mover's side.
        back: _Node[S, A] | None = node
        while back is not None:
            back.visits += 1
            back.total += rewards[back.mover]
            back = back.parent
        done += 1
        if (iterations is not None and done >= iterations) or meter.spent():
            break

    chosen = root.most_visited()
    pv: list[A] = []
    walk = root
    while walk.children:
        walk = walk.most_visited()
        assert walk.action is not None
        pv.append(walk.action)
    return report(
        chosen.mean(),
        pv,
        nodes=meter.nodes,
        seconds=meter.elapsed(),
        depth=max_depth,
        iterations=done,
    )


def _shuffled(game: Game[S, A], state: S, rng: random.Random) -> list[A]:
    """Return the actions of ``state`` in random order (expansion pops from the end)."""
    actions = [] if game.is_terminal(state) else list(game.actions(state))
    rng.shuffle(actions)
    return actions
