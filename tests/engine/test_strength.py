"""Strength limiting: a weaker engine that still sees what it sees, at every level."""

from __future__ import annotations

import itertools
import random

import pytest

from plies import Board, Engine, Info, Limit, Move
from plies.engine.strength import MAX_ELO, MIN_ELO, choose_line, strength_for

# White to move can take a free queen (Rxd8+); nothing else comes close.
WIN_QUEEN = "3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1"
# White's queen on d4 is attacked by the pawn on e5: every queen move saves it,
# everything else loses it.
SAVE_QUEEN = "rnb1kbnr/pppp1ppp/8/4p3/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 3"
# No clock: the level's node budget ends a limited search, so the same seed plays the same
# move on a fast, a slow or a busy machine.
UNTIMED = Limit()


def test_budget_grows_and_choice_sharpens_with_elo() -> None:
    """More nodes, a lower temperature and a smaller loss cap as the Elo rises."""
    levels = [strength_for(elo) for elo in range(MIN_ELO, MAX_ELO, 50)]
    for weak, strong in itertools.pairwise(levels):
        assert strong.nodes > weak.nodes
        assert strong.temperature_cp < weak.temperature_cp
        assert strong.max_loss_cp <= weak.max_loss_cp
    assert strength_for(100).elo == MIN_ELO and strength_for(9999).elo == MAX_ELO


def _cp(info: Info) -> int:
    """A line's centipawns from the mover's side (these positions hold no mate)."""
    assert info.score is not None and not info.score.is_mate()
    return info.score.relative.score() or 0


@pytest.mark.parametrize("elo", [MIN_ELO, 1650, MAX_ELO - 1])
def test_never_throws_the_queen_away(engine: Engine, elo: int) -> None:
    """At every level: takes a free queen and saves its own, over several seeds."""
    engine.limit_strength = True
    engine.set_elo(elo)
    try:
        for seed in range(3):
            engine.seed(seed)
            engine.new_game()
            best = engine.search(Board(WIN_QUEEN), UNTIMED).move
            assert best == Move.from_uci("d1d8")
            board = Board(SAVE_QUEEN)
            move = engine.search(board, UNTIMED).move
            assert move is not None and move.from_square == Move.from_uci("d4a4").from_square
    finally:
        engine.limit_strength = False


def test_weak_levels_vary_and_respect_the_budget(engine: Engine) -> None:
    """At the weakest level the opening move varies with the seed, within its node budget."""
    engine.limit_strength = True
    engine.set_elo(MIN_ELO)
    chosen = set()
    try:
        for seed in range(8):
            engine.seed(seed)
            result = engine.search(Board(), UNTIMED)
            assert result.score is not None
            assert result.nodes <= 3 * strength_for(MIN_ELO).nodes
            chosen.add(result.move)
    finally:
        engine.limit_strength = False
    assert len(chosen) >= 2


def test_choice_skips_lines_beyond_the_loss_cap(engine: Engine) -> None:
    """``choose_line`` never returns a line scoring more than the cap below the best."""
    engine.set_multipv(4)
    try:
        result = engine.search(Board(SAVE_QUEEN), Limit(depth=4))
    finally:
        engine.set_multipv(1)
    strength = strength_for(MIN_ELO)
    top = _cp(result.lines[0])
    rng = random.Random(1)
    for _ in range(50):
        line = choose_line(result.lines, strength, rng)
        assert top - _cp(line) <= strength.max_loss_cp


def test_bad_elo_is_refused(engine: Engine) -> None:
    """An Elo outside the range raises and keeps the old one."""
    engine.set_elo(1500)
    with pytest.raises(ValueError):
        engine.set_elo(MAX_ELO + 1)
    with pytest.raises(ValueError):
        engine.set_option("UCI_Elo", "abc")
    assert engine.elo == 1500
