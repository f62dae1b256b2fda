"""new build vs old build (git revisions or option sets): paired games, pentanomial SPRT.

Play a new build of plies against a base build with paired openings until the pentanomial
SPRT accepts H1 (new gains at least ELO1) or H0 (at most ELO0), or the game cap is reached;
print the pair counts, Elo and LLR.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
from pathlib import Path
from typing import TYPE_CHECKING

from plies.cli import match_options
from plies.cli.common import CliError, Command, cannot_write, check_minimum

if TYPE_CHECKING:
    from plies.arena.builds import Build
    from plies.arena.gsprt import Sprt
    from plies.arena.match import MatchResult
    from plies.arena.openings import Opening
    from plies.arena.pentanomial import Pentanomial
    from plies.arena.referee import GameSettings

_EPILOG = """\
builds: --new / --base take a git revision (checked out into a temporary worktree and run
as `python -m plies uci`); left out, a side is the plies that runs this command. Two option
sets of one build: --base-options / --new-options (UCI options, Name=value,...). An
EvalFile is loaded here first, and an option the engine refuses stops the run before any game.
bounds: --elo0/--elo1 in normalized Elo (fishtest's default model) or, with --model
logistic, in plain (logistic) Elo; the LLR is fishtest's pentanomial GSPRT on the game
pairs, the test plies arena --sprt runs.
examples:
  plies sprt --base main --new HEAD --tc 10+0.1
  plies sprt --base HEAD~1 --elo0 0 --elo1 5 --log benchmarks/sprt-log.md --change "LMR tweak"
  plies sprt --base-options Hash=1 --new-options Hash=64 --nodes 20000 --games 200
  plies sprt --base HEAD~1 --variant chess960 --tc 5+0.05
  plies sprt --base main --new HEAD --tc 10+0.1 --cluster auto
cluster (pip install 'plies[cluster]'):
  --cluster auto plays the games on a private Ray instance on this machine's cores; an address
  (HOST:PORT or ray://HOST:10001) joins an existing Ray cluster, whose every node needs this
  Python and plies at the same paths and, for a --new/--base revision, its temporary checkout
  at the same path (set TMPDIR to a directory every node mounts); a node without a build's
  sources stops the run with an error naming it.  Games are counted, written and fed to the
  SPRT by game number; at a verdict the games still running are cancelled and reported, not
  counted.  A game lost with a worker is replayed.  --concurrency sets the number of workers
  (default: one per cluster CPU).
"""


COMMAND = Command("sprt", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies sprt``."""
    p.add_argument("--new", metavar="REF", help="git revision of the new build (default: this one)")
    p.add_argument("--base", metavar="REF", help="git revision of the base build (default: this)")
    p.add_argument("--new-options", default="", metavar="OPTS", help="UCI options Name=v,...")
    p.add_argument("--base-options", default="", metavar="OPTS", help="UCI options Name=v,...")
    p.add_argument("--repo", metavar="DIR", help="git repository of the revisions (default: cwd)")
    p.add_argument("--elo0", type=float, default=0.0, help="H0 bound (default 0)")
    p.add_argument("--elo1", type=float, default=5.0, help="H1 bound (default 5)")
    p.add_argument("--model", choices=("normalized", "logistic"), default="normalized",
                   help="Elo scale of the bounds (default normalized, as fishtest)")
    p.add_argument("--alpha", type=float, default=0.05, help="default 0.05")
    p.add_argument("--beta", type=float, default=0.05, help="default 0.05")
    p.add_argument("--games", type=int, default=2000, metavar="N",
                   help="stop without a verdict after N games (default 2000)")
    match_options.add_cluster_options(p, "games at once")
    match_options.add_game_arguments(p, "; both builds must speak UCI_Chess960")
    p.add_argument("--pgn", metavar="OUT", help="write the games to this PGN file")
    p.add_argument("--log", metavar="FILE.md", help="append the outcome to this SPRT log")
    p.add_argument("--change", default="", metavar="TEXT", help="what changed (for --log)")
    p.add_argument("-q", "--quiet", action="store_true", help="no line per finished game")


def sprt_test(args: argparse.Namespace) -> Sprt:
    """The SPRT the options ask for."""
    from plies.arena.gsprt import Sprt

    return Sprt(args.elo0, args.elo1, args.alpha, args.beta, args.model)


def _check(args: argparse.Namespace) -> None:
    """Reject impossible option values with one clear line."""
    check_minimum(args, {"games": 2})
    if not args.elo0 < args.elo1:
        raise CliError("--elo0 must be below --elo1")
    if not (0 < args.alpha < 0.5 and 0 < args.beta < 0.5):
        raise CliError("--alpha and --beta must be between 0 and 0.5")
    same_build = (args.new or None) == (args.base or None)
    if same_build and args.new_options == args.base_options:
        raise CliError("the builds are the same: give --base/--new revisions or different options")
    if args.log and not args.change:
        raise CliError("--log needs --change TEXT saying what was tested")
    match_options.check(args)


def _build(name: str, src: Path, options: str, revision: str) -> Build:
    """A build with its options parsed."""
    from plies.arena.builds import Build, BuildError, check_net_options
    from plies.registry import parse_options

    try:
        opts = parse_options(options)
        check_net_options(tuple(opts.items()))
    except (ValueError, BuildError) as exc:
        raise CliError(f"--{name}-options: {exc}") from None
    label = name if not revision else f"{name}@{revision[:8]}"
    return Build(label, src, tuple(opts.items()), revision)


def run(args: argparse.Namespace) -> int:
    """Check out and warm the builds, play until the SPRT decides, report (and log)."""
    from plies.arena.builds import CURRENT_SRC, BuildError, checkout, repository_root

    _check(args)
    settings = match_options.game_settings(args)
    games = args.games + args.games % 2
    openings = match_options.openings(args, games // 2)
    with contextlib.ExitStack() as stack:
        sides: dict[str, Build] = {}
        try:
            repo = repository_root(Path(args.repo or ".")) if (args.new or args.base) else None
            for name in ("new", "base"):
                ref = getattr(args, name)
                src, commit = CURRENT_SRC, ""
                if ref:
                    assert repo is not None
                    src, commit = stack.enter_context(checkout(repo, ref))
                sides[name] = _build(name, src, getattr(args, f"{name}_options"), commit)
        except BuildError as exc:
            raise CliError(str(exc)) from None
        return _play(args, sides["new"], sides["base"], settings, openings, games)
    return 0  # pragma: no cover  (mypy: ExitStack may swallow exceptions)


def _play(
    args: argparse.Namespace,
    new: Build,
    base: Build,
    settings: GameSettings,
    openings: list[Opening],
    games: int,
) -> int:
    """Warm both builds, run the match with the pentanomial SPRT and print the report."""
    from rich.console import Console

    from plies.arena.builds import BuildError, warm_up
    from plies.arena.cluster import ClusterError
    from plies.arena.match import Match, MatchSettings
    from plies.arena.pairs import pentanomial
    from plies.arena.pgn import to_pgn
    from plies.arena.referee import GameRecord
    from plies.arena.report import cluster_line, game_line
    from plies.arena.runner import run_match
    from plies.cli.progress import progress_bar

    out = Console()
    err = Console(stderr=True)
    for src in dict.fromkeys((new.src, base.src)):
        status = err.status(f"compiling the engine in {src} ...") if err.is_terminal else None
        with status or contextlib.nullcontext():
            try:
                warm_up(src)
            except BuildError as exc:
                raise CliError(str(exc)) from None
    labels = [(f"the {b.name} build", f"the {b.name} build did not start") for b in (new, base)]
    started = match_options.try_players([new.spec(), base.spec()], args.variant == "chess960",
                                        labels)
    try:
        writer = match_options.pgn_writer(args.pgn)
    except CliError:
        for player in started:
            player.close()
        raise
    sprt = sprt_test(args)
    lower, upper = sprt.bounds
    progress = progress_bar(err, "[bold]sprt", "{task.fields[status]}")
    tc_tag = settings.tc.pgn() if settings.tc is not None else "-"

    def on_game(record: GameRecord, res: MatchResult) -> None:
        """Write the game and show the LLR the match's SPRT reached (it stops at a verdict)."""
        if writer is not None:
            writer.write(to_pgn(record, event="plies sprt", time_control=tc_tag))
        if not args.quiet:
            err.print(game_line(record), markup=False, highlight=False, soft_wrap=True)
        llr = res.sprt_llr or 0.0
        progress.update(task, advance=1, status=f"LLR {llr:.2f} [{lower:.2f}, {upper:.2f}]")

    # A build runs from its sources' path (a revision: a temporary checkout here); a node
    # without that path would run whatever plies it has installed, so each worker checks.
    needs = tuple((str(b.src), f"the sources of build {b.name}") for b in (new, base))
    match = Match(
        [new.spec(), base.spec()],
        MatchSettings(
            games=games,
            concurrency=args.concurrency or 1,
            seed=args.seed,
            cluster=args.cluster,
            cluster_slots=args.concurrency or 0,
            cluster_needs=needs,
            sprt=sprt,
        ),
        settings,
        openings,
        on_game=on_game,
        started=started,
    )
    task = progress.add_task("games", total=games, status="")
    failure = ""
    try:
        with progress:
            result = run_match(match)
    except ClusterError as exc:
        if not match.result.records:
            raise CliError(str(exc)) from None
        # The games counted so far are already in the PGN; the report and the log keep them.
        failure = str(exc)
        result = match.result
    finally:
        if writer is not None:
            writer.close()
    penta = pentanomial(result.records)
    verdict = result.sprt_verdict
    llr, _ = sprt.decide(penta)
    lines = report_lines(args, new, base, penta, llr, verdict, result.scores[(0, 1)])
    if args.cluster is not None:
        lines.append(cluster_summary(result))
    for line in lines:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    if args.cluster is not None:
        err.print(cluster_line(result.workers, result.worker_slots), markup=False,
                  highlight=False, soft_wrap=True)
    interrupted = (
        not failure and result.interrupted and verdict is None and result.played < games
    )
    if args.log and interrupted:
        err.print(f"interrupted: nothing written to {args.log}", markup=False, highlight=False)
    elif args.log:
        stopped = f"cluster error at {result.played} games" if failure else ""
        _log(args, new, base, settings, penta, llr, verdict, result.scores[(0, 1)], stopped)
        out.print(f"logged to {args.log}", markup=False, highlight=False, soft_wrap=True)
    if failure:
        err.print(f"plies sprt: error: {failure}", markup=False, highlight=False, soft_wrap=True)
        return 2
    return 130 if interrupted else 0


def cluster_summary(result: MatchResult) -> str:
    """What the cluster did with the games: counted, replayed, given up, cancelled at the end."""
    return (
        f"cluster: {result.played} games counted, {result.replays} replayed after a lost "
        f"worker or engine, {result.given_up} given up, {result.cancelled} started but not "
        "counted (the test had ended)"
    )


def _error(value: float) -> str:
    """An error bar: one decimal, or inf."""
    return "inf" if math.isinf(value) else f"{value:.1f}"


def _fixed(value: float) -> str:
    """Two decimals, never "-0.00"."""
    return f"{round(value, 2) + 0.0:.2f}"


def _verdict_text(verdict: object) -> str:
    """Accepted (H1), rejected (H0) or no verdict."""
    return {"H1": "H1 accepted: new passes", "H0": "H0 accepted: new fails"}.get(
        str(verdict), "no verdict"
    )


def report_lines(
    args: argparse.Namespace,
    new: Build,
    base: Build,
    penta: Pentanomial,
    llr: float,
    verdict: object,
    score: object,
) -> list[str]:
    """The game-pair report: pair counts, W/D/L, Elo with error, nElo, LLR and verdict."""
    from plies.arena.pentanomial import pair_elo_error
    from plies.arena.stats import Tally, format_elo, normalized_elo

    assert isinstance(score, Tally)
    sprt = sprt_test(args)
    lower, upper = sprt.bounds
    elo, err = pair_elo_error(penta)
    c = penta.counts
    return [
        f"{new.name} vs {base.name}: {score.games} games, {penta.pairs} complete pairs",
        f"W-D-L (new): {score.wins}-{score.draws}-{score.losses}, score {100 * score.mean:.1f}%",
        f"pairs scoring 0 / 0.5 / 1 / 1.5 / 2 points: {c[0]} / {c[1]} / {c[2]} / {c[3]} / {c[4]}",
        f"Elo (pairs) {format_elo(elo)} +- {_error(err)} (95%), normalized Elo "
        f"{format_elo(normalized_elo(penta))}",
        f"SPRT ({sprt.describe(penta)}): LLR {_fixed(llr)} [{lower:.2f}, {upper:.2f}] - "
        f"{_verdict_text(verdict)}",
    ]


def _log(
    args: argparse.Namespace,
    new: Build,
    base: Build,
    settings: GameSettings,
    penta: Pentanomial,
    llr: float,
    verdict: object,
    score: object,
    stopped: str = "",
) -> None:
    """Append the run to the SPRT log (``stopped``: why it ended early, if it did)."""
    from plies.arena.pentanomial import pair_elo_error
    from plies.arena.sprtlog import LogEntry, append_entry
    from plies.arena.stats import Tally, format_elo

    assert isinstance(score, Tally)
    lower, upper = sprt_test(args).bounds
    if settings.tc is not None:
        control = settings.tc.pgn() + " s"
    elif settings.limit.nodes is not None:
        control = f"{settings.limit.nodes} nodes"
    elif settings.limit.depth is not None:
        control = f"depth {settings.limit.depth}"
    else:
        control = f"{settings.limit.movetime} ms/move"
    elo, err = pair_elo_error(penta)
    model = "" if args.model == "normalized" else " logistic"
    result = {"H1": "accepted (H1)", "H0": "rejected (H0)"}.get(
        str(verdict), f"no verdict ({stopped or f'stopped at {score.games} games'})"
    )
    entry = LogEntry(
        date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
        change=args.change,
        new=_side_text(new),
        base=_side_text(base),
        control=control,
        bounds=f"[{args.elo0:g}, {args.elo1:g}]{model}" + _error_rates(args),
        games=score.games,
        pentanomial=penta.counts,
        wdl=(score.wins, score.draws, score.losses),
        elo=f"{format_elo(elo)} ± {_error(err)}",
        llr=f"{_fixed(llr)} [{lower:.2f}, {upper:.2f}]",
        result=result,
    )
    try:
        append_entry(args.log, entry)
    except OSError as exc:
        raise cannot_write(args.log, exc) from None


def _error_rates(args: argparse.Namespace) -> str:
    """Alpha and beta for the log when they are not the default 0.05."""
    if args.alpha == 0.05 and args.beta == 0.05:
        return ""
    return f" alpha={args.alpha:g} beta={args.beta:g}"


def _side_text(build: Build) -> str:
    """A build as the log shows it: revision (or working tree) and options."""
    where = build.revision[:10] if build.revision else "working tree"
    if build.options:
        where += " " + ",".join(f"{k}={v}" for k, v in build.options)
    return where
