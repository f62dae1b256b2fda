"""The options of the commands that play chess matches (arena, sprt, spsa, datagen): how a
move is limited, the openings, the variant and where the games run; their checks, and the
settings read back from them.  Also the sandbox's options, shared by every command that
seats a user's mind (arena, play, mind, serve)."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

from plies.cli.common import CliError, cannot_write, check_minimum
from plies.sandbox import (
    DEFAULT_CPU_S,
    DEFAULT_FILE_MB,
    DEFAULT_MEMORY_MB,
    DEFAULT_OPEN_FILES,
    DEFAULT_PROCESSES,
)

if TYPE_CHECKING:
    from plies.agents.player import Player
    from plies.agents.spec import PlayerSpec
    from plies.arena.openings import Opening
    from plies.arena.pgn import PgnWriter
    from plies.arena.referee import GameSettings
    from plies.sandbox import Sandbox

_TC_HELP = "time control SECONDS[+INC] or MOVES/SECONDS[+INC]"
# The fixed limits per move, each an alternative to the time control.
_FIXED_LIMITS = (
    ("--depth", "D", "fixed depth per move"),
    ("--nodes", "N", "fixed nodes per move"),
    ("--movetime", "MS", "fixed time per move in milliseconds"),
)
# The Adjudication fields a command may take as options of the same names.
_ADJUDICATION = ("resign_moves", "resign_score", "draw_after", "draw_moves", "draw_score",
                 "max_moves")  # fmt: skip
# Options that are counts: at least 1 when given.
_COUNTS = ("depth", "nodes", "movetime", "random_openings", "opening_plies", "book_depth",
           "concurrency")  # fmt: skip
_STARTERS = 8
"""Players started at once when a command checks its players (the rest wait their turn)."""
_BOOK_DEPTH = 8
"""Polyglot book plies per opening unless --book-depth says otherwise."""
# The sandbox's limits: option, Limits field, metavar, what it bounds, default.
_SANDBOX_LIMITS = (
    ("--sandbox-memory", "memory_mb", "MB", "memory each process may write", DEFAULT_MEMORY_MB),
    ("--sandbox-cpu", "cpu_s", "S", "CPU seconds per process", DEFAULT_CPU_S),
    ("--sandbox-processes", "processes", "N", "processes and threads", DEFAULT_PROCESSES),
    ("--sandbox-files", "open_files", "N", "open files per process", DEFAULT_OPEN_FILES),
    ("--sandbox-file-size", "file_mb", "MB", "largest file, and size of its /tmp",
     DEFAULT_FILE_MB),
)


def add_limit_options(p: argparse.ArgumentParser, default_tc: str | None = None,
                      required: bool = True) -> None:
    """``--tc``, or a fixed ``--depth``, ``--nodes`` or ``--movetime`` per move instead.

    Without ``default_tc`` one of them must be given, unless not ``required`` (the command
    then finds the limit elsewhere or says it is missing)."""
    limit = p.add_mutually_exclusive_group(required=required and default_tc is None)
    tc_help = _TC_HELP if default_tc is None else f"{_TC_HELP} (default {default_tc})"
    limit.add_argument("--tc", default=default_tc, metavar="TC", help=tc_help)
    instead = "" if default_tc is None else " instead"
    for flag, metavar, text in _FIXED_LIMITS:
        limit.add_argument(flag, type=int, metavar=metavar, help=text + instead)


def add_opening_options(p: argparse.ArgumentParser, random_plies: int | None = None) -> None:
    """``--openings`` (EPD or PGN) or ``--book`` (Polyglot), and ``--random-openings``.

    With ``random_plies`` random lines are the default (the books replace them), else a
    third choice."""
    book = p.add_mutually_exclusive_group()
    book.add_argument("--openings", metavar="FILE",
                      help="opening book: .epd positions or .pgn lines")
    book.add_argument("--book", metavar="FILE.bin",
                      help="Polyglot book: each game pair starts from a weighted line of it")
    random_help = "start each game pair from PLIES random moves"
    if random_plies is None:
        book.add_argument("--random-openings", type=int, metavar="PLIES", help=random_help)
    else:
        p.add_argument("--random-openings", type=int, default=random_plies, metavar="PLIES",
                       help=f"without a book: {random_help} (default {random_plies})")
    p.add_argument("--book-depth", type=int, default=_BOOK_DEPTH, metavar="N",
                   help=f"with --book: at most N book plies per opening (default {_BOOK_DEPTH})")
    p.add_argument("--opening-plies", type=int, metavar="N",
                   help="play at most N book plies of each PGN opening")


def add_variant_argument(p: argparse.ArgumentParser, note: str = "") -> None:
    """``--variant standard|chess960``; ``note`` says what Chess960 asks of the players."""
    p.add_argument("--variant", choices=("standard", "chess960"), default="standard",
                   help="chess960: each game pair starts from its own seeded Chess960 start "
                        "position (or the --openings positions by Chess960 rules)" + note)


def add_game_arguments(p: argparse.ArgumentParser, variant_note: str) -> None:
    """The games' options, shared with ``plies spsa``: the limit (a time control by default),
    the openings (random lines by default), the variant, the move cap and the time margin."""
    add_limit_options(p, default_tc="10+0.1")
    add_opening_options(p, random_plies=8)
    p.add_argument("--seed", type=int, default=1, metavar="S", help="opening seed (default 1)")
    add_variant_argument(p, variant_note)
    p.add_argument("--max-moves", type=int, default=0, metavar="N",
                   help="draw after N moves (default: never)")
    p.add_argument("--time-margin", type=int, default=50, metavar="MS",
                   help="lag forgiven before a time forfeit (default 50)")


def add_cluster_options(p: argparse.ArgumentParser, at_once: str, see_below: bool = True) -> None:
    """``--concurrency`` (``at_once`` says of what) and ``--cluster`` (Ray)."""
    p.add_argument("--concurrency", type=int, default=None, metavar="K",
                   help=f"{at_once} (default 1; with --cluster: workers, default one per "
                        "cluster CPU)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on Ray: 'auto' (this machine's cores) or a Ray address, "
                        "e.g. ray://HOST:10001" + (" (see below)" if see_below else ""))


def check(args: argparse.Namespace) -> None:
    """Reject impossible values of the options above with one clear line; with ``--cluster``,
    make sure Ray is there before any work starts."""
    check_minimum(args, {name: 1 for name in _COUNTS if hasattr(args, name)})
    if getattr(args, "variant", "standard") == "chess960" and getattr(args, "book", None):
        raise CliError("--book holds standard-chess lines; it cannot open Chess960 games")
    if args.cluster is not None:
        if not args.cluster.strip():
            raise CliError("--cluster needs 'auto' or a Ray address")
        from plies.arena.cluster import ClusterError, require_ray

        try:
            require_ray()
        except ClusterError as exc:
            raise CliError(str(exc)) from None


def game_settings(args: argparse.Namespace) -> GameSettings:
    """How each game is limited and judged: a fixed limit if one is given, else the time
    control; the adjudication and time options the command takes."""
    from plies.arena.clock import TimeControl
    from plies.arena.referee import Adjudication, GameSettings
    from plies.engine.limits import Limit

    fixed = any(getattr(args, name) is not None for name in ("depth", "nodes", "movetime"))
    tc = None
    if not fixed and args.tc is not None:
        try:
            tc = TimeControl.parse(args.tc)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    adjudication = {name: getattr(args, name) for name in _ADJUDICATION if hasattr(args, name)}
    return GameSettings(
        tc=tc,
        limit=Limit(depth=args.depth, nodes=args.nodes, movetime=args.movetime),
        time_margin_ms=args.time_margin,
        move_timeout_s=getattr(args, "move_timeout", GameSettings.move_timeout_s),
        adjudication=Adjudication(**adjudication),
    )


def openings(args: argparse.Namespace, pairs: int) -> list[Opening]:
    """One opening per game pair."""
    from plies.arena.openings import (
        OpeningError,
        book_openings,
        load_openings,
        opening_schedule,
    )

    chess960 = args.variant == "chess960"
    try:
        if args.book:
            return book_openings(args.book, args.book_depth, pairs, args.seed)
        book = load_openings(args.openings, args.opening_plies, chess960) if args.openings else None
    except OpeningError as exc:
        raise CliError(str(exc)) from None
    return opening_schedule(pairs, book, args.random_openings, args.seed, chess960)


def parse_spec(text: str) -> PlayerSpec:
    """A player spec, its net options checked for a plies engine; CliError naming it if bad."""
    from plies.agents.spec import SpecError, parse_player
    from plies.arena.builds import check_net_options, is_plies_command

    try:
        spec = parse_player(text)
        if spec.kind == "uci" and is_plies_command(spec.command):
            check_net_options(spec.options)  # BuildError is a ValueError
    except SpecError as exc:  # its message names the player already
        raise CliError(str(exc)) from None
    except ValueError as exc:
        raise CliError(f"player {text!r}: {exc}") from None
    return spec


def try_player(spec: PlayerSpec, chess960: bool, label: str, start_label: str = "") -> Player:
    """Start the player and check that it plays the variant, so a bad option or a refused
    variant is one line (``label: why``; ``start_label: why`` if it does not start) before any
    game, not lost games; the running player is returned for the caller to play with or
    close."""
    from plies.agents.player import PlayerError
    from plies.agents.uci_engine import variant_refusal

    try:
        player = spec.create()
    except PlayerError as exc:
        raise CliError(f"{start_label or label}: {exc.detail}") from None
    except ValueError as exc:
        raise CliError(f"{start_label or label}: {exc}") from None
    refused = variant_refusal(player, chess960)
    if refused:
        player.close()
        raise CliError(f"{label}: {refused}")
    return player


@functools.cache
def _starter_threads() -> ThreadPoolExecutor:
    """The threads that start players, alive as long as the process: a sandboxed player dies
    with the thread that started it (bubblewrap's ``--die-with-parent`` follows the thread),
    and a tried player goes on to play the games."""
    return ThreadPoolExecutor(max_workers=_STARTERS, thread_name_prefix="player-start")


def try_players(
    specs: Sequence[PlayerSpec], chess960: bool, labels: Sequence[tuple[str, str]]
) -> list[Player]:
    """:func:`try_player` for each spec with its ``(label, start_label)``, all at once (each
    program's start is mostly waiting): the running players in ``specs`` order, or the first
    failure in that order raised with every started player closed."""
    tries = [_starter_threads().submit(try_player, spec, chess960, label, start)
             for spec, (label, start) in zip(specs, labels, strict=True)]  # fmt: skip
    wait(tries)
    started = [done.result() for done in tries if done.exception() is None]
    failure = next((e for e in (done.exception() for done in tries) if e is not None), None)
    if failure is not None:
        for player in started:
            player.close()
        raise failure
    return started


def pgn_writer(path: str | None) -> PgnWriter | None:
    """The PGN file the games go to (None without one); one line if it cannot be written."""
    from plies.arena.pgn import PgnWriter

    if not path:
        return None
    try:
        return PgnWriter(path)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def add_sandbox_options(p: argparse.ArgumentParser) -> None:
    """``--sandbox on|strict`` or ``--no-sandbox``, ``--sandbox-engines`` and the limits."""
    group = p.add_argument_group(
        "sandbox", "Python minds and mind: programs run in a sandbox (bubblewrap, Linux): "
        "they see only their own folder and the software they need, write only to a "
        "private /tmp, have no network, and live within the limits below")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--sandbox", choices=("on", "strict"), default=None,
                      help="on (default): where the sandbox cannot be built, warn and play "
                           "without; strict: refuse to play there")
    mode.add_argument("--no-sandbox", dest="sandbox", action="store_const", const="off",
                      help="run minds with your rights (trusted code only)")
    group.add_argument("--sandbox-engines", action="store_true",
                       help="put uci: and xboard: engines in the sandbox too")
    for flag, _, metavar, text, default in _SANDBOX_LIMITS:
        group.add_argument(flag, type=int, default=default, metavar=metavar,
                           help=f"{text} (default {default})")


def sandbox_policy(args: argparse.Namespace, mode: str | None = None) -> Sandbox:
    """The sandbox the options ask for (``mode``, when given, instead of ``--sandbox``);
    CliError for a limit below 1."""
    from plies.sandbox import Limits, Sandbox

    check_minimum(args, {flag[2:].replace("-", "_"): 1 for flag, *_ in _SANDBOX_LIMITS})
    limits = Limits(**{name: getattr(args, flag[2:].replace("-", "_"))
                       for flag, name, *_ in _SANDBOX_LIMITS})
    return Sandbox(mode or args.sandbox or "on", args.sandbox_engines, limits)


def sandbox_mode(asked: str | None, stored: Mapping[str, object] | None,
                 league: str | None) -> str:
    """The sandbox mode of a run: as ``asked`` (``--sandbox``/``--no-sandbox``), else as the
    ``stored`` settings of the league file say its games were played (a league made with
    --no-sandbox keeps it), else on; CliError when they disagree."""
    kept = None if stored is None else str(stored.get("sandbox", "on"))
    if kept is None or asked is None:
        return asked or kept or "on"
    if (asked == "off") != (kept == "off"):
        played = "without the sandbox (--no-sandbox)" if kept == "off" else "in the sandbox"
        raise CliError(f"league {league} was played {played}; this run asks "
                       f"{'--no-sandbox' if asked == 'off' else '--sandbox ' + asked}: "
                       "use the same or another league file")
    return asked


def confined(specs: Sequence[PlayerSpec], sandbox: Sandbox,
             private: Sequence[str | None] = ()) -> list[PlayerSpec]:
    """``specs`` under ``sandbox``, each mind's files hidden from the others, and the
    ``private`` files (league, PGN, report) from all."""
    from plies.agents.spec import confine

    return confine(specs, sandbox, [p for p in private if p])


def sandbox_line(specs: Sequence[PlayerSpec], names: Sequence[str]) -> str:
    """``sandbox: a, b sandboxed; c with your rights`` for the programs among the players."""
    groups: dict[str, list[str]] = {"yes": [], "no": []}
    for spec, name in zip(specs, names, strict=True):
        groups.get(spec.sandbox_state(), []).append(name)
    parts = []
    if groups["yes"]:
        parts.append(", ".join(groups["yes"]) + " sandboxed")
    if groups["no"]:
        parts.append(", ".join(groups["no"]) + " with your rights (not sandboxed)")
    return "sandbox: " + "; ".join(parts) if parts else ""
