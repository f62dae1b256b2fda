"""play matches between agents and UCI engines; Elo, error bars, LOS, SPRT.

Play a match (two players) or a round robin (more) and report Elo.
"""

from __future__ import annotations

import argparse
import textwrap
from contextlib import nullcontext
from typing import TYPE_CHECKING

from plies.agents.registry import builtin_forms
from plies.cli import match_options
from plies.cli.common import CliError, Command, cannot_write, check_minimum

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from plies.agents.player import Player
    from plies.agents.spec import PlayerSpec
    from plies.arena.gsprt import Sprt
    from plies.arena.league import League
    from plies.arena.match import MatchResult
    from plies.arena.referee import GameRecord, GameSettings

_LIMITS = ("tc", "depth", "nodes", "movetime")
"""The options limiting a move, by dest: a league file keeps them under the same names."""

_UNCUT_WIDTH = 10_000
"""Columns of the output when it is not a terminal: more than any table needs, so rich
neither cuts a name ("fairym…") nor folds a row to fit an 80-column guess."""

_EPILOG = """\
players:
""" + textwrap.fill(" | ".join(builtin_forms()), 76, initial_indent="  ",
                    subsequent_indent="  ", break_on_hyphens=False) + """
                                                    built-in players (also seed=S, name=LABEL)
  uci:COMMAND[:Option=value,...]                    an outside UCI engine, e.g.
      uci:/usr/games/stockfish:UCI_LimitStrength=true,UCI_Elo=1500
  xboard:COMMAND[:Option=value,...]                 an xboard engine (xboard:/usr/games/fairymax)
  FILE.py[:NAME] | package.module[:NAME]            your Python mind (NAME defaults to choose)
  mind:COMMAND | mind+http://HOST:PORT/PATH         a mind program or server (FEN in, from,to out)
  NAME                                              an installed player (see: plies players)
examples:
  plies arena random capture minimax --games 20 --depth 2
  plies arena engine uci:/usr/games/stockfish:Skill\\ Level=0 --games 10 --tc 10+0.1 --pgn out.pgn
  plies arena uci:./new uci:./old --tc 10+0.1 --games 5000 --sprt 0 5 --cluster ray://head:10001
  plies arena engine uci:/usr/games/stockfish --variant chess960 --tc 5+0.05 --seed 1
leagues:
  plies arena random capture minimax --league class.jsonl --depth 2 --games 4 --report class.md
  plies arena alphabeta --league class.jsonl --games 4     add a player: only its games
  plies arena --league class.jsonl --games 4               resume a stopped league
  The file keeps the settings (time control or depth/nodes/movetime, variant, adjudication):
  a later run plays under them without repeating them, and one asking for others is
  refused.  Standings rate every player jointly by maximum likelihood (the first player = 0)
  with 95% error bars, and count faults (crash, hang, illegal move, failed start).
  Python minds and mind: programs run in the sandbox (see its options): a league made
  with --no-sandbox keeps running without it.
Ctrl-C: the match stops between games; the finished ones are kept (tables, PGN), the
  exit status is 130, and further presses are ignored while engines are stopped.
cluster (pip install 'plies[cluster]'):
  --cluster auto starts a private Ray instance on this machine's cores; an address joins an
  existing Ray cluster (every node needs plies and the engines at the same paths).  Each worker
  keeps its engines running between games; games are written and counted by game number; a
  game lost with a worker or an engine process is replayed.  --concurrency sets the number of
  workers (default: one per CPU of the cluster).
"""


COMMAND = Command("arena", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies arena``."""
    p.add_argument("players", nargs="*", metavar="PLAYER",
                   help="two or more players (see below; with --league, those to add)")
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help="games per pairing (each opening twice, colours swapped; default 10)")
    # Not required here: a league's file keeps its limit (see _settle).
    match_options.add_limit_options(p, required=False)
    match_options.add_cluster_options(p, "games played at once, in threads")
    match_options.add_opening_options(p)
    match_options.add_variant_argument(p)
    p.set_defaults(variant=None)  # standard, or the league's own (see _settle)
    p.add_argument("--pgn", metavar="OUT", help="write every finished game to this PGN file "
                   "(with --league: every game of the league)")
    p.add_argument("--league", metavar="FILE",
                   help="keep every result in this league file (JSON lines): a round robin that "
                        "plays only the games not yet in it, so players can be added later and "
                        "a stopped league resumes (see below)")
    p.add_argument("--report", metavar="FILE",
                   help="write the standings and crosstable here: FILE.md (Markdown) or "
                        "FILE.html")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="run fishtest's pentanomial SPRT on the game pairs and stop at a "
                        "verdict (bounds in normalized Elo, as plies sprt)")
    p.add_argument("--sprt-model", choices=("normalized", "logistic"), default="normalized",
                   help="Elo scale of the --sprt bounds (default normalized, as fishtest)")
    p.add_argument("--sprt-alpha", type=float, default=0.05, metavar="A", help="default 0.05")
    p.add_argument("--sprt-beta", type=float, default=0.05, metavar="B", help="default 0.05")
    p.add_argument("--seed", type=int, metavar="S", help="seed for agents and random openings")
    p.add_argument("--gauntlet", action="store_true",
                   help="the first player meets each other player (instead of a round robin)")
    p.add_argument("--event", default="plies arena", help="PGN Event tag")
    # The defaults (None here) are Adjudication's, or a league's own (see _settle).
    adj = p.add_argument_group("adjudication")
    adj.add_argument("--resign-moves", type=int, metavar="N",
                     help="a side whose own score stays <= -RESIGN_SCORE for N moves loses")
    adj.add_argument("--resign-score", type=int, metavar="CP", help="default 600")
    adj.add_argument("--draw-moves", type=int, metavar="N",
                     help="draw when both scores stay within DRAW_SCORE for N moves each")
    adj.add_argument("--draw-score", type=int, metavar="CP", help="default 10")
    adj.add_argument("--draw-after", type=int, metavar="MOVE",
                     help="draw adjudication starts at this move number (default 40)")
    adj.add_argument("--max-moves", type=int, metavar="N",
                     help="declare a draw after N moves (0 = never)")
    tim = p.add_argument_group("time")
    tim.add_argument("--time-margin", type=int, default=0, metavar="MS",
                     help="lag forgiven before a time forfeit (default 0)")
    tim.add_argument("--move-timeout", type=float, default=60.0, metavar="SECONDS",
                     help="with --depth/--nodes, a silent engine is declared hung after this")
    p.add_argument("-q", "--quiet", action="store_true", help="no line per finished game")
    match_options.add_sandbox_options(p)


def _check(args: argparse.Namespace) -> None:
    """Reject impossible option values with one clear line, once the settings left out are
    filled in."""
    if len(args.players) < 2 and args.league is None:
        raise CliError("a match needs at least two players")
    if args.league is not None and (args.sprt is not None or args.gauntlet):
        raise CliError("--league plays a round robin: no --sprt or --gauntlet")
    _settle(args)
    if args.report is not None:
        from plies.arena.standings import report_kind

        try:
            report_kind(args.report)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    check_minimum(args, {"games": 1})
    if args.sprt is not None and len(args.players) != 2:
        raise CliError("--sprt needs exactly two players")
    if args.sprt is not None and not args.sprt[0] < args.sprt[1]:
        raise CliError("--sprt ELO0 ELO1 needs ELO0 < ELO1")
    for name in ("sprt_alpha", "sprt_beta"):
        if not 0 < getattr(args, name) < 0.5:
            raise CliError(f"--{name.replace('_', '-')} must be between 0 and 0.5")
    if args.move_timeout <= 0 or args.time_margin < 0:
        raise CliError("--move-timeout must be positive and --time-margin not negative")
    match_options.check(args)


def sprt_test(args: argparse.Namespace) -> Sprt | None:
    """The SPRT ``--sprt`` asks for (checked options), or None."""
    from plies.arena.gsprt import Sprt

    if args.sprt is None:
        return None
    return Sprt(args.sprt[0], args.sprt[1], args.sprt_alpha, args.sprt_beta, args.sprt_model)


def _settle(args: argparse.Namespace) -> None:
    """Fill in the game settings the command line leaves out: a league's own, from its file,
    else the defaults; a match or a new league has nowhere to read its limit from."""
    from dataclasses import asdict

    from plies.arena.referee import Adjudication

    stored = _stored_settings(args.league) if args.league is not None else None
    if all(getattr(args, name) is None for name in _LIMITS):
        if stored is None:
            what = "a new league" if args.league is not None else "a match"
            raise CliError(f"{what} needs a limit per move: --tc, --depth, --nodes or "
                           "--movetime" + (" (its file keeps it for later runs)"
                                           if args.league is not None else ""))
        for name in _LIMITS:
            setattr(args, name, stored.get(name))
    defaults: dict[str, object] = {"variant": "standard", **asdict(Adjudication())}
    for name, default in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, stored.get(name, default) if stored is not None else default)


def _stored_settings(path: str) -> dict[str, object] | None:
    """The settings kept in the league file at ``path`` (None for a new league)."""
    from plies.arena.league import LeagueError, stored_settings

    try:
        return stored_settings(path)
    except LeagueError as exc:
        raise CliError(str(exc)) from None


def _specs(args: argparse.Namespace, texts: Sequence[str],
           interrupted: Callable[[], bool]) -> tuple[list[PlayerSpec], list[Player]]:
    """Parse and start every player once, so a typo fails before the first game: the specs
    and their running players, which the match then plays with.

    Stops with KeyboardInterrupt (the players closed) once ``interrupted()`` says so.
    """
    specs = match_options.confined([match_options.parse_spec(text) for text in texts],
                                   match_options.sandbox_policy(args),
                                   (args.league, args.pgn, args.report))
    labels = [(f"player {spec.text!r}", "") for spec in specs]
    started = match_options.try_players(specs, args.variant == "chess960", labels)
    if interrupted():
        for player in started:
            player.close()
        raise KeyboardInterrupt
    return specs, started


def run(args: argparse.Namespace) -> int:
    """Run the match, showing progress, then print the tables; 130 if interrupted."""
    from rich.console import Console

    from plies.arena.cluster import ClusterError
    from plies.arena.interrupt import CtrlC
    from plies.arena.league import slots
    from plies.arena.match import Match, MatchSettings
    from plies.arena.pgn import format_game, to_pgn
    from plies.arena.report import (
        cluster_line,
        endings_table,
        game_line,
        pairing_table,
        sprt_line,
    )
    from plies.arena.runner import run_match
    from plies.arena.standings import Standings
    from plies.cli.progress import progress_bar

    _check(args)
    settings = match_options.game_settings(args)
    openings = match_options.openings(args, (args.games + 1) // 2)
    args.sandbox = match_options.sandbox_mode(
        args.sandbox, _stored_settings(args.league) if args.league else None, args.league)
    league = _open_league(args, settings) if args.league is not None else None
    started: list[Player] = []
    match: Match | None = None
    try:
        texts = args.players
        if league is not None:  # the league's players, then the new ones
            texts = [*league.players, *[t for t in (a.strip() for a in args.players)
                                        if t not in league.players]]
            if len(dict.fromkeys(texts)) < 2:
                raise CliError(f"league {args.league}: a league needs at least two players")
        out = Console()
        if not out.is_terminal:  # a file or a pipe: tables as wide as their names, never cut
            out = Console(width=_UNCUT_WIDTH)
        err = Console(stderr=True)
        # Ctrl-C while a player starts or stops is acted on once it has stopped (none left).
        with CtrlC() as ctrl_c, (
            err.status("starting players...", spinner="dots") if err.is_terminal
            else nullcontext()
        ):
            specs, started = _specs(args, texts, lambda: ctrl_c.pressed)
        if ctrl_c.pressed:  # pressed after the last player was checked
            raise KeyboardInterrupt
        if league is not None:  # only players that loaded join the league
            league.add_players(texts)
        writer = match_options.pgn_writer(args.pgn)
        if writer is not None and league is not None:
            for old in league.games:
                writer.write_text(old.pgn)
        tc_tag = settings.tc.pgn() if settings.tc is not None else "-"
        progress = progress_bar(err, "[bold]{task.description}", "{task.fields[score]}")
        slot_of: dict[int, int] = {}

        def on_game(record: GameRecord, res: MatchResult) -> None:
            """Write the game (and its league line), print its line and advance the bar."""
            game = to_pgn(record, event=args.event, time_control=tc_tag)
            if writer is not None:
                writer.write(game)
            if league is not None:
                league.record(slot_of[record.round], record, format_game(game))
            if not args.quiet:
                err.print(game_line(record), markup=False, highlight=False, soft_wrap=True)
            progress.update(task, advance=1, score=_running_score(res))

        match = Match(
            specs,
            MatchSettings(
                games=args.games,
                concurrency=args.concurrency or 1,
                seed=args.seed,
                gauntlet=args.gauntlet,
                sprt=sprt_test(args),
                cluster=args.cluster,
                cluster_slots=args.concurrency or 0,
            ),
            settings,
            openings,
            on_game=on_game,
            started=started,
        )
        slot_of.update({t.round: k for t, k in zip(match.tasks, slots(match.tasks),
                                                      strict=True)})
        if league is not None:
            match.tasks = league.pending(match.tasks)
            match.result.scheduled = len(match.tasks)
            before = len(league.games)
            err.print(f"league {args.league}: {len(specs)} players, {before} games played, "
                      f"{len(match.tasks)} to play", markup=False, highlight=False)
        task = progress.add_task("games", total=len(match.tasks), score="")
        try:
            with progress:
                result = run_match(match) if match.tasks else match.result
        except ClusterError as exc:
            raise CliError(str(exc)) from None
        finally:
            if writer is not None:
                writer.close()
        if league is not None:
            names = dict(zip(league.players, result.names, strict=True))
            standings = Standings(list(result.names),
                                  [g.result_for(names) for g in league.games])
        else:
            standings = Standings.from_records(result.names, result.records)
        standings.sandboxed = {n: s.sandbox_state() for n, s in zip(result.names, specs,
                                                                     strict=True)}
        out.print()
        if league is None:
            out.print(pairing_table(result))
        if league is not None or len(result.names) > 2:
            for table in standings.rich_tables():
                out.print(table)
        if result.records:
            out.print(endings_table(result.records))
        sprt = sprt_test(args)
        if sprt is not None:
            out.print(sprt_line(result, sprt))
        if match_options.sandbox_line(specs, result.names):
            out.print(match_options.sandbox_line(specs, result.names), highlight=False)
        summary = f"{result.played} of {result.scheduled} games played"
        if league is not None:
            summary += f"; the league has {len(league.games)} games in {args.league}"
        if args.cluster is not None:
            err.print(cluster_line(result.workers, result.worker_slots), markup=False,
                      highlight=False)
            summary += f"; {result.replays} replayed after a lost worker or engine"
            if result.given_up:
                summary += f"; {result.given_up} given up"
            if result.cancelled:
                summary += f"; {result.cancelled} started but not counted (the match had ended)"
        if args.pgn:
            summary += f"; PGN written to {args.pgn}"
        if args.report:
            try:
                standings.write_report(args.report)
            except OSError as exc:
                raise cannot_write(args.report, exc) from None
            summary += f"; report written to {args.report}"
        out.print(summary)
    finally:
        if match is not None:
            match.close_players()
        else:
            for player in started:
                player.close()
        if league is not None:
            league.close()
    if result.interrupted and result.sprt_verdict is None:
        err.print("interrupted: results above are from the finished games")
        return 130
    return 0


def _league_settings(args: argparse.Namespace, settings: GameSettings) -> dict[str, object]:
    """The settings a league's games must share to be comparable."""
    adj = settings.adjudication
    return {
        "tc": settings.tc.pgn() if settings.tc is not None else None,
        "depth": settings.limit.depth,
        "nodes": settings.limit.nodes,
        "movetime": settings.limit.movetime,
        "variant": args.variant,
        "resign_moves": adj.resign_moves,
        "resign_score": adj.resign_score,
        "draw_after": adj.draw_after,
        "draw_moves": adj.draw_moves,
        "draw_score": adj.draw_score,
        "max_moves": adj.max_moves,
        # Only when lifted, so that the leagues made before the sandbox read as in it.
        **({"sandbox": "off"} if args.sandbox == "off" else {}),
    }


def _open_league(args: argparse.Namespace, settings: GameSettings) -> League:
    """Open the league file; CliError for any problem."""
    from plies.arena.league import League, LeagueError

    try:
        return League.open(args.league, _league_settings(args, settings))
    except LeagueError as exc:
        raise CliError(str(exc)) from None


def _running_score(res: MatchResult) -> str:
    """Score of the first pairing so far, for the progress bar."""
    a, b = res.pairings[0]
    s = res.scores[res.pairings[0]]
    if len(res.pairings) > 1:
        return f"{res.played} finished"
    return f"{res.names[a]} {s.points:g} - {s.games - s.points:g} {res.names[b]}"
