"""Alpha-beta chooses exactly what minimax chooses at equal depth, visiting fewer nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.agents import make_agent
from plies.board import Board

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
_BK = (DATA / "tactics" / "bratko-kopec.epd").read_text().splitlines()
POSITIONS += [" ".join(line.split()[:4]) + " 0 1" for line in _BK[:4] if line.strip()]


@pytest.mark.parametrize("fen", POSITIONS)
def test_same_choice_and_score_fewer_nodes(fen: str) -> None:
    totals = {"minimax": 0, "alphabeta": 0}
    for depth in (1, 2):
        mm = make_agent("minimax", {"depth": depth})
        ab = make_agent("alphabeta", {"depth": depth})
        board = Board(fen)
        m1, m2 = mm.choose(board), ab.choose(board)
        assert m1 == m2, (depth, m1.uci(), m2.uci())
        assert mm.last is not None and ab.last is not None
        assert (mm.last.score_cp, mm.last.mate_in) == (ab.last.score_cp, ab.last.mate_in)
        assert ab.nodes <= mm.nodes
        totals["minimax"] += mm.nodes
        totals["alphabeta"] += ab.nodes
    assert totals["alphabeta"] < totals["minimax"]


def test_depth_three_agreement_and_node_ratio() -> None:
    fen = Board.STARTING_FEN  # 9323 nodes for minimax, 744 for alpha-beta
    mm = make_agent("minimax", {"depth": 3})
    ab = make_agent("alphabeta", {"depth": 3})
    assert mm.choose(Board(fen)) == ab.choose(Board(fen))
    assert mm.last is not None and ab.last is not None
    assert mm.last.score_cp == ab.last.score_cp
    # Pruning cuts the tree by far more than half even where captures are rare.
    assert ab.nodes * 4 < mm.nodes, (ab.nodes, mm.nodes)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_choice_with_the_same_seed(seed: int) -> None:
    board = Board()
    mm = make_agent("minimax", {"depth": 2}, seed=seed)
    ab = make_agent("alphabeta", {"depth": 2}, seed=seed)
    assert mm.choose(board) == ab.choose(board)


def test_node_counts_are_exposed_and_accumulate() -> None:
    ab = make_agent("alphabeta", {"depth": 2})
    ab.choose(Board())
    first = ab.nodes
    ab.choose(Board())
    assert first > 0 and ab.total_nodes == 2 * first
    ab.reset()
    assert ab.total_nodes == 0
