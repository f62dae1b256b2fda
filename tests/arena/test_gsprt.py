"""The one GSPRT: fishtest's LLRs over trinomial and pentanomial counts, and both commands'
SPRTs deciding alike on the same games."""

from __future__ import annotations

import random

import pytest

from plies.agents.spec import parse_player
from plies.arena.gsprt import (
    Sprt,
    llr_logistic,
    llr_normalized,
    mle_expected,
    mle_t_value,
    model_of,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
)
from plies.arena.match import Match, MatchSettings
from plies.arena.openings import Opening
from plies.arena.pairs import pentanomial
from plies.arena.pentanomial import Pentanomial
from plies.arena.referee import GameRecord, GameSettings
from plies.arena.stats import Tally, pdf_stats, results_to_pdf
from plies.cli import arena as arena_cli
from plies.cli import sprt as sprt_cli
from plies.cli.main import build_parser


# Reference LLRs from fastchess's SPRT tests (tests/sprt_test.cpp of Disservin/fastchess),
# which follow fishtest's LLRcalc.py. fastchess's Stats take wins, losses, draws (three) or
# the pair counts LL, LD, WL, DD, WD, WW (six; WL and DD both score 1); fishtest's layout,
# and a Tally's results, are losses, draws, wins.
@pytest.mark.parametrize(
    ("counts", "bounds", "elo_model", "expected"),
    [
        (Tally(wins=36433, draws=68692, losses=36027), (0, 2), "normalized", 0.92),
        (Tally(wins=10871, draws=20431, losses=10650), (-1.75, 0.25), "normalized", 2.30),
        (Tally(wins=21404, draws=40708, losses=21184), (0.5, 2.5), "logistic", -1.57),
        (Tally(wins=57433, draws=106593, losses=57030), (0, 2), "logistic", -2.59),
        (Pentanomial((365, 16618, 36029 + 200, 16974, 390)), (0, 2), "normalized", 2.25),
        (Pentanomial((127, 4883, 10311 + 401, 5150, 104)), (-1.75, 0.25), "normalized", 3.01),
        (Pentanomial((223, 9863, 20279 + 1000, 10037, 246)), (0.5, 2.5), "logistic", -3.07),
        (Pentanomial((871, 26175, 55003 + 980, 26678, 821)), (0, 2), "logistic", -4.98),
    ],
)
def test_llr_matches_fastchess(
    counts: Tally | Pentanomial, bounds: tuple[float, float], elo_model: str, expected: float
) -> None:
    """Known LLRs of both models in both Elo scales, to the two decimals the reference gives."""
    assert sprt_llr(counts, bounds[0], bounds[1], elo_model) == pytest.approx(expected, abs=0.006)


def test_models_are_named_by_the_counts() -> None:
    assert model_of(Tally(1, 2, 3)) == "trinomial"
    assert model_of(Pentanomial((1, 2, 3, 4, 5))) == "pentanomial"
    assert Sprt(0, 5).describe(Pentanomial()) == (
        "pentanomial GSPRT, normalized Elo [0, 5], alpha=0.05, beta=0.05"
    )
    assert Sprt(-3, 1, 0.1, 0.2, "logistic").describe(Tally()) == (
        "trinomial GSPRT, logistic Elo [-3, 1], alpha=0.1, beta=0.2"
    )


def test_empty_and_symmetric_results() -> None:
    """No games: LLR 0; the reversed result with mirrored bounds gives the opposite LLR."""
    assert sprt_llr(Pentanomial(), 0, 2) == 0.0
    assert sprt_llr(Tally(), 0, 2, "logistic") == 0.0
    penta = Pentanomial((3, 10, 20, 14, 5))
    for elo_model in ("normalized", "logistic"):
        forward = sprt_llr(penta, 0, 5, elo_model)
        mirrored = sprt_llr(penta.reversed(), -5, 0, elo_model)
        assert forward == pytest.approx(-mirrored, rel=1e-9)
    tally = Tally(300, 500, 200)
    assert sprt_llr(tally, 0, 5) > 0 > sprt_llr(tally.reversed(), 0, 5)


def test_constrained_mles_hit_their_constraints() -> None:
    """The MLE with a given mean has that mean; the one with a given t-value has that t."""
    _, pdf = results_to_pdf([3, 10, 20, 14, 5])
    mle = mle_expected(pdf, 0.48)
    assert sum(p for _, p in mle) == pytest.approx(1.0)
    assert pdf_stats(mle)[0] == pytest.approx(0.48, abs=1e-9)
    mu, var = pdf_stats(mle_t_value(pdf, 0.5, 0.05))
    assert (mu - 0.5) / var**0.5 == pytest.approx(0.05, abs=1e-6)


def test_closed_form_approximation_for_large_samples() -> None:
    """fishtest's LLR_alt2, (s1 - s0)(2s - s0 - s1) / (2 var) per game, is close to the GSPRT
    when the hypotheses are close and the sample large: n=10000, mean 0.55, var 0.1225, s0=0.5,
    s1=E(5)=0.5071955 gives 27.255."""
    assert llr_logistic(0, 5, [2000, 5000, 3000]) == pytest.approx(27.255, rel=0.02)


def test_bounds_verdicts_and_bad_tests() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(2.944439, abs=1e-6)  # ln 19
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    assert sprt_verdict(3.0) == "H1"
    assert sprt_verdict(-3.0) == "H0"
    assert sprt_verdict(0.1) is None
    for bad in ((5, 0, 0.05, 0.05, "normalized"), (0, 5, 0.5, 0.05, "normalized"),
                (0, 5, 0.05, 0.05, "bayeselo")):
        with pytest.raises(ValueError):
            Sprt(*bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        llr_normalized(0, 5, [1, 2, 3, 4])


def _pairs_of_games(pairs: int, seed: int, win: float = 0.40, loss: float = 0.25
                    ) -> list[GameRecord]:
    """Finished games of a paired match, spec 0 White in odd rounds, from a seeded coin that
    gives spec 0 a win or a loss with these chances (a draw otherwise)."""
    rng = random.Random(seed)
    records = []
    for n in range(1, 2 * pairs + 1):
        u = rng.random()
        white = 0 if n % 2 else 1
        spec0_points = 1.0 if u < win else 0.0 if u < win + loss else 0.5
        white_points = spec0_points if white == 0 else 1.0 - spec0_points
        result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white_points]
        record = GameRecord("a", "b", Opening(), result=result, termination="normal")
        record.round, record.white_index, record.black_index = n, white, 1 - white
        records.append(record)
    return records


def _decide(sprt: Sprt, records: list[GameRecord]) -> tuple[int, str | None, float | None]:
    """Feed ``records`` one by one to a two-player match running ``sprt``: the games counted
    when it stopped, its verdict and LLR."""
    specs = [parse_player("random"), parse_player("capture")]
    match = Match(specs, MatchSettings(games=len(records), sprt=sprt), GameSettings(),
                  [Opening()] * len(records))
    for record in records:
        match.collect(record)
    return match.result.played, match.result.sprt_verdict, match.result.sprt_llr


def test_arena_and_sprt_commands_decide_alike_on_the_same_games() -> None:
    """``plies arena --sprt 0 30`` and ``plies sprt --elo0 0 --elo1 30`` build the same test,
    and fed the same games stop at the same game with the same verdict and LLR: the
    pentanomial GSPRT on the complete pairs, the first to cross a bound."""
    parser = build_parser()
    arena_test = arena_cli.sprt_test(
        parser.parse_args(["arena", "random", "capture", "--sprt", "0", "30"]))
    sprt_test = sprt_cli.sprt_test(
        parser.parse_args(["sprt", "--elo0", "0", "--elo1", "30", "--new-options", "Hash=2"]))
    assert arena_test == sprt_test == Sprt(0.0, 30.0, 0.05, 0.05, "normalized")
    assert arena_test is not None
    lower, upper = sprt_bounds()
    for records, expected in ((_pairs_of_games(200, 2), "H1"),
                              (_pairs_of_games(200, 4, win=0.20, loss=0.30), "H0")):
        arena = _decide(arena_test, records)
        assert _decide(sprt_test, records) == arena
        played, verdict, llr = arena
        assert verdict == expected and played % 2 == 0 and played < len(records)
        assert llr == pytest.approx(sprt_llr(pentanomial(records[:played]), 0, 30))
        before = sprt_llr(pentanomial(records[:played - 2]), 0, 30)
        assert lower < before < upper and not lower < llr < upper
    logistic = ["--sprt-model", "logistic", "--sprt-alpha", "0.1"]
    assert arena_cli.sprt_test(parser.parse_args(
        ["arena", "random", "capture", "--sprt", "-1", "3", *logistic])) == sprt_cli.sprt_test(
        parser.parse_args(["sprt", "--elo0", "-1", "--elo1", "3", "--model", "logistic",
                           "--alpha", "0.1"]))


def test_a_lone_game_waits_for_its_pair() -> None:
    """A won game whose pair partner has not finished moves nothing; the pair then counts."""
    records = _pairs_of_games(3, 5)
    _, _, llr_before = _decide(Sprt(0, 5), records[:4])
    _, _, llr_lone = _decide(Sprt(0, 5), records[:5])
    assert llr_lone == llr_before
    assert pentanomial(records[:5]).pairs == 2 and pentanomial(records).pairs == 3


def test_arena_decides_differently_than_the_old_per_game_trinomial() -> None:
    """What changed for ``plies arena --sprt``: straight wins at [0, 100] accepted H1 after
    twelve games counted one by one in logistic Elo; as six pairs in normalized Elo they are
    not enough (each pair moves the LLR about 0.32), and ten pairs (twenty games) are."""
    old = Sprt(0, 100, elo_model="logistic")
    assert old.decide(Tally(wins=11))[1] is None
    assert old.decide(Tally(wins=12))[1] == "H1"
    new = Sprt(0, 100)
    assert new.decide(Pentanomial((0, 0, 0, 0, 6)))[1] is None
    assert new.decide(Pentanomial((0, 0, 0, 0, 9)))[1] is None
    assert new.decide(Pentanomial((0, 0, 0, 0, 10)))[1] == "H1"
