"""``plies analyse --pgn``: every game of a PGN file analysed, annotated, summarised, plotted
(and the checks and tablebase set-up both modes of ``plies analyse`` share)."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from plies.cli.common import CliError, cannot_write

if TYPE_CHECKING:
    import chess.pgn
    from rich.console import Console

    from plies.analysis import GameAnalysis
    from plies.engine import Engine, Limit

def check_arguments(args: argparse.Namespace) -> None:
    """Reject option combinations that make no sense with one line."""
    if args.pgn is None:
        for flag, value in (("--output", args.output), ("--plot", args.plot)):
            if value is not None:
                raise CliError(f"{flag} needs --pgn FILE")
        return
    if args.fen is not None or args.moves:
        raise CliError("--pgn analyses whole games; it cannot be combined with --fen or --moves")
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CliError("--plot needs matplotlib: pip install 'plies[plot]'") from None
        parent = Path(args.plot).parent
        if not parent.is_dir():
            raise CliError(f"cannot write the plot {args.plot}: no such directory {parent}")


def load_tablebases(engine: Engine, path: str, out: Console) -> None:
    """Give ``engine`` the Syzygy tables of ``path`` and say what was found (error if nothing)."""
    engine.set_option("SyzygyPath", path)
    lines = engine.tablebases.report()
    if not engine.tablebases.loaded:
        problems = "; ".join(lines[1:]) or "no directory of it exists"
        raise CliError(f"--syzygy {path}: no Syzygy tables found ({problems})")
    for line in lines:
        out.print(line[0].upper() + line[1:], markup=False)


def _limit(args: argparse.Namespace) -> Limit:
    """The search limit for every position."""
    from plies.engine.limits import ANALYSIS_MOVETIME_MS, Limit

    if args.depth is not None:
        return Limit(depth=args.depth)
    if args.nodes is not None:
        return Limit(nodes=args.nodes)
    if args.movetime is not None:
        return Limit(movetime=args.movetime)
    if args.time is not None:
        return Limit(movetime=round(1000 * args.time))
    return Limit(movetime=ANALYSIS_MOVETIME_MS)


def _describe(limit: Limit) -> str:
    """``depth 12`` / ``500 ms`` / ``10000 nodes`` per position."""
    if limit.depth is not None:
        return f"depth {limit.depth}"
    if limit.nodes is not None:
        return f"{limit.nodes} nodes"
    return f"{limit.movetime} ms"


def _load(path: str, err: Console) -> list[tuple[int, chess.pgn.Game]]:
    """The usable games of the file (numbered), every unusable one named on stderr."""
    from plies.analysis import PgnFileError, Problem, read_games

    # python-chess also logs each PGN error; the one line per game below says it better.
    logging.getLogger("chess.pgn").addHandler(logging.NullHandler())
    logging.getLogger("chess.pgn").propagate = False
    games: list[tuple[int, chess.pgn.Game]] = []
    try:
        for number, item in enumerate(read_games(path), 1):
            if isinstance(item, Problem):
                err.print(f"plies analyse: {item.reason}", markup=False, highlight=False)
            else:
                games.append((number, item))
    except PgnFileError as exc:
        raise CliError(str(exc)) from None
    return games


def _open_output(path: str | None) -> TextIO:
    """The stream the annotated PGN goes to (standard output by default)."""
    if path is None:
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # closed by run_pgn
    except OSError as exc:
        raise cannot_write(path, exc) from None


def _plot_path(base: str, index: int) -> Path:
    """The first game's plot goes to ``base``; game k to ``stem-k.png`` beside it."""
    p = Path(base)
    return p if index == 0 else p.with_name(f"{p.stem}-{index + 1}{p.suffix or '.png'}")


def run_pgn(args: argparse.Namespace) -> int:
    """Analyse every game; 0 if at least one was analysed, 2 if none could be, 130 on Ctrl-C."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from plies.analysis import analyse_game, annotate, summarise
    from plies.analysis.game_review import positions_in
    from plies.analysis.pgnfile import game_label
    from plies.engine import Engine

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    games = _load(args.pgn, err)
    if not games:
        raise CliError(f"nothing could be analysed in {args.pgn}")
    limit = _limit(args)
    output = _open_output(args.output)
    # The summary must not mix into a PGN written on standard output.
    report = err if args.output is None else Console(highlight=False, soft_wrap=True)
    engine = Engine(args.hash)
    engine.warm_up()  # announces a first-run compile itself
    if args.syzygy is not None:
        load_tablebases(engine, args.syzygy, err)
    total = sum(positions_in(game) for _, game in games)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("positions"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=err, disable=not err.is_terminal,
    )
    task = progress.add_task("analysing", total=total)
    done: list[GameAnalysis] = []
    plots: list[Path] = []
    started = time.perf_counter()
    interrupted = False
    try:
        with progress if err.is_terminal else nullcontext():
            for number, game in games:
                progress.update(task, description=f"game {number}")
                try:
                    analysis = analyse_game(game, engine, limit, number,
                                            on_position=lambda: progress.advance(task))
                except ValueError as exc:  # a position python-chess accepts and plies does not
                    err.print(f"plies analyse: {game_label(number, game)}: {exc}; skipped",
                              markup=False)
                    continue
                annotate(analysis)
                print(analysis.game, file=output, end="\n\n", flush=True)
                done.append(analysis)
                if args.plot is not None:
                    plots.append(_plot(analysis, _plot_path(args.plot, len(plots))))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if output is not sys.stdout:
            output.close()
    elapsed = time.perf_counter() - started
    for analysis in done:
        report.print(f"{game_label(analysis.number, analysis.game)}, {len(analysis.moves)} moves:",
                     markup=False)
        for player in summarise(analysis):
            report.print(f"  {player.line()}", markup=False)
    searched = sum(1 for a in done for p in a.positions() if p.depth > 0)
    if searched:
        report.print(
            f"Analysed {len(done)} game{'s' if len(done) != 1 else ''}, "
            f"{sum(len(a.moves) for a in done)} moves: {searched} positions searched "
            f"({_describe(limit)} each) in {elapsed:.1f} s, {elapsed / searched:.2f} s per "
            "position" + (f"; PGN written to {args.output}" if args.output else ""),
            markup=False,
        )
    for path in plots:
        report.print(f"Plot written to {path}", markup=False)
    if interrupted:
        err.print("interrupted: the games above were analysed")
        return 130
    if not done:
        raise CliError(f"nothing could be analysed in {args.pgn}")
    return 0


def _plot(analysis: GameAnalysis, path: Path) -> Path:
    """Draw one game's graph into ``path``."""
    from plies.analysis.plot import plot_game

    try:
        plot_game(analysis, path)
    except OSError as exc:
        raise cannot_write(f"the plot {path}", exc) from None
    return path
