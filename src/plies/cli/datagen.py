"""training positions (FEN | result) from seeded self-play games; resumable.

Play seeded self-play games at a fixed node or depth budget and write their quiet positions
with the game result. Re-running the same command continues where it stopped (Ctrl-C keeps
every finished game); the same seed gives the same file.
"""

from __future__ import annotations

import argparse
import contextlib

from plies.cli import match_options
from plies.cli.common import CliError, Command, check_minimum

_EPILOG = """\
output lines (see plies.learn.datagen for the full format):
  FEN | result            result 1.0 / 0.5 / 0.0 from White's side
  FEN | score | result    with --scores: the mover's search score, White's side, centipawns
examples:
  plies datagen out.txt --games 1000 --nodes 5000 --seed 1
  plies datagen out.txt --games 2000 --nodes 5000 --seed 1      (continues the run above)
  plies datagen sf.txt --player uci:/usr/games/stockfish --depth 6 --scores
  plies datagen big.txt --games 100000 --nodes 5000 --seed 1 --cluster auto
cluster (pip install 'plies[cluster]'):
  --cluster auto starts a private Ray instance on this machine's cores; an address (HOST:PORT
  or ray://HOST:10001) joins an existing Ray cluster (every node needs plies, and the
  players' engines at the same paths).  Each worker keeps its players between games; this
  machine writes the lines by game number, so the file is the one a local run with the same
  seed writes, and it resumes the same way.  A game lost with a worker or an engine process
  is replayed.  --concurrency sets the number of workers (default: one per cluster CPU).
"""


COMMAND = Command("datagen", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies datagen``."""
    p.add_argument("output", metavar="OUT",
                   help="file to write (OUT.progress.json records progress)")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games in the file when done (default 100)")
    p.add_argument("--player", default="engine", metavar="PLAYER",
                   help="arena player spec, e.g. engine or uci:COMMAND (default engine)")
    p.add_argument("--opponent", default="", metavar="PLAYER",
                   help="a second player (default: the player against itself)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=int, default=2000, metavar="N",
                        help="nodes per move (default 2000)")
    budget.add_argument("--depth", type=int, metavar="D", help="fixed depth per move instead")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="base seed (default 0)")
    p.add_argument("--random-plies", type=int, default=8, metavar="N",
                   help="random opening plies per game, for variety (default 8)")
    p.add_argument("--skip-plies", type=int, default=16, metavar="N",
                   help="write no position before ply N of a game (default 16)")
    p.add_argument("--scores", action="store_true", help="write the search score as well")
    p.add_argument("--max-moves", type=int, default=200, metavar="N",
                   help="a game still running at move N is a draw (default 200)")
    p.add_argument("--resign-score", type=int, default=1000, metavar="CP",
                   help="a side scoring <= -CP for --resign-moves moves loses (default 1000)")
    p.add_argument("--resign-moves", type=int, default=4, metavar="N",
                   help="0 switches resigning off (default 4)")
    match_options.add_cluster_options(
        p, "games at once, in K worker processes, writing the same file as K = 1"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")


def _check(args: argparse.Namespace) -> None:
    """Reject impossible option values with one clear line."""
    check_minimum(args, {"games": 1, "max_moves": 1, "random_plies": 0, "skip_plies": 0,
                         "resign_moves": 0, "resign_score": 0})
    match_options.check(args)


def run(args: argparse.Namespace) -> int:
    """Play the missing games, appending each one's positions; 130 if interrupted."""
    from concurrent.futures.process import BrokenProcessPool

    from rich.console import Console

    from plies.agents.player import Player, PlayerError
    from plies.arena.cluster import ClusterError
    from plies.cli.progress import progress_bar
    from plies.learn.datagen import (
        DatagenFile,
        DatagenFileError,
        DatagenSettings,
        play_datagen_game,
    )
    from plies.learn.datagen.pool import games_in_order
    from plies.learn.datagen.positions import position_lines
    from plies.learn.datagen.remote import ClusterStats, games_on_cluster

    _check(args)
    settings = DatagenSettings(
        player=args.player,
        opponent=args.opponent,
        nodes=None if args.depth is not None else args.nodes,
        depth=args.depth,
        seed=args.seed,
        random_plies=args.random_plies,
        skip_plies=args.skip_plies,
        scores=args.scores,
        max_moves=args.max_moves,
        resign_score=args.resign_score,
        resign_moves=args.resign_moves,
    )
    texts = (args.player, args.opponent or args.player)
    specs = [match_options.parse_spec(text) for text in texts]
    try:
        out = DatagenFile(args.output, settings.as_dict())
    except DatagenFileError as exc:
        raise CliError(str(exc)) from None
    err = Console(stderr=True)
    players: list[Player] = []
    start = out.games
    stats = ClusterStats()
    try:
        if out.games >= args.games:
            if not args.quiet:
                err.print(
                    f"{args.output} already holds {out.games} games ({out.positions} positions)"
                )
            return 0
        local_workers = args.concurrency or 1
        if args.cluster is None and local_workers == 1:
            try:
                players.append(specs[0].create())
                players.append(specs[1].create() if args.opponent else players[0])
            except (PlayerError, ValueError) as exc:
                detail = exc.detail if isinstance(exc, PlayerError) else str(exc)
                raise CliError(f"player could not start: {detail}") from None
        progress = progress_bar(err, "[bold]datagen", "{task.fields[positions]} positions",
                                quiet=args.quiet)  # fmt: skip
        task = progress.add_task(
            "games", total=args.games, completed=out.games, positions=out.positions
        )
        with progress:
            if args.cluster is not None or local_workers > 1:
                if args.cluster is not None:
                    games = games_on_cluster(
                        settings,
                        out.games + 1,
                        args.games,
                        args.cluster,
                        args.concurrency or 0,
                        stats,
                    )
                else:
                    games = games_in_order(settings, out.games + 1, args.games, local_workers)
                with contextlib.closing(games):
                    try:
                        for lines in games:
                            out.commit(lines)
                            progress.update(
                                task, completed=out.games, positions=out.positions
                            )
                    except ClusterError as exc:
                        kept = f" ({out.games} games kept in {args.output})" if out.games else ""
                        raise CliError(f"{exc}{kept}") from None
                    except (BrokenProcessPool, PlayerError, ValueError) as exc:
                        detail = exc.detail if isinstance(exc, PlayerError) else str(exc)
                        raise CliError(f"a worker failed: {detail or 'it exited'}") from None
            while out.games < args.games:
                record = play_datagen_game(settings, out.games + 1, players[0], players[1])
                out.commit(position_lines(record, settings.skip_plies, settings.scores))
                progress.update(task, completed=out.games, positions=out.positions)
    except KeyboardInterrupt:
        if not args.quiet:
            err.print(
                f"interrupted: {out.games} games ({out.positions} positions) kept in "
                f"{args.output}; run the same command to continue"
            )
        return 130
    finally:
        for player in {id(p): p for p in players}.values():
            player.stop()
            player.close()
        out.close()
    if not args.quiet:
        if args.cluster is not None:
            from plies.arena.report import cluster_line

            err.print(
                f"{cluster_line(stats.workers, stats.slots)}; {stats.replays} games replayed "
                "after a lost worker or engine"
            )
        err.print(
            f"{out.games - start} games played; {args.output} holds {out.games} games, "
            f"{out.positions} positions"
        )
    return 0
