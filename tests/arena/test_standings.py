"""League standings: counts, faults, the joint rating against the likelihood, the renderings."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from rich.console import Console
from rich.table import Table

from plies.arena.match import MatchResult
from plies.arena.openings import Opening
from plies.arena.rating import log_likelihood
from plies.arena.referee import GameRecord
from plies.arena.report import pairing_table
from plies.arena.standings import GameResult, Standings, report_kind
from plies.arena.stats import Tally


def games(white: str, black: str, result: str, n: int) -> list[GameResult]:
    """``n`` copies of one game."""
    return [GameResult(white, black, result)] * n


def test_counts_points_and_crosstable() -> None:
    s = Standings(["a", "b", "c"], [*games("a", "b", "1-0", 2), *games("b", "a", "1/2-1/2", 1),
                                    *games("c", "a", "0-1", 1)])
    rows = {r.name: r for r in s.rows()}
    assert (rows["a"].games, rows["a"].wins, rows["a"].draws, rows["a"].losses) == (4, 3, 1, 0)
    assert rows["a"].points == 3.5
    assert (rows["b"].wins, rows["b"].draws, rows["b"].losses, rows["b"].points) == (0, 1, 2, 0.5)
    assert rows["c"].points == 0 and rows["c"].games == 1
    cross = s.crosstable()
    assert cross[("a", "b")] == Tally(2, 1, 0) and cross[("b", "a")] == Tally(0, 1, 2)
    assert ("b", "c") not in cross


def test_symmetric_results_give_equal_ratings() -> None:
    """Everyone scores the same against everyone: every rating is the anchor's."""
    played: list[GameResult] = []
    for a, b in itertools.combinations("pqrs", 2):
        played += games(a, b, "1-0", 3) + games(b, a, "1-0", 3) + games(a, b, "1/2-1/2", 2)
    rows = Standings(list("pqrs"), played).rows()
    for r in rows:
        assert r.elo == pytest.approx(0.0, abs=1e-6)
        assert r.points == 12.0


def test_rating_is_the_likelihood_maximum() -> None:
    """No nearby rating vector explains the games better than the fitted one (brute force)."""
    played = (games("a", "b", "1-0", 5) + games("b", "a", "1/2-1/2", 3) + games("b", "c", "1-0", 4)
              + games("c", "b", "1-0", 2) + games("a", "c", "1-0", 6) + games("c", "a", "1-0", 1))
    s = Standings(["a", "b", "c"], played)
    fitted = {r.name: r.elo for r in s.rows()}
    assert fitted["a"] == 0.0  # the anchor: the first player
    pairs = {k: v for k, v in s.crosstable().items() if k[0] < k[1]}
    best = log_likelihood(pairs, fitted)
    for db, dc in itertools.product((-20.0, -2.0, 0.0, 2.0, 20.0), repeat=2):
        if db or dc:
            moved = {"a": 0.0, "b": fitted["b"] + db, "c": fitted["c"] + dc}
            assert log_likelihood(pairs, moved) < best
    assert fitted["a"] > fitted["b"] > fitted["c"]
    rows = s.rows()
    assert [r.name for r in rows] == ["a", "b", "c"]
    assert rows[0].error == 0.0 and all(0 < r.error < math.inf for r in rows[1:])


def test_two_players_match_the_closed_form() -> None:
    """With two players the maximum is where the expected score equals the observed one."""
    s = Standings(["x", "y"], games("x", "y", "1-0", 3) + games("y", "x", "1-0", 1))
    y = next(r for r in s.rows() if r.name == "y")
    assert y.elo == pytest.approx(-400 * math.log10(3), abs=1e-6)


def test_faults_are_counted_against_the_faulty_player() -> None:
    played = [GameResult("a", "b", "1-0", "crash", "b"), GameResult("b", "a", "1-0", "hang", "a"),
              GameResult("a", "b", "0-1", "illegal", "a"), GameResult("a", "b", "1-0")]
    rows = {r.name: r for r in Standings(["a", "b"], played).rows()}
    assert rows["a"].faults == 2 and rows["b"].faults == 1
    md = Standings(["a", "b"], played).to_markdown()
    assert "| Faults |" in md


def test_perfect_score_is_unbounded_and_unplayed_player_listed() -> None:
    rows = {r.name: r for r in Standings(["a", "b", "c"], games("a", "b", "1-0", 2)).rows()}
    assert rows["a"].elo == 0.0 and rows["b"].elo == -math.inf  # a is the anchor
    assert rows["c"].games == 0 and math.isnan(rows["c"].elo)


def test_markdown_and_html_renderings() -> None:
    s = Standings(["a<b", "c|d"], games("a<b", "c|d", "1-0", 1) + games("c|d", "a<b", "1-0", 1))
    md = s.to_markdown()
    assert "c\\|d" in md and "Crosstable" in md
    assert md.count("\n|") >= 6
    page = s.to_html(full_page=True)
    assert page.startswith("<!doctype html>") and "a&lt;b" in page and "a<b" not in page
    assert s._repr_html_() == s.to_html()
    assert "<table" in s._repr_html_() and "<html" not in s._repr_html_()


def test_report_kind_by_suffix() -> None:
    assert report_kind("x.md") == "markdown" and report_kind("X.HTML") == "html"
    with pytest.raises(ValueError, match=r"must end in \.md or \.html"):
        report_kind("x.txt")


def _rendered(tables: list[Table]) -> str:
    """Rich tables as a wide terminal would show them."""
    console = Console(width=200, record=True, file=io.StringIO())
    for table in tables:
        console.print(table)
    return console.export_text()


def test_an_unbounded_rating_is_not_enough_games_in_every_rendering() -> None:
    """b lost its two games and c never played: words, not an infinite rating or error bar."""
    s = Standings(["a", "b", "c"], games("a", "b", "1-0", 2))
    for text in (s.to_markdown(), s.to_html(), _rendered(s.rich_tables())):
        assert "not enough games" in text
        assert "inf" not in text
    standings = s.to_markdown().split("## Crosstable")[0]
    md = {line.split(" | ")[1]: line.split(" | ") for line in standings.splitlines()
          if line.startswith("| ") and line.split(" | ")[1] in "abc"}
    assert md["a"][9:] == ["+0.0", "anchor |"]
    assert md["b"][9:] == ["not enough games", " |"]


def test_pairing_table_has_faults_and_no_infinite_elo() -> None:
    names = ["x", "y"]
    records = []
    for game, (result, reason) in enumerate([("0-1", "White (x) crashed"),
                                             ("1-0", "Black (x) hung"),
                                             ("0-1", "Black mates")]):
        white, black = (0, 1) if game % 2 == 0 else (1, 0)
        record = GameRecord(names[white], names[black], Opening(), result=result,
                            termination="normal", reason=reason,
                            fault="" if "mates" in reason else "crash")
        record.white_index, record.black_index = white, black
        records.append(record)
    result = MatchResult(names, [(0, 1)], {(0, 1): Tally(0, 0, 3)}, records)
    text = _rendered([pairing_table(result)])
    head, row = (line for line in text.splitlines()
                 if "┃" in line or ("│" in line and "x" in line))
    cells = dict(zip([c.strip() for c in head.strip("┃ ").split("┃")],
                     [c.strip() for c in row.strip("│ ").split("│")], strict=True))
    assert cells["Faults"] == "2" and cells["Opp. faults"] == "0"
    assert cells["Elo"] == "not enough games" and cells["±95%"] == ""
    assert "inf" not in text
