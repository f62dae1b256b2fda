"""A whole game searched and judged in process: judgements, annotations, summary and plot."""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn
import pytest
from PIL import Image

from plies.analysis import GameAnalysis, Judgement, analyse_game, annotate, summarise
from plies.analysis.game_review import evaluate_position
from plies.analysis.plot import MARK_COLOURS, plot_game
from plies.board import Board
from plies.engine import Engine, Limit

DATA = Path(__file__).with_name("data")
DEPTH = 5


def _read(name: str) -> chess.pgn.Game:
    """The first game of a test PGN file."""
    with (DATA / name).open(encoding="utf-8") as fh:
        game = chess.pgn.read_game(fh)
    assert game is not None
    return game


@pytest.fixture(scope="module")
def scholar(engine: Engine) -> GameAnalysis:
    """The Scholar's mate game, analysed at a small depth."""
    return analyse_game(_read("scholar.pgn"), engine, Limit(depth=DEPTH))


@pytest.fixture(scope="module")
def opera(engine: Engine) -> GameAnalysis:
    """The Opera game, analysed at a small depth."""
    return analyse_game(_read("opera.pgn"), engine, Limit(depth=DEPTH))


def test_every_move_is_judged_in_order(opera: GameAnalysis) -> None:
    """One report per move, scores seen from the right sides, depths reached."""
    moves = list(opera.game.mainline_moves())
    assert [r.move for r in opera.moves] == moves
    assert [r.color for r in opera.moves] == [chess.WHITE, chess.BLACK] * 16 + [chess.WHITE]
    for report, nxt in zip(opera.moves, opera.moves[1:], strict=False):
        assert report.after is nxt.before  # each position searched once
        assert report.before.depth >= DEPTH
        assert report.cp_loss >= 0
    # 17.Rd8# ends the game: Black to move is mated and nothing was searched there.
    final = opera.moves[-1].after
    assert final.depth == 0 and final.score.pov(chess.BLACK) == chess.engine.Mate(0)


def test_allowing_mate_in_one_is_a_blunder(scholar: GameAnalysis) -> None:
    """3...Nf6?? allows Qxf7#: a blunder, and the better move avoids the mate."""
    nf6 = scholar.moves[5]
    assert nf6.san == "Nf6" and nf6.color == chess.BLACK
    assert nf6.judgement is Judgement.BLUNDER
    assert nf6.after.score.pov(chess.WHITE) == chess.engine.Mate(1)
    best = nf6.best_move
    assert best is not None and best != nf6.move
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3")
    board.push(best)
    for reply in board.legal_moves:
        board.push(reply)
        assert not board.is_checkmate(), f"{best} still allows mate by {reply}"
        board.pop()


def test_the_engines_own_move_is_never_flagged(opera: GameAnalysis) -> None:
    """A move equal to the engine's best gets no judgement and no loss."""
    own = [r for r in opera.moves if r.move == r.best_move]
    assert own, "the engine should agree with Morphy at least once"
    assert all(r.judgement is None and r.cp_loss == 0 for r in own)


def test_flags_follow_the_drop_in_winning_chances(opera: GameAnalysis) -> None:
    """Every flagged move dropped its player's chances by at least its threshold."""
    flagged = [r for r in opera.moves if r.judgement is not None]
    assert flagged, "the Duke and the Count made mistakes"
    for r in flagged:
        assert r.judgement is not None and r.chances_drop >= r.judgement.value


def test_summary_counts_and_average_loss(opera: GameAnalysis) -> None:
    """The summary's figures are those of the move reports."""
    white, black = summarise(opera)
    assert (white.name, black.name) == ("Paul Morphy", "Duke Karl / Count Isouard")
    assert white.moves == 17 and black.moves == 16
    theirs = [r for r in opera.moves if r.color == chess.BLACK]
    assert black.acpl == pytest.approx(sum(r.cp_loss for r in theirs) / 16)
    flags = [r.judgement for r in theirs]
    assert (black.inaccuracies, black.mistakes, black.blunders) == (
        flags.count(Judgement.INACCURACY), flags.count(Judgement.MISTAKE),
        flags.count(Judgement.BLUNDER))
    assert black.blunders + black.mistakes >= 1
    assert "average centipawn loss" in black.line() and black.line().startswith("Black (")


def test_annotated_pgn_reads_back(scholar: GameAnalysis) -> None:
    """Evals, NAG, comment and the better line survive a round trip through python-chess."""
    text = str(annotate(scholar))
    assert "[%eval " in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert game.headers["Annotator"] == "plies"
    nodes = list(game.mainline())
    assert [n.move for n in nodes] == [r.move for r in scholar.moves]
    for node, report in zip(nodes[:-1], scholar.moves, strict=False):
        ev = node.eval()
        assert ev is not None and ev.white() == report.after.score.white()
    assert nodes[-1].eval() is None  # checkmate: no evaluation, as on lichess
    nf6 = nodes[5]
    assert chess.pgn.NAG_BLUNDER in nf6.nags
    assert "Blunder." in nf6.comment and "was best." in nf6.comment
    parent = nf6.parent
    assert parent is not None and len(parent.variations) == 2
    better = parent.variations[1]
    assert better.move == scholar.moves[5].best_move
    line = [better.move, *[n.move for n in better.mainline()]]
    assert line == list(scholar.moves[5].before.best_line)


def test_plot_is_a_readable_png_with_marks(opera: GameAnalysis, tmp_path: Path) -> None:
    """The graph is a PNG of a readable size, and the flagged moves are drawn in their colours."""
    path = tmp_path / "opera.png"
    plot_game(opera, path)
    with Image.open(path) as image:
        assert image.format == "PNG"
        width, height = image.size
        assert width >= 800 and height >= 300
        counts = image.convert("RGB").getcolors(maxcolors=width * height)
    assert counts is not None
    colours = {rgb for _, rgb in counts}
    for judgement, hex_colour in MARK_COLOURS.items():
        rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
        if any(r.judgement is judgement for r in opera.moves):
            assert rgb in colours, f"no {judgement.label} marker drawn"


def test_a_mate_in_three_is_a_mate_in_three_moves(engine: Engine) -> None:
    """The engine's mate in three reaches the analysis as python-chess's Mate(3), from the
    side that mates, and its [%eval] as #3."""
    fen = "k7/8/8/3K4/8/8/8/7R w - - 0 1"
    engine.new_game()
    verdict = evaluate_position(engine, Board(fen), chess.Board(fen), Limit(depth=12))
    assert verdict.score.white() == chess.engine.Mate(3)
    node = chess.pgn.Game()
    node.set_eval(verdict.score)
    assert "[%eval #3]" in node.comment
