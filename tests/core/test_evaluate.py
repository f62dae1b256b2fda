"""The static evaluation: symmetry, sanity of signs and sizes, terms adding up to the total."""

from __future__ import annotations

import chess
import numpy as np
import pytest
from tests.core.positions import random_game_fens

from plies.board import Board
from plies.core import evaluate as ev
from plies.core import see
from plies.core.encoding import BLACK, KING, PAWN, WHITE, piece_code

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def mirror_fen(fen: str) -> str:
    """The colour-flipped mirror of a FEN: ranks reversed, colours and side swapped."""
    parts = fen.split()
    placement = "/".join(reversed(parts[0].split("/"))).swapcase()
    side = "b" if parts[1] == "w" else "w"
    castling = parts[2]
    if castling != "-":
        castling = "".join(sorted(castling.swapcase(), key="KQkq".index))
    ep = parts[3]
    if ep != "-":
        ep = ep[0] + str(9 - int(ep[1]))
    return " ".join([placement, side, castling, ep, *parts[4:]])


def score(fen: str) -> int:
    """``evaluate`` of a FEN."""
    return int(ev.evaluate(Board(fen).core_position()))


def terms(fen: str) -> np.ndarray:
    """``evaluate_terms`` of a FEN."""
    out = np.zeros(ev.N_TERMS, dtype=np.int64)
    ev.evaluate_terms(Board(fen).core_position(), out)
    return out


FENS = random_game_fens(40, seed=7)


def test_mirror_fen_helper() -> None:
    """The helper flips a known position correctly and is an involution."""
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert mirror_fen(mirror_fen(fen)) == fen
    flipped = chess.Board(fen).mirror().fen()
    assert mirror_fen(fen) == flipped
    ep = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
    assert mirror_fen(ep) == chess.Board(ep).mirror().fen()


def test_colour_symmetry_over_random_games() -> None:
    """A position and its colour-flipped mirror get the same score, term by term too."""
    assert len(FENS) > 150
    for fen in FENS:
        assert score(fen) == score(mirror_fen(fen)), fen
        assert np.array_equal(terms(fen), -terms(mirror_fen(fen))), fen


def test_start_position_is_tempo_only() -> None:
    """The symmetric start position scores exactly the tempo bonus for either side."""
    assert score(START) == ev.TEMPO
    assert score(START.replace(" w ", " b ")) == ev.TEMPO
    t = terms(START)
    assert not t[: ev.T_TEMPO].any()


def test_terms_sum_to_total() -> None:
    """The total is the sum of the reported terms, from the mover's side."""
    assert len(ev.TERM_NAMES) == ev.N_TERMS
    for fen in FENS[:80]:
        sign = 1 if " w " in fen else -1
        assert score(fen) == sign * int(terms(fen).sum()), fen


def test_up_a_queen_is_large_and_signed_for_the_mover() -> None:
    """Missing the black queen is worth most of a queen to White, and costs Black as much."""
    fen = START.replace("rnbqkbnr", "rnb1kbnr")
    assert score(fen) > 800
    assert score(fen.replace(" w ", " b ")) < -800
    assert score(START.replace("RNBQKBNR", "RNB1KBNR")) < -800


@pytest.mark.parametrize("kind", range(PAWN, KING + 1))
def test_see_values(kind: int) -> None:
    """SEE values follow the usual order and are found by kind or by piece code."""
    value = see.SEE_VALUES[kind]
    assert see.piece_value(piece_code(WHITE, kind)) == see.piece_value(piece_code(BLACK, kind))
    assert see.piece_value(piece_code(BLACK, kind)) == value
    assert see.piece_value(0) == 0
    assert list(see.SEE_VALUES[PAWN:]) == [100, 320, 330, 500, 900, 20000]


def test_weights_switch_terms_off() -> None:
    """With a term's weight at zero the internal evaluation drops exactly that term."""
    fen = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5"
    pos = Board(fen).core_position()
    full = ev.evaluate_weighted(pos, ev.WEIGHTS)
    t = terms(fen)
    for i in range(ev.N_TERMS):
        w = ev.WEIGHTS.copy()
        w[i] = 0
        assert ev.evaluate_weighted(pos, w) == full - t[i]


def term(fen: str, name: str) -> int:
    """One named term of a FEN (White minus Black)."""
    return int(terms(fen)[ev.TERM_NAMES.index(name)])


def test_passed_pawn_on_the_seventh_beats_the_second() -> None:
    """A passer about to queen is worth far more than one at home, in total and as a term."""
    seventh = "8/4P3/8/8/8/k7/8/K7 w - - 0 1"
    second = "8/8/8/8/8/k7/4P3/K7 w - - 0 1"
    assert score(seventh) > score(second) + 100
    assert term(seventh, "passed") > term(second, "passed") > 0


def test_passed_pawn_definition() -> None:
    """Enemy pawns ahead on the same or a neighbouring file stop a pawn being passed."""
    assert term("4k3/p7/8/8/P7/8/8/4K3 w - - 0 1", "passed") == 0
    assert term("4k3/1p6/8/8/P7/8/8/4K3 w - - 0 1", "passed") == 0
    # A black pawn beside (not ahead of) the white one leaves both passed.
    beside = term("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "passed")
    white_alone = term("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "passed")
    black_alone = term("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", "passed")
    assert white_alone > 0 > black_alone
    assert beside == white_alone + black_alone
    # Of two doubled pawns only the front one counts.
    one = term("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "passed")
    assert term("4k3/8/8/4P3/4P3/8/8/4K3 w - - 0 1", "passed") == one


def test_pawn_structure_penalties() -> None:
    """Isolated and doubled pawns cost; connected pawns earn."""
    healthy = "4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1"
    isolated = "4k3/8/8/8/8/8/3P3P/4K3 w - - 0 1"
    doubled = "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1"
    assert term(healthy, "pawns") > 0
    assert term(isolated, "pawns") < 0
    assert term(doubled, "pawns") < term(isolated, "pawns") < term(healthy, "pawns")


def test_bishop_pair_and_rook_files() -> None:
    """The bishop pair earns a bonus; a rook likes open files more than semi-open ones."""
    pair = "4k3/pppppppp/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1"
    assert term(pair, "bishop_pair") > 0
    assert term(pair.replace("2B1KB2", "2B1KN2"), "bishop_pair") == 0
    closed = "4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1"
    semi = "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"
    open_ = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    assert term(open_, "rooks") > term(semi, "rooks") > term(closed, "rooks") == 0


def test_king_safety_prefers_a_sheltered_king() -> None:
    """A castled king behind its pawns is safer than one with its shelter gone."""
    sheltered = "r1bq1rk1/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1"
    exposed = "r1bq1rk1/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP4/R1BQ1RK1 w - - 0 1"
    assert term(sheltered, "king_safety") == 0
    assert term(exposed, "king_safety") < -30


def test_king_attackers_count() -> None:
    """Queen and knight bearing on the castled king's zone score for the attacker."""
    quiet = "r1b2rk1/ppppqppp/2n5/8/8/2N5/PPPP1PPP/R1BQ1RK1 w - - 0 1"
    attacked = "r1b2rk1/pppp1ppp/2n5/8/6n1/7q/PPPP1PPP/R1BQ1RK1 w - - 0 1"
    assert term(attacked, "king_safety") < term(quiet, "king_safety") - 50


def test_mobility_rewards_free_pieces() -> None:
    """A bishop on an open diagonal beats one buried behind its own pawns."""
    free = "4k3/8/8/8/8/8/8/B3K3 w - - 0 1"
    buried = "4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1"
    assert term(free, "mobility") > term(buried, "mobility")


def test_drawish_endgames_are_scaled_down() -> None:
    """A lone minor piece cannot win; rook against minor and opposite bishops draw often."""
    assert abs(score("8/8/8/1k6/8/3K4/8/5B2 w - - 0 1")) < 40
    rook = score("8/8/8/1k6/8/3K4/8/5R2 w - - 0 1")
    assert rook > 400
    assert 0 < score("8/8/8/1k6/8/3K4/8/2b2R2 w - - 0 1") < rook // 3
    same = score("8/5p2/2b5/1k6/8/3K1P2/3P4/5B2 w - - 0 1")
    opposite = score("8/5p2/3b4/1k6/8/3K1P2/3P4/5B2 w - - 0 1")
    assert 0 < opposite < same


# Bishop and rook pawn(s) against a lone king: drawn when the bishop cannot guard the
# promotion corner and the king stands next to it (lichess/Stockfish KBPsK knowledge).
WRONG_BISHOP_DRAWS = (
    "5K1k/7P/8/8/8/8/2B5/8 b - - 0 1",  # h-pawn, light bishop, king in the dark corner
    "6k1/8/7K/7P/8/8/4B3/8 w - - 1 1",  # king beside the corner
    "7k/8/8/7P/7P/8/K3B3/8 w - - 0 1",  # two h-pawns change nothing
    "k7/8/8/P7/8/8/K2B4/8 w - - 0 1",  # a-pawn: the corner a8 is light, the bishop dark
)
WRONG_BISHOP_WINS = (
    "6k1/8/7K/7P/8/8/3B4/8 w - - 1 1",  # the bishop guards h8: the right bishop
    "8/8/4k2K/7P/8/8/4B3/8 w - - 1 1",  # the king is too far from the corner
    "6k1/8/7K/6PP/8/8/4B3/8 w - - 1 1",  # a g-pawn too: not only rook pawns
    "6k1/p7/7K/7P/8/8/4B3/8 w - - 1 1",  # the defender still has a pawn: not this rule
)


@pytest.mark.parametrize("fen", WRONG_BISHOP_DRAWS)
def test_wrong_bishop_with_rook_pawns_is_a_draw(fen: str) -> None:
    """The side with the wrong bishop keeps none of its endgame lead, seen from either
    colour (the small middlegame share of the taper and the tempo bonus remain)."""
    assert abs(score(fen)) <= 50
    assert abs(score(mirror_fen(fen))) <= 50


@pytest.mark.parametrize("fen", WRONG_BISHOP_WINS)
def test_near_misses_of_the_wrong_bishop_keep_their_lead(fen: str) -> None:
    """One condition of the wrong-bishop draw missing leaves the mover's winning lead."""
    assert score(fen) > 200
    assert score(mirror_fen(fen)) > 200


def test_threats() -> None:
    """A pawn attacking a knight, and a piece left hanging, score for the attacker."""
    calm = "r3k3/pp6/8/3n4/8/4P3/PP6/R3K3 w - - 0 1"
    attacked = "r3k3/pp6/8/3n4/4P3/8/PP6/R3K3 w - - 0 1"
    assert term(calm, "threats") == 0
    assert term(attacked, "threats") > 40
    hanging = "r3k3/pp6/8/3n4/8/8/PP6/R2RK3 w - - 0 1"
    defended = "r3k3/pp6/4p3/3n4/8/8/PP6/R2RK3 w - - 0 1"
    assert term(hanging, "threats") > term(defended, "threats") >= 0


def test_safe_checks() -> None:
    """A knight that can check the king from a square nobody defends scores; a defended
    square or no checking square scores nothing."""
    safe = "6k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 1"  # Nd5-e7+ is safe (f6 is covered by g7)
    defended = "3b2k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 1"  # the bishop on d8 covers e7
    none = "6k1/5ppp/8/1N6/8/8/5PPP/6K1 w - - 0 1"
    assert term(safe, "king_safety") > 0
    assert term(defended, "king_safety") == 0 == term(none, "king_safety")
    assert term(mirror_fen(safe), "king_safety") == -term(safe, "king_safety")
