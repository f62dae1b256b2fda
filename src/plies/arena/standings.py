"""League standings: games, W/D/L, points, faults, a joint rating and a crosstable.

The rating is the joint maximum-likelihood fit of :mod:`plies.arena.rating`
(logistic model, a draw half a win, as Ordo and BayesElo do) with one player
anchored at 0, so every other rating reads as Elo above or below it.  The error
bars are 95% intervals from the likelihood's curvature (or a bootstrap when
asked).  A :class:`Standings` renders itself as a rich table for the terminal,
as Markdown or HTML for a report file, and as HTML in Jupyter.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plies.arena.rating import RatingError, rate_pool
from plies.arena.stats import Tally, format_elo

if TYPE_CHECKING:
    from rich.table import Table

    from plies.arena.referee import GameRecord

RESULTS = ("1-0", "0-1", "1/2-1/2")
"""The results a finished game can have."""

NOT_ENOUGH_GAMES = "not enough games"
"""What a table shows for a rating or error bar the games do not bound (a player who won or
lost every game, or met nobody rated): words, where the figure would be infinite."""


@dataclass(frozen=True)
class GameResult:
    """What standings need of one finished game."""

    white: str
    """White's display name."""
    black: str
    """Black's display name."""
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2``."""
    fault: str = ""
    """The kind of fault that ended the game (empty when none)."""
    faulty: str = ""
    """The player whose fault it was (empty when none)."""

    def points(self, name: str) -> float:
        """Points ``name`` scored in this game."""
        if self.result == "1/2-1/2":
            return 0.5
        return 1.0 if (self.result == "1-0") == (name == self.white) else 0.0


def faulty_side(record: GameRecord) -> str:
    """The name of the player whose fault ended ``record`` (empty when no fault did)."""
    index = record.faulty_index
    if index is None:
        return ""
    return record.white if index == record.white_index else record.black


def result_of(record: GameRecord) -> GameResult:
    """The standings' view of an arena game record."""
    return GameResult(record.white, record.black, record.result, record.fault,
                      faulty_side(record))


@dataclass(frozen=True)
class Row:
    """One player's line in the standings."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    faults: int
    elo: float
    """Rating relative to the anchor (+inf/-inf when unbounded, nan when unconnected)."""
    error: float
    """Half-width of the 95% interval (0 for the anchor, inf when unknown)."""

    @property
    def score(self) -> float:
        """Mean points per game (0 when no game was played)."""
        return self.points / self.games if self.games else 0.0


@dataclass
class Standings:
    """Standings of a set of players from their finished games."""

    players: list[str]
    """Every player, in league order (a player without games still has a row)."""
    games: list[GameResult] = field(default_factory=list)
    """Every finished game."""
    anchor: str = ""
    """The player rated 0 (default: the first player who has played)."""
    bootstrap: int = 0
    """Bootstrap resamples for the error bars (0: from the likelihood's curvature)."""
    seed: int = 1
    """Seed of the bootstrap."""
    sandboxed: dict[str, str] = field(default_factory=dict)
    """Per player, whether it ran in the sandbox (``yes``, ``no``, ``built-in``, ``remote``);
    when given, the standings show it in a column."""

    @classmethod
    def from_records(cls, players: Sequence[str], records: Iterable[GameRecord],
                     anchor: str = "") -> Standings:
        """Standings of arena game records (unfinished ones are left out)."""
        games = [result_of(r) for r in records if r.result in RESULTS]
        return cls(list(players), games, anchor)

    def crosstable(self) -> dict[tuple[str, str], Tally]:
        """``(a, b) -> a's Tally against b`` for every pair that met (both orders)."""
        table: dict[tuple[str, str], Tally] = {}
        for g in self.games:
            for me, them in ((g.white, g.black), (g.black, g.white)):
                old = table.get((me, them), Tally())
                table[(me, them)] = old.add(g.points(me))
        return table

    def rated_anchor(self) -> str:
        """The anchor actually used: the one asked for if it played, else the first who did."""
        played = {n for g in self.games for n in (g.white, g.black)}
        if self.anchor in played:
            return self.anchor
        return next((p for p in self.players if p in played), "")

    def rows(self) -> list[Row]:
        """One row per player, best rating first (then points, then name)."""
        cross = self.crosstable()
        anchor = self.rated_anchor()
        ratings: dict[str, tuple[float, float]] = {}
        pairs = {(a, b): s for (a, b), s in cross.items() if a < b}
        if anchor and pairs:
            try:
                for r in rate_pool(pairs, anchor, 0.0, self.bootstrap, self.seed):
                    ratings[r.name] = (r.elo, r.error)
            except RatingError:
                ratings = {}
        faults: dict[str, int] = {}
        for g in self.games:
            if g.faulty:
                faults[g.faulty] = faults.get(g.faulty, 0) + 1
        rows = []
        names = list(self.players) + sorted(
            {n for g in self.games for n in (g.white, g.black)} - set(self.players))
        for name in names:
            total = Tally()
            for (a, _), s in cross.items():
                if a == name:
                    total = Tally(total.wins + s.wins, total.draws + s.draws,
                                  total.losses + s.losses)
            elo, error = ratings.get(name, (math.nan, math.inf))
            rows.append(Row(name, total.games, total.wins, total.draws, total.losses,
                            total.points, faults.get(name, 0), elo, error))
        rows.sort(key=lambda r: (-_sortable(r.elo), -r.points, r.name))
        return rows

    # -- rendering ---------------------------------------------------------------------

    HEADERS = ("#", "Player", "Games", "W", "D", "L", "Points", "Score", "Faults", "Elo",
               "±95%")
    """Column titles of the standings."""

    def headers(self) -> tuple[str, ...]:
        """The column titles: :attr:`HEADERS`, and ``Sandbox`` when known."""
        return (*self.HEADERS, "Sandbox") if self.sandboxed else self.HEADERS

    def _cells(self) -> list[list[str]]:
        """The standings as text cells, one list per row."""
        anchor = self.rated_anchor()
        out = []
        for rank, r in enumerate(self.rows(), 1):
            error = ("anchor" if r.name == anchor else
                     "" if not math.isfinite(r.elo) else
                     NOT_ENOUGH_GAMES if math.isinf(r.error) else f"{r.error:.0f}")
            out.append([str(rank), r.name, str(r.games), str(r.wins), str(r.draws),
                        str(r.losses), f"{r.points:g}",
                        f"{100 * r.score:.1f}%" if r.games else "",
                        str(r.faults), elo_text(r.elo), error])
            if self.sandboxed:
                out[-1].append(self.sandboxed.get(r.name, ""))
        return out

    def _cross_cells(self) -> tuple[list[str], list[list[str]]]:
        """The crosstable: column names, then per player its points/games against each."""
        rows = self.rows()
        cross = self.crosstable()
        names = [r.name for r in rows]
        head = ["#", "Player", *[str(i) for i in range(1, len(names) + 1)]]
        body = []
        for i, me in enumerate(names, 1):
            cells = [str(i), me]
            for them in names:
                s = cross.get((me, them))
                cells.append("×" if me == them else "" if s is None else
                             f"{s.points:g}/{s.games}")
            body.append(cells)
        return head, body

    def title(self) -> str:
        """What the rating column means."""
        anchor = self.rated_anchor()
        how = "bootstrap" if self.bootstrap else "likelihood curvature"
        return (f"Standings: {len(self.games)} games; Elo by maximum likelihood, "
                f"{anchor or 'nobody'} = 0, 95% error bars from the {how}")

    def to_markdown(self) -> str:
        """The standings and the crosstable as Markdown tables."""
        def table(head: Sequence[str], body: list[list[str]]) -> list[str]:
            """One Markdown table."""
            right = {"#", "Games", "W", "D", "L", "Points", "Score", "Faults", "Elo", "±95%"}
            lines = ["| " + " | ".join(_md(h) for h in head) + " |",
                     "|" + "|".join("---" if h == "Player" else
                                    "--:" if h in right or h.isdigit() else "---"
                                    for h in head) + "|"]
            lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in body]
            return lines

        head, body = self._cross_cells()
        lines = [f"## {self.title()}", "", *table(self.headers(), self._cells()), "",
                 "## Crosstable (row player's points / games against the column player)", "",
                 *table(head, body), ""]
        return "\n".join(lines)

    def to_html(self, full_page: bool = False) -> str:
        """The standings and the crosstable as HTML tables (a whole page if ``full_page``)."""
        def table(caption: str, head: Sequence[str], body: list[list[str]]) -> str:
            """One HTML table."""
            ths = "".join(f"<th>{html.escape(h)}</th>" for h in head)
            trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                          for row in body)
            return (f"<table class=\"plies-standings\"><caption>{html.escape(caption)}"
                    f"</caption><thead><tr>{ths}</tr></thead><tbody>{trs}</tbody></table>")

        head, body = self._cross_cells()
        fragment = (table(self.title(), self.headers(), self._cells())
                    + table("Crosstable (row player's points / games against the column "
                            "player)", head, body))
        if not full_page:
            return fragment
        return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>League standings</title><style>"
                "table{border-collapse:collapse;margin:1em 0}"
                "td,th{border:1px solid #999;padding:2px 8px;text-align:right}"
                "td:nth-child(2),th:nth-child(2){text-align:left}"
                "caption{text-align:left;font-weight:bold}"
                f"</style></head><body>{fragment}</body></html>\n")

    def _repr_html_(self) -> str:
        """Jupyter shows the standings as tables."""
        return self.to_html()

    def rich_tables(self) -> list[Table]:
        """The standings and (for more than two players) the crosstable, for the terminal."""
        from rich.table import Table

        out = []
        table = Table(title=self.title(), title_justify="left")
        for h in self.headers():
            table.add_column(h, justify="left" if h in ("Player", "Sandbox") else "right")
        for row in self._cells():
            table.add_row(*row)
        out.append(table)
        if len(self.players) > 2:
            head, body = self._cross_cells()
            cross = Table(title="Crosstable (row player's points / games)",
                          title_justify="left")
            for h in head:
                cross.add_column(h, justify="left" if h == "Player" else "right")
            for row in body:
                cross.add_row(*row)
            out.append(cross)
        return out

    def write_report(self, path: str) -> None:
        """Write the report to ``path``: Markdown for .md, HTML for .html (ValueError else)."""
        from pathlib import Path

        target = Path(path)
        kind = report_kind(path)
        text = self.to_markdown() if kind == "markdown" else self.to_html(full_page=True)
        target.write_text(text, encoding="utf-8")


def report_kind(path: str) -> str:
    """``markdown`` or ``html`` from a report file's suffix; ValueError for any other."""
    suffix = path.lower().rsplit(".", 1)[-1] if "." in path else ""
    if suffix in ("md", "markdown"):
        return "markdown"
    if suffix in ("html", "htm"):
        return "html"
    raise ValueError(f"report {path!r}: the name must end in .md or .html")


def _sortable(elo: float) -> float:
    """A rating as a sort key (an unrated player last)."""
    return -math.inf if math.isnan(elo) else elo


def elo_text(elo: float) -> str:
    """A rating for a table, in words when the games do not bound it."""
    return format_elo(elo) if math.isfinite(elo) else NOT_ENOUGH_GAMES


def _md(text: str) -> str:
    """A Markdown table cell (pipes escaped)."""
    return text.replace("|", "\\|")
