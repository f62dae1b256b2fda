"""Result tables for a match: per pairing (W/D/L, Elo, error bar, LOS, faults) and endings.

The standings of several players are :mod:`plies.arena.standings`.
"""

from __future__ import annotations

import math
from collections import Counter

from rich.table import Table

from plies.arena.gsprt import Sprt
from plies.arena.match import MatchResult
from plies.arena.pairs import pentanomial
from plies.arena.referee import GameRecord
from plies.arena.standings import NOT_ENOUGH_GAMES, elo_text
from plies.arena.stats import elo_error, elo_from_score, los


def pairing_table(result: MatchResult) -> Table:
    """One row per pairing, from the first-named player's point of view: its results, rating
    and faults, and its opponent's faults."""
    table = Table(title="Results per pairing", title_justify="left")
    for col, justify in (
        ("Player", "left"), ("Opponent", "left"), ("Games", "right"), ("W", "right"),
        ("D", "right"), ("L", "right"), ("Score", "right"), ("Elo", "right"),
        ("±95%", "right"), ("LOS", "right"), ("Faults", "right"), ("Opp. faults", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    faults = Counter((r.pairing, r.faulty_index) for r in result.records
                     if r.faulty_index is not None)
    for (a, b), s in result.scores.items():
        if s.games == 0:
            table.add_row(result.names[a], result.names[b], "0", *[""] * 7, "0", "0")
            continue
        elo = elo_from_score(s.mean)
        error = elo_error(s)
        table.add_row(
            result.names[a],
            result.names[b],
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{100 * s.mean:.1f}%",
            elo_text(elo),
            "" if not math.isfinite(elo) else
            NOT_ENOUGH_GAMES if math.isinf(error) else f"{error:.1f}",
            f"{100 * los(s):.1f}%",
            str(faults[(a, b), a]),
            str(faults[(a, b), b]),
        )
    return table


def ending_kind(record: GameRecord) -> str:
    """A short category for why a game ended (for the summary)."""
    reason = record.reason
    rules = (
        ("mates", "checkmate"),
        ("stalemate", "stalemate"),
        ("repetition", "repetition"),
        ("fifty-move", "fifty moves"),
        ("insufficient", "insufficient material"),
        ("move limit", "adjudication: move limit"),
        ("resigns", "adjudication: resign"),
        ("Draw by adjudication", "adjudication: draw"),
        ("on time", "time forfeit"),
        ("crashed", "crash"),
        ("hung", "hang"),
        ("illegal move", "illegal move"),
        ("failed to start", "failed to start"),
    )
    for needle, kind in rules:
        if needle in reason:
            return kind
    return reason or record.termination


def endings_table(records: list[GameRecord]) -> Table:
    """How many games ended which way."""
    table = Table(title="Game endings", title_justify="left")
    table.add_column("Ending")
    table.add_column("Games", justify="right")
    for kind, n in Counter(ending_kind(r) for r in records).most_common():
        table.add_row(kind, str(n))
    return table


def sprt_line(result: MatchResult, sprt: Sprt) -> str:
    """The SPRT status: the test, the pairs it counted, LLR, bounds and the verdict if reached."""
    lower, upper = sprt.bounds
    llr = result.sprt_llr if result.sprt_llr is not None else 0.0
    verdicts = {"H1": "H1 accepted", "H0": "H0 accepted"}
    verdict = verdicts.get(result.sprt_verdict or "", "no verdict yet")
    a, b = result.pairings[0]
    pairs = pentanomial(result.records, a, (a, b))
    return (
        f"SPRT {result.names[a]} vs {result.names[b]} ({sprt.describe(pairs)}; "
        f"{pairs.pairs} complete pairs): LLR {llr:.2f} [{lower:.2f}, {upper:.2f}] - {verdict}"
    )


def game_line(record: GameRecord) -> str:
    """One line per finished game, like cutechess: number, players, result, reason."""
    return (
        f"Game {record.round} ({record.white} vs {record.black}): "
        f"{record.result} {{{record.reason}}}"
    )


def cluster_line(workers: list[str], slots: int) -> str:
    """``cluster: N workers (hosts)``; and when fewer took part than were started, says so
    (the games can run out before a slow worker is set up: the pool never waits for one)."""
    hosts = _hosts(workers)
    if len(workers) >= slots:
        return f"cluster: {len(workers)} workers ({hosts})"
    return (f"cluster: {len(workers)} of {slots} workers took part ({hosts}); "
            "the others were still starting when the run ended")


def _hosts(workers: list[str]) -> str:
    """``host xN`` per host, from the workers' descriptions."""
    counts: dict[str, int] = {}
    for text in workers:
        host = text.split(" ", 1)[0]
        counts[host] = counts.get(host, 0) + 1
    return ", ".join(f"{h} x{n}" for h, n in counts.items()) or "none started"
