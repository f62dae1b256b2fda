"""Alpha-beta chooses exactly what minimax chooses at equal depth, visiting fewer nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.agents import make_player
from plies.board import Board
from plies.engine.limits import Info, Limit

DATA = Path(__file__).resolve().parents[1] / "data"

POSITIONS = [
    Board.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",  # back-rank mate in one
    "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",
]


def _score(info: Info | None) -> tuple[int | None, int | None]:
    """(centipawns, moves to mate) of a report, from the mover's side."""
    assert info is not None and info.score is not None
    score = info.score.relative
    return (None if score.is_mate() else score.score()), score.mate()


_BK = (DATA / "tactics" / "bratko-kopec.epd").read_text().splitlines()
POSITIONS += [" ".join(line.split()[:4]) + " 0 1" for line in _BK[:4] if line.strip()]


@pytest.mark.parametrize("fen", POSITIONS)
def test_same_choice_and_score_fewer_nodes(fen: str) -> None:
    totals = {"minimax": 0, "alphabeta": 0}
    for depth in (1, 2):
        mm = make_player("minimax", {"depth": depth})
        ab = make_player("alphabeta", {"depth": depth})
        board = Board(fen)
        i1, i2 = mm.play(board, Limit()), ab.play(board, Limit())
        assert i1.move == i2.move, (depth, i1.move, i2.move)
        assert _score(i1) == _score(i2)
        assert i2.nodes <= i1.nodes
        totals["minimax"] += i1.nodes
        totals["alphabeta"] += i2.nodes
    assert totals["alphabeta"] < totals["minimax"]


def test_depth_three_agreement_and_node_ratio() -> None:
    fen = Board.STARTING_FEN  # 9323 nodes for minimax, 744 for alpha-beta
    mm = make_player("minimax", {"depth": 3})
    ab = make_player("alphabeta", {"depth": 3})
    i1, i2 = mm.play(Board(fen), Limit()), ab.play(Board(fen), Limit())
    assert i1.move == i2.move
    assert _score(i1) == _score(i2)
    # Pruning cuts the tree by far more than half even where captures are rare.
    assert i2.nodes * 4 < i1.nodes, (i2.nodes, i1.nodes)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_choice_with_the_same_seed(seed: int) -> None:
    board = Board()
    mm = make_player("minimax", {"depth": 2}, seed=seed)
    ab = make_player("alphabeta", {"depth": 2}, seed=seed)
    assert mm.play(board, Limit()).move == ab.play(board, Limit()).move


def test_node_counts_are_exposed_and_accumulate() -> None:
    ab = make_player("alphabeta", {"depth": 2})
    first = ab.play(Board(), Limit()).nodes
    ab.play(Board(), Limit())
    assert first > 0 and ab.total_nodes == 2 * first  # type: ignore[attr-defined]
    ab.new_game()
    assert ab.total_nodes == 0  # type: ignore[attr-defined]


# The ladder's choices pinned: (position index, agent, depth, seed, move, score_cp, mate_in,
# nodes), as the agents played them before minimax and alpha-beta became the generic
# searches of plies.games. A change here changes the ladder.
PINNED = [
    (0, 'minimax', 1, None, 'b1c3', 50, None, 21),
    (0, 'minimax', 2, None, 'b1c3', 0, None, 421),
    (0, 'alphabeta', 2, None, 'b1c3', 0, None, 84),
    (0, 'alphabeta', 3, None, 'b1c3', 50, None, 744),
    (1, 'minimax', 1, None, 'f3e5', 130, None, 28),
    (1, 'minimax', 2, None, 'b1c3', 0, None, 863),
    (1, 'alphabeta', 2, None, 'b1c3', 0, None, 174),
    (1, 'alphabeta', 3, None, 'f1b5', 150, None, 1352),
    (2, 'minimax', 1, None, 'f3f6', 435, None, 49),
    (2, 'minimax', 2, None, 'e2a6', 65, None, 2088),
    (2, 'alphabeta', 2, None, 'e2a6', 65, None, 132),
    (2, 'alphabeta', 3, None, 'e2a6', 395, None, 2408),
    (3, 'minimax', 1, None, 'b4f4', 90, None, 15),
    (3, 'minimax', 2, None, 'b4f4', 70, None, 206),
    (3, 'alphabeta', 2, None, 'b4f4', 70, None, 30),
    (3, 'alphabeta', 3, None, 'b4f4', 110, None, 311),
    (4, 'minimax', 1, None, 'g5f6', 330, None, 47),
    (4, 'minimax', 2, None, 'g5f6', -5, None, 2126),
    (4, 'alphabeta', 2, None, 'g5f6', -5, None, 136),
    (4, 'alphabeta', 3, None, 'c3d5', 235, None, 2273),
    (5, 'minimax', 1, None, 'd1d8', None, 1, 21),
    (5, 'minimax', 2, None, 'd1d8', None, 1, 173),
    (5, 'alphabeta', 2, None, 'd1d8', None, 1, 54),
    (5, 'alphabeta', 3, None, 'd1d8', None, 1, 461),
    (6, 'minimax', 1, None, 'e1e2', 0, None, 4),
    (6, 'minimax', 2, None, 'e1e2', 0, None, 22),
    (6, 'alphabeta', 2, None, 'e1e2', 0, None, 6),
    (6, 'alphabeta', 3, None, 'e1e2', 0, None, 12),
    (7, 'minimax', 1, None, 'd7f5', -100, None, 41),
    (7, 'minimax', 2, None, 'd7c6', -220, None, 1805),
    (7, 'alphabeta', 2, None, 'd7c6', -220, None, 452),
    (7, 'alphabeta', 3, None, 'd6d4', -125, None, 1915),
    (8, 'minimax', 1, None, 'c3c6', 150, None, 34),
    (8, 'minimax', 2, None, 'f2e3', -30, None, 827),
    (8, 'alphabeta', 2, None, 'f2e3', -30, None, 160),
    (8, 'alphabeta', 3, None, 'f2e3', 180, None, 2226),
    (9, 'minimax', 1, None, 'd7g4', 20, None, 28),
    (9, 'minimax', 2, None, 'c8c7', -200, None, 1063),
    (9, 'alphabeta', 2, None, 'c8c7', -200, None, 206),
    (9, 'alphabeta', 3, None, 'c8b7', 45, None, 1785),
    (10, 'minimax', 1, None, 'c1e3', 125, None, 39),
    (10, 'minimax', 2, None, 'e2b5', 55, None, 1023),
    (10, 'alphabeta', 2, None, 'e2b5', 55, None, 160),
    (10, 'alphabeta', 3, None, 'e2b5', 385, None, 1551),
    (0, 'minimax', 2, 1, 'b1c3', 0, None, 421),
    (0, 'minimax', 2, 2, 'g1f3', 0, None, 421),
    (0, 'alphabeta', 2, 1, 'b1c3', 0, None, 85),
    (0, 'alphabeta', 2, 2, 'g1f3', 0, None, 102),
]


@pytest.mark.parametrize("case", PINNED, ids=lambda c: f"{c[0]}-{c[1]}-d{c[2]}-s{c[3]}")
def test_ladder_moves_scores_and_nodes_are_pinned(
    case: tuple[int, str, int, int | None, str, int | None, int | None, int],
) -> None:
    """Each player plays the same move with the same score after the same number of nodes."""
    index, agent, depth, seed, move, score, mate, nodes = case
    player = make_player(agent, {"depth": depth}, seed=seed)
    info = player.play(Board(POSITIONS[index]), Limit())
    assert player.last == info
    assert (info.move.uci(), *_score(info), info.nodes) == (move, score, mate, nodes)


@pytest.mark.parametrize(
    ("agent", "move", "depth", "score", "nodes"),
    [("alphabeta", "f1b5", 3, 150, 3000), ("minimax", "b1c3", 2, 0, 3000)],
)
def test_node_budget_deepening_is_pinned(
    agent: str, move: str, depth: int, score: int, nodes: int
) -> None:
    """A node limit stops the deepening at the same place, with the same answer (the
    meter counts the nodes searched, never more than the limit)."""
    player = make_player(agent, {"depth": 5})
    info = player.play(Board(POSITIONS[1]), Limit(nodes=3000))
    assert (info.move.uci(), info.depth, _score(info)[0], info.nodes) == (
        move, depth, score, nodes,
    )
