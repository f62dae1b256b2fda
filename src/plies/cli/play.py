"""play chess against plies in the terminal.

Play a game in the terminal. Moves in SAN (Nf3) or UCI (g1f3); type 'help' during the game
for commands (undo, hint, flip, fen, pgn, resign, new).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from plies.cli import match_options
from plies.cli.common import CliError, Command
from plies.options import ELO

if TYPE_CHECKING:
    from plies.agents.player import Player

MIN_ELO, MAX_ELO = ELO.spin_range()


COMMAND = Command("play", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies play``."""
    from plies.agents.spec import spec_help

    p.add_argument("--color", "--colour", dest="color", choices=("white", "black", "random"),
                   default="white", help="your side (default white)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--opponent", "--agent", dest="agent", metavar="SPEC",
                     help=f"opponent: {spec_help()}")
    who.add_argument("--level", type=int, metavar="N",
                     help="the engine searching N plies deep (1 = weakest)")
    who.add_argument("--elo", type=int, metavar="N",
                     help="the engine playing like a player rated N on Stockfish's UCI_Elo scale "
                     f"({MIN_ELO}-{MAX_ELO})")
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help="thinking time per move (default: 1 s for the engine)")
    p.add_argument("--fen", metavar="FEN", help="start from this position")
    p.add_argument("--chess960", nargs="?", const="random", metavar="N",
                   help="Chess960: start position N (0-959; 518 is the usual start), a seeded "
                        "random one per game without N, or the --fen position by 960 rules")
    p.add_argument("--ascii", action="store_true", help="plain letters, no Unicode or colours")
    p.add_argument("--seed", type=int, metavar="S", help="seed for the agent and --color random")
    p.add_argument("--book", metavar="FILE.bin",
                   help="Polyglot opening book: the opponent plays from it (weighted) while it can")
    match_options.add_sandbox_options(p)


def _engine_available() -> bool:
    """True if the engine's compiler (numba) is installed.

    Looked up, not imported: importing numba takes a good part of a second, which
    the board is not kept waiting for (the engine is loaded in the background).
    """
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def _opponent(args: argparse.Namespace) -> tuple[Player, str]:
    """The player to play against, and a note if a fallback was used."""
    from plies.agents.registry import make_player
    from plies.agents.spec import SpecError, start_player

    if args.agent:
        if args.agent.split(":")[0].strip().lower() == "engine" and not _engine_available():
            raise CliError("the engine is not available in this installation")
        try:
            return start_player(args.agent, seed=args.seed,
                                sandbox=match_options.sandbox_policy(args), warm=False), ""
        except SpecError as exc:
            raise CliError(str(exc)) from None
    if not _engine_available():
        return make_player("alphabeta", {"depth": 3}, seed=args.seed), (
            "The engine is not available; playing alphabeta (depth 3) instead."
        )
    options = {"level": args.level} if args.level is not None else {}
    if args.elo is not None:
        options = {"elo": args.elo}
    try:
        return make_player("engine", options, seed=args.seed), ""
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _hinter(seed: int | None) -> Player:
    """The player that gives hints: the engine if present, else alpha-beta at depth 3."""
    from plies.agents.registry import make_player

    if _engine_available():
        return make_player("engine", {}, seed=seed)
    return make_player("alphabeta", {"depth": 3}, seed=seed)


def _with_book(agent: Player, path: str, seed: int | None) -> Player:
    """``agent`` playing from the Polyglot book at ``path`` first."""
    from plies.agents.book_agent import BookPlayer
    from plies.board.polyglot import BookError, OpeningBook

    try:
        book = OpeningBook(path)
    except BookError as exc:
        agent.close()
        raise CliError(f"--book: {exc}") from None
    return BookPlayer(agent, book, seed=seed)


def _chess960_pos(args: argparse.Namespace) -> int | None:
    """The ``--chess960 N`` position number (None: random, or the ``--fen`` position)."""
    from plies.board.chess960 import POSITIONS

    if args.chess960 in (None, "random"):
        return None
    try:
        n = int(args.chess960)
    except ValueError:
        n = -1
    if not 0 <= n < POSITIONS:
        raise CliError(f"--chess960 takes a start position 0-{POSITIONS - 1}, "
                       f"not {args.chess960!r}")
    if args.fen is not None:
        raise CliError("--fen and --chess960 N both set the start: give one of them")
    return n


def _check_fen(fen: str, chess960: bool = False) -> None:
    """Refuse a broken or finished ``--fen`` position, without compiled code (no wait)."""
    import chess

    from plies.board.fen import parse_fen, validate

    try:
        validate(parse_fen(fen), chess960)
        board = chess.Board(fen, chess960=chess960)
    except ValueError as exc:  # InvalidFenError is one
        raise CliError(f"bad --fen: {exc}") from None
    if board.was_into_check():
        raise CliError("bad --fen: invalid fen side to move: the side not to move is in check")
    if board.is_game_over():
        raise CliError("the --fen position is already over")


def run(args: argparse.Namespace) -> int:
    """Start a game in the terminal."""
    from rich.console import Console

    from plies.play.session import Settings, TerminalSession

    if args.level is not None and args.level < 1:
        raise CliError("--level must be at least 1")
    if args.elo is not None and not MIN_ELO <= args.elo <= MAX_ELO:
        raise CliError(f"--elo must be between {MIN_ELO} and {MAX_ELO}, got {args.elo}")
    if args.time is not None and args.time <= 0:
        raise CliError("--time must be positive")
    chess960_pos = _chess960_pos(args)
    if args.fen is not None:
        _check_fen(args.fen, args.chess960 is not None)
    agent, note = _opponent(args)
    if args.book is not None:
        agent = _with_book(agent, args.book, args.seed)
    console = Console(highlight=False, no_color=args.ascii)
    if note:
        console.print(note)
    settings = Settings(
        human=args.color,
        fen=args.fen,
        ascii_only=args.ascii,
        movetime_ms=round(args.time * 1000) if args.time is not None else None,
        seed=args.seed,
        chess960=args.chess960 is not None,
        chess960_pos=chess960_pos,
    )
    session = TerminalSession(agent, settings, console, hint_agent=lambda: _hinter(args.seed))
    try:
        return session.run()
    finally:
        agent.close()
