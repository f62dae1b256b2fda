"""analyse a position, or (--pgn) every move of the games in a PGN file.

Search a position with the plies engine, printing each finished iteration (depth/seldepth,
score from White's point of view, nodes, speed, line in SAN) and, at the end, the best line.
Ctrl-C stops early and still prints it. With --pgn, search every position of every game
instead and write the games annotated: [%eval] comments, ?! ? ?? for inaccuracies, mistakes
and blunders (lichess's winning-chances drops of 0.1, 0.2 and 0.3) with the engine's better
line, then print each player's average centipawn loss and counts.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from plies.cli._game_analysis import check_arguments, load_tablebases, run_pgn
from plies.cli.common import CliError, Command
from plies.engine.limits import ANALYSIS_MOVETIME_MS
from plies.options import MULTIPV

if TYPE_CHECKING:
    from rich.console import Console

    from plies.board import Board, Move
    from plies.engine import Engine, Info

# Without --time or --depth, think this long (seconds).
DEFAULT_TIME_S = 5.0

# Most lines ``--multipv`` may ask for (as the engine's MultiPV option).
MAX_MULTIPV = MULTIPV.spin_range()[1]

_HEADER = f"{'depth':>9}  {'line':>4}  {'score':>8}  {'nodes':>11}  {'nps':>9}  {'time':>8}  line"


COMMAND = Command("analyse", __doc__, aliases=("analyze",))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies analyse``."""
    p.add_argument("--pgn", metavar="FILE", help="analyse every move of every game in FILE")
    p.add_argument("--output", metavar="FILE",
                   help="with --pgn: write the annotated PGN here (default: standard output)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="with --pgn: draw the evaluation graph (more games: FILE-2.png, ...)")
    p.add_argument("--fen", help="position to analyse (default: the starting position)")
    p.add_argument("--moves", nargs="+", metavar="MOVE", default=[],
                   help="moves played from that position first (UCI like e2e4, or SAN like Nf3)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--time", type=float, metavar="S",
                       help=f"think S seconds (default {DEFAULT_TIME_S:g}; "
                       f"with --pgn {ANALYSIS_MOVETIME_MS} ms per position)")
    limit.add_argument("--movetime", type=int, metavar="MS", help="think MS milliseconds")
    limit.add_argument("--depth", type=int, metavar="D", help="search to depth D")
    limit.add_argument("--nodes", type=int, metavar="N", help="search about N nodes")
    p.add_argument("--multipv", type=int, default=1, metavar="N",
                   help="show the N best moves, each with its own line (default 1; not with --pgn)")
    p.add_argument("--hash", type=int, default=64, metavar="MB",
                   help="transposition table size in MB (default 64)")
    p.add_argument("--syzygy", metavar="PATH",
                   help="Syzygy tablebase directories (as the SyzygyPath option: several "
                   f"separated by {os.pathsep!r}); the search probes them and a position "
                   "they cover is reported with its tablebase result")


def _board(args: argparse.Namespace) -> Board:
    """The position to analyse: the FEN, then the moves (each checked)."""
    from plies.board import Board

    try:
        board = Board(Board.STARTING_FEN if args.fen is None else args.fen)
        board.check_playable()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    for i, text in enumerate(args.moves, 1):
        move = None
        for parse in (board.parse_uci, board.parse_san):
            try:
                move = parse(text)
                break
            except ValueError:
                continue
        if not move:  # unreadable, illegal, or the null move python-chess reads in "0000"
            raise CliError(f"move {i} ({text!r}) is not a legal move in {board.fen()}")
        board.push(move)
    return board


def _check(args: argparse.Namespace) -> None:
    """Reject impossible limits with one clear line."""
    if args.time is not None and not 0 < args.time <= 86_400:
        raise CliError(f"--time must be between 0 and 86400 seconds, got {args.time:g}")
    if args.depth is not None and not 1 <= args.depth <= 64:
        raise CliError(f"--depth must be between 1 and 64, got {args.depth}")
    if args.movetime is not None and not 1 <= args.movetime <= 86_400_000:
        raise CliError(f"--movetime must be between 1 and 86400000 ms, got {args.movetime}")
    if args.nodes is not None and args.nodes < 1:
        raise CliError(f"--nodes must be at least 1, got {args.nodes}")
    if not 1 <= args.multipv <= MAX_MULTIPV:
        raise CliError(f"--multipv must be between 1 and {MAX_MULTIPV}, got {args.multipv}")
    if args.multipv > 1 and args.pgn is not None:
        raise CliError("--multipv shows lines for one position; it cannot be combined with --pgn")
    if not 1 <= args.hash <= 4096:
        raise CliError(f"--hash must be between 1 and 4096 MB, got {args.hash}")


def tablebase_verdict(board: Board, engine: Engine) -> str | None:
    """``Tablebase: White wins (DTZ 13)`` for a position the loaded tables cover, else None."""
    tables = engine.tablebases.tablebase
    if tables is None or not engine.tablebases.loaded:
        return None
    # None for what the tables lack (material, castling rights).
    wdl, dtz = tables.probe_wdl(board), tables.probe_dtz(board)
    if wdl is None:
        return None
    mover, other = ("White", "Black") if board.turn else ("Black", "White")
    result = {2: f"{mover} wins", 1: f"{mover} wins, but the 50-move rule draws it",
              0: "draw", -1: f"{other} wins, but the 50-move rule draws it",
              -2: f"{other} wins"}[wdl]
    return f"Tablebase: {result}" + (f" (DTZ {dtz})" if dtz else "")


def score_white(info: Info) -> str:
    """The score from White's point of view: ``+0.31`` or ``#3`` / ``#-2`` (``?``: none)."""
    from plies.engine.score import score_text

    return "?" if info.score is None else score_text(info.score.white())


def line_san(board: Board, pv: list[Move]) -> str:
    """A principal variation in SAN with move numbers (UCI if it is not legal)."""
    try:
        return board.variation_san(pv)
    except ValueError:
        return " ".join(m.uci() for m in pv) + "  (not legal from here: shown in UCI)"


def _row(board: Board, info: Info) -> str:
    """One printed iteration."""
    depth = f"{info.depth}/{info.seldepth}"
    return (
        f"{depth:>9}  {info.multipv:>4}  {score_white(info):>8}  "
        f"{info.nodes:>11}  "
        f"{info.nps:>9}  {info.time_ms / 1000:>7.2f}s  {line_san(board, list(info.pv))}"
    )


def run(args: argparse.Namespace) -> int:
    """Search and print; 130 if interrupted (after printing the best line found)."""
    _check(args)
    check_arguments(args)
    if args.pgn is not None:
        return run_pgn(args)
    import threading

    from rich.console import Console

    from plies.compile_notice import compile_notice
    from plies.engine import Engine, Limit

    board = _board(args)
    out = Console(highlight=False, soft_wrap=True)
    out.print(f"Position: {board.fen()}", markup=False)
    if not board.legal_moves:
        outcome = board.outcome()
        text = outcome.termination.name.lower() if outcome is not None else "no legal move"
        out.print(f"Nothing to analyse: the game is over ({text}, {board.result()}).")
        return 0
    with compile_notice("compiling the engine (first run only)..."):
        engine = Engine(args.hash)
        engine.warm_up()
    if args.syzygy is not None:
        load_tablebases(engine, args.syzygy, out)
        verdict = tablebase_verdict(board, engine)
        if verdict is not None:
            out.print(verdict, markup=False)
    engine.set_multipv(args.multipv)
    if args.depth is not None:
        limit = Limit(depth=args.depth)
    elif args.nodes is not None:
        limit = Limit(nodes=args.nodes)
    elif args.movetime is not None:
        limit = Limit(movetime=args.movetime)
    else:
        limit = Limit(movetime=round(1000 * (args.time or DEFAULT_TIME_S)))
    out.print(_HEADER, style="bold")
    last: list[Info] = []
    done = threading.Event()

    def on_info(info: Info) -> None:
        """Print each finished iteration as it arrives."""
        last.append(info)
        out.print(_row(board, info), markup=False)

    engine.start(board, limit, on_info=on_info, on_done=lambda _result: done.set())
    interrupted = False
    try:
        # The search may also end without ``on_done`` (it raised): then ``wait`` raises.
        while not done.wait(0.1) and engine.is_searching():
            pass
    except KeyboardInterrupt:
        interrupted = True
        engine.stop()
    result = engine.wait()
    best_lines = [info for info in last if info.multipv == 1]
    _summary(out, board, result.move if result else None, best_lines)
    if result is not None and len(result.lines) > 1:
        _lines_summary(out, board, result.lines)
    return 130 if interrupted else 0


def _summary(out: Console, board: Board, best: Move | None, infos: list[Info]) -> None:
    """The best move and line in SAN, with the final score."""
    out.print()
    if best is None:
        out.print("No best move was found.")
        return
    out.print(f"Best move: {board.san(best)}", style="bold", markup=False)
    if infos:
        info = infos[-1]
        pv = list(info.pv) if info.pv and info.pv[0] == best else [best]
        out.print(
            f"Best line: {line_san(board, pv)}  "
            f"(score {score_white(info)} for White, depth {info.depth})",
            markup=False,
        )


def _lines_summary(out: Console, board: Board, lines: list[Info]) -> None:
    """The best lines (MultiPV), one per row in SAN, best first."""
    out.print()
    out.print(f"Best {len(lines)} lines:", style="bold")
    for info in lines:
        out.print(
            f"{info.multipv:>4}. {score_white(info):>7}  (depth {info.depth})  "
            f"{line_san(board, list(info.pv))}",
            markup=False,
        )
