"""Playing strength: a match of plies (over UCI) against Stockfish at a set Elo, or sunfish.

plies runs as ``python -m plies uci`` and is driven, like its opponent, through
python-chess by the arena (``plies.arena``): every opening is played twice
with colours swapped, games run on ``--concurrency`` threads, and the result
is printed as W/D/L, score and Elo difference with a 95% error bar.

Stockfish is weakened with ``UCI_LimitStrength=true`` and ``UCI_Elo=E``
(1350..2850 in Stockfish 15.1); sunfish is PyPI ``sunfish`` (``sunfish-uci``).

Usage:
  python benchmarks/strength.py --opponent stockfish --elo 2000 --games 20 --tc 10+0.1
  python benchmarks/strength.py --opponent sunfish --games 10 --tc 10+0.1
  python benchmarks/strength.py --opponent both --elo 1500 --games 4 --tc 5+0.05
  python benchmarks/strength.py --elo 2500 --games 100 --pgn games.pgn   # keep the games
Not a test: it takes minutes to hours; the machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from dataclasses import dataclass, field

from rich.console import Console

from plies.arena.clock import TimeControl
from plies.arena.game import Adjudication, GameRecord, GameSettings
from plies.arena.match import Match, MatchResult, MatchSettings
from plies.arena.openings import Opening, OpeningError, load_openings
from plies.arena.pgn import PgnWriter, to_pgn
from plies.arena.players import parse_player
from plies.arena.report import endings_table, game_line
from plies.arena.stats import Score, elo_error, elo_from_score, los

STOCKFISH = "/usr/games/stockfish"
SUNFISH = "sunfish-uci"
SF_MIN_ELO = 1350
"""Stockfish 15.1's lowest ``UCI_Elo``."""
SF_MAX_ELO = 2850
"""Stockfish 15.1's highest ``UCI_Elo``."""
SF_DEFAULT_OVERHEAD_MS = 10
"""Stockfish's own default Move Overhead."""

# Balanced, well-known opening lines (UCI moves from the start); each is played
# twice with colours swapped, so a line's bias cancels out.
OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("London", "d2d4 d7d5 c1f4 g8f6 e2e3 c7c5"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Reti", "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
)


def builtin_openings() -> list[Opening]:
    """The built-in lines as arena openings."""
    return [Opening(moves=tuple(line.split()), name=name) for name, line in OPENINGS]


def openings_from(path: str | None, parser: argparse.ArgumentParser) -> list[Opening]:
    """The openings of ``path`` (the built-in lines if None); a bad file ends with its error."""
    if path is None:
        return builtin_openings()
    try:
        return load_openings(path)
    except OpeningError as exc:
        parser.error(str(exc))


def plies_player(hash_mb: int) -> str:
    """The arena spec of plies as an outside UCI engine (this interpreter, ``-m plies uci``)."""
    return f"uci:{sys.executable} -m plies uci:Hash={hash_mb},name=plies"


def stockfish_player(elo: int, overhead_ms: int = SF_DEFAULT_OVERHEAD_MS) -> str:
    """The arena spec of Stockfish limited to ``elo`` (one thread, 16 MB hash)."""
    return (f"uci:{STOCKFISH}:UCI_LimitStrength=true,UCI_Elo={elo},Threads=1,Hash=16,"
            f"Move Overhead={overhead_ms},name=stockfish-{elo}")


def opponent_players(args: argparse.Namespace) -> list[str]:
    """Arena specs of the chosen opponents."""
    specs = []
    if args.opponent in ("stockfish", "both"):
        if not shutil.which(STOCKFISH):
            sys.exit(f"strength: {STOCKFISH} not found")
        specs.append(stockfish_player(args.elo))
    if args.opponent in ("sunfish", "both"):
        if not shutil.which(SUNFISH):
            sys.exit(f"strength: {SUNFISH} not found (pip install --no-deps sunfish)")
        specs.append(f"uci:{SUNFISH}:name=sunfish")
    return specs


def score_line(name: str, opponent: str, score: Score) -> str:
    """``plies vs X: +W =D -L  score S%  Elo d +/- e  LOS p%``."""
    if score.games == 0:
        return f"{name} vs {opponent}: no finished games"
    elo = elo_from_score(score.mean)
    error = elo_error(score)
    elo_text = "+inf" if elo == float("inf") else "-inf" if elo == -float("inf") else f"{elo:+.0f}"
    error_text = "inf" if error == float("inf") else f"{error:.0f}"
    return (
        f"{name} vs {opponent}: {score.games} games  W {score.wins} / D {score.draws} / "
        f"L {score.losses}  score {100 * score.mean:.1f}%  Elo {elo_text} +/- {error_text} "
        f"(95%)  LOS {100 * los(score):.1f}%"
    )


@dataclass
class MatchRun:
    """A finished match as the benchmarks report it."""

    score: Score
    """The first player's score."""
    records: list[GameRecord]
    """Every finished game."""
    seconds: float
    """Wall time of the match."""
    loads: list[float] = field(default_factory=list)
    """The 1-minute load average after each game (the machine's load while it ran)."""


def run_match(specs: list[str], args: argparse.Namespace, openings: list[Opening],
              out: Console, indent: str = "", pgn: PgnWriter | None = None) -> MatchRun:
    """Play the first spec against the second with ``args``' clock, openings and games."""
    players = [parse_player(spec) for spec in specs]
    settings = GameSettings(
        tc=TimeControl.parse(args.tc),
        time_margin_ms=args.margin,
        adjudication=Adjudication(max_moves=args.max_moves),
    )
    tc_tag = settings.tc.pgn() if settings.tc is not None else "-"
    pairs = (args.games + 1) // 2
    schedule = [openings[i % len(openings)] for i in range(pairs)]
    loads: list[float] = []

    def on_game(record: GameRecord, res: MatchResult) -> None:
        """Print each game as it finishes, with the running score; note the load."""
        loads.append(os.getloadavg()[0])
        if pgn is not None:
            pgn.write(to_pgn(record, event="plies strength", time_control=tc_tag))
        s = res.scores[res.pairings[0]]
        out.print(f"{indent}{game_line(record)}   [{players[0].name} {s.points:g}/{s.games}]",
                  markup=False, highlight=False)

    match = Match(
        players,
        MatchSettings(games=args.games, concurrency=args.concurrency, seed=args.seed),
        settings,
        schedule,
        on_game=on_game,
    )
    start = time.perf_counter()
    result = match.run()
    seconds = time.perf_counter() - start
    out.print(f"{indent}({result.played} games in {seconds:.0f} s)")
    return MatchRun(result.scores[result.pairings[0]], result.records, seconds, loads)


def load_text(loads: list[float]) -> str:
    """``load 5.1 (3.0-7.2)``: the mean and range of the load averages seen."""
    if not loads:
        return "load n/a"
    return f"load {sum(loads) / len(loads):.1f} ({min(loads):.1f}-{max(loads):.1f})"


def play(args: argparse.Namespace, opponent: str, openings: list[Opening],
         out: Console, pgn: PgnWriter | None = None) -> MatchRun:
    """Play one match of plies against ``opponent``."""
    run = run_match([plies_player(args.hash), opponent], args, openings, out, pgn=pgn)
    if run.records:
        out.print(endings_table(run.records))
    return run


def main() -> int:
    """Parse arguments, play the match(es), print the results."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--opponent", choices=("stockfish", "sunfish", "both"), default="stockfish")
    p.add_argument("--elo", type=int, default=2000,
                   help=f"Stockfish UCI_Elo, {SF_MIN_ELO}..{SF_MAX_ELO}")
    p.add_argument("--games", type=int, default=20, help="games per opponent (even: paired)")
    p.add_argument("--tc", default="10+0.1", help="time control SECONDS[+INC] (default 10+0.1)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--openings", help="EPD or PGN opening file (default: built-in lines)")
    p.add_argument("--hash", type=int, default=64, help="plies Hash in MB (default 64)")
    p.add_argument("--margin", type=int, default=100, help="lag forgiven before a time loss (ms)")
    p.add_argument("--max-moves", type=int, default=200, help="draw after this many moves")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn", help="write every game to this PGN file as it ends")
    args = p.parse_args()
    if not SF_MIN_ELO <= args.elo <= SF_MAX_ELO:
        p.error(f"--elo must be within {SF_MIN_ELO}..{SF_MAX_ELO} (Stockfish 15.1's UCI_Elo range)")
    if args.games < 1 or args.concurrency < 1:
        p.error("--games and --concurrency must be at least 1")
    try:
        TimeControl.parse(args.tc)
    except ValueError as exc:
        p.error(str(exc))
    openings = openings_from(args.openings, p)
    out = Console(soft_wrap=True)
    results = []
    opponents = opponent_players(args)
    try:
        pgn = PgnWriter(args.pgn) if args.pgn else None
    except OSError as exc:
        p.error(f"cannot write {args.pgn}: {exc.strerror}")
    try:
        for opponent in opponents:
            name = parse_player(opponent).name
            out.rule(f"plies vs {name}, {args.games} games at {args.tc}")
            results.append((name, play(args, opponent, openings, out, pgn)))
    finally:
        if pgn is not None:
            pgn.close()
    out.rule("summary")
    for name, run in results:
        out.print(f"{score_line('plies', name, run.score)}  tc {args.tc}  {load_text(run.loads)}",
                  markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
