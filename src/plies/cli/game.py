"""play, solve, compare searches on, or check any game (yours too)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError, Command

if TYPE_CHECKING:
    from plies.games.protocol import Player, TextGame
    from plies.games.search_players import SearchPlayer

_SPEC_HELP = (
    "the game: a built-in name (tictactoe, connect4, chess; parameters as "
    "tictactoe(width=4,height=4,k=3)), FILE.py[:NAME], package.module:NAME, a name from the "
    "plies.games entry-point group, or openspiel:NAME[(params)]"
)
_STATE_HELP = "start from the state these actions reach (space-separated, as the game writes them)"
#: The opponents ``play`` offers besides the search algorithms of plies.games.algorithms.
SIMPLE_OPPONENTS = ("random", "perfect")
_OPPONENT_OPTIONS = ("depth", "time", "playouts", "seed")
# Depth of the compare table for games without a default of their own, when they cannot be
# solved within the time allowed.
_COMPARE_DEPTH = 4
# Seconds compare may spend solving a game without a default depth of its own.
_COMPARE_SECONDS = 10.0
_COMPARE_PLAYOUTS = 1000


COMMAND = Command(
    "game", __doc__,
    description_text="Any two-player, perfect-information game that implements "
    "plies.games.Game: play it at the console, solve a state, compare the search algorithms on "
    "it, or check that it keeps the protocol. " + _SPEC_HELP[0].upper() + _SPEC_HELP[1:] + ".",
)  # fmt: skip
_PLAY = Command("play", """play the game at the console against a search.

    Play against the computer: the board is the game's render; type an action as the list
    writes it (or in the game's own notation), or its number in the list. Numbers are plain
    (3) while no number reads as an action, else marked (#3), and left out when the actions
    are numbers themselves. Players are 0 (moves first) and 1, as the game protocol numbers
    them. 'help' lists the actions again, 'quit' stops.""")
_SOLVE = Command("solve", """the value of a state and every best action.

    Search every first action with alpha-beta and a transposition table: the value for the
    player to move and every action that reaches it. Without --depth or --time the value is
    exact (proven); with them it may be a heuristic guess, and the output says which.""")
_COMPARE = Command("compare", """every search algorithm on the same states.

    Search the same states with minimax, negamax, alpha-beta (plain, ordered, with a table),
    iterative deepening and MCTS, and print a table: best action, value, nodes, cutoffs,
    table hits, time and principal variation. A game without a default depth of its own is
    first solved exactly if that takes at most --time seconds: then every search runs to the
    end (each giving up after --time) and the values are proven; else they stop at a depth and
    the output says that their values are guesses.""")
_CHECK = Command("check", """random playouts that look for protocol breaches.

    Play seeded random games and report every breach of the Game protocol with the state that
    shows it: an empty action list before the end, result changing its input, utility outside
    [-1, 1], evaluate outside (-1, 1), key unequal for equal states, a method raising, a game
    that does not end within --max-plies. Exit status 1 on any breach.""")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The four actions, each on the game SPEC, with their options."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for command, options, run in ((_PLAY, _play_options, _play),
                                  (_SOLVE, _solve_options, _solve),
                                  (_COMPARE, _compare_options, _compare),
                                  (_CHECK, _check_options, _check)):  # fmt: skip
        action = command.add_to(actions, options, run)
        action.add_argument("spec", metavar="SPEC", help=_SPEC_HELP)


def _play_options(p: argparse.ArgumentParser) -> None:
    """The computer's search, who starts, and the start state."""
    p.add_argument("--opponent", default="alphabeta", metavar="ALGORITHM[:OPTIONS]",
                   help="the computer: a search algorithm (alphabeta, minimax, negamax, mcts "
                   f"or an installed one) or {' or '.join(SIMPLE_OPPONENTS)}, with options "
                   "depth=N, time=SECONDS, playouts=N, seed=N (e.g. mcts:playouts=500,seed=1; "
                   "default alphabeta, iterative deepening for 1 s a move)")
    p.add_argument("--first", choices=("human", "ai"), default="human",
                   help="who moves first (default human)")
    p.add_argument("--state", default="", metavar="ACTIONS", help=_STATE_HELP)


def _solve_options(p: argparse.ArgumentParser) -> None:
    """The state, the search's limits and the output."""
    p.add_argument("--state", default="", metavar="ACTIONS", help=_STATE_HELP)
    p.add_argument("--depth", type=int, default=None, help="search at most this many plies")
    p.add_argument("--time", type=float, default=None,
                   help="deepen one ply at a time for at most this many seconds")
    p.add_argument("--json", action="store_true",
                   help='print {"value": v, "best_actions": [...], "nodes": n, ...}')


def _compare_options(p: argparse.ArgumentParser) -> None:
    """The state (default: the built-in games' named positions), depth, time and playouts."""
    p.add_argument("--state", default=None, metavar="ACTIONS", help=_STATE_HELP)
    p.add_argument("--depth", default=None,
                   help="search depth in plies, or 'end' (defaults: tictactoe end, connect4 5, "
                   "chess 2; other games to the end if they can be solved within --time, else "
                   f"{_COMPARE_DEPTH})")
    p.add_argument("--time", type=float, default=None, metavar="SECONDS",
                   help="how long solving exactly may take, and each search to the end (default "
                   f"{_COMPARE_SECONDS:g} for games without a default depth; given, the built-in "
                   "games are tried too)")
    p.add_argument("--playouts", type=int, default=None,
                   help=f"MCTS playouts (default {_COMPARE_PLAYOUTS}; chess 20)")
    p.add_argument("--seed", type=int, default=1, help="MCTS seed (default 1)")


def _check_options(p: argparse.ArgumentParser) -> None:
    """How many random games, their seed and their length cap."""
    p.add_argument("--playouts", type=int, default=200, help="random games (default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    p.add_argument("--max-plies", type=int, default=1000,
                   help="a game longer than this counts as never ending (default 1000)")


def load(spec: str) -> TextGame[Any, Any]:
    """Load the game ``spec`` names, or raise CliError with the one-line reason."""
    from plies.games.spec import load_game
    from plies.loader import LoadError

    try:
        return load_game(spec)
    except LoadError as exc:
        raise CliError(str(exc)) from None


def start_state(game: TextGame[Any, Any], actions: str) -> Any:
    """Return the state ``actions`` reach from the start, or raise CliError."""
    from plies.games.spec import play_line

    try:
        return play_line(game, actions)
    except ValueError as exc:
        raise CliError(f"--state: {exc}") from None
    except Exception as exc:  # the user's game raised: still one line
        raise CliError(f"--state: the game raised {type(exc).__name__}: {exc}") from None


# --- solve -----------------------------------------------------------------------------


def _solve(args: argparse.Namespace) -> int:
    """Print the value and every best first action of the state asked for."""
    from plies.engine.limits import Limit
    from plies.games.console import action_label
    from plies.games.rootsearch import root_values
    from plies.games.session import describe_value

    if args.depth is not None and args.depth < 1:
        raise CliError(f"--depth must be at least 1, not {args.depth}")
    if args.time is not None and args.time < 0:
        raise CliError(f"--time must be at least 0, not {args.time}")
    game = load(args.spec)
    state = start_state(game, args.state)
    movetime = round(args.time * 1000) if args.time is not None else None
    found = root_values(game, state, Limit(depth=args.depth, movetime=movetime))
    best = [action_label(game, state, a) for a in found.best_actions]
    if args.json:
        print(json.dumps({
            "value": found.value,
            "best_actions": best,
            "nodes": found.nodes,
            "exact": found.exact,
            "depth": found.depth,
            "tt_hits": found.tt_hits,
            "seconds": round(found.seconds, 6),
        }))
        return 0
    mover = game.to_move(state)
    kind = "proven" if found.exact else "heuristic"
    if found.depth is not None:
        kind += f", depth {found.depth}"
    print(f"value for player {mover} to move: {describe_value(found.value, found.exact)} ({kind})")
    if found.values:
        print(f"best actions: {' '.join(best)}")
        others = ", ".join(
            f"{action_label(game, state, a)} {describe_value(v, found.exact)}"
            for a, v in found.values
        )
        print(f"every action: {others}")
    else:
        print("the game is over")
    print(f"{found.nodes:,} nodes, {found.tt_hits:,} table hits, {found.seconds:.3f} s")
    return 0


# --- check -----------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    """Run the protocol checks and print every breach; exit status 1 if there is one."""
    from plies.games.check import KINDS, check_game

    if args.playouts < 1:
        raise CliError(f"--playouts must be at least 1, not {args.playouts}")
    if args.max_plies < 1:
        raise CliError(f"--max-plies must be at least 1, not {args.max_plies}")
    game = load(args.spec)
    report = check_game(game, args.playouts, args.seed, args.max_plies)
    print(f"{args.spec}: {report.playouts} random games (seed {args.seed}), "
          f"{report.plies:,} plies")
    if report.ok:
        print("no breach of the protocol found")
        return 0
    for breach in report.ordered():
        count = report.counts[breach.kind]
        times = "once" if count == 1 else f"{count} times"
        line = " ".join(breach.line) if breach.line else "(the initial state)"
        print(f"\nBREACH {breach.kind}: {KINDS[breach.kind]} ({times})")
        print(f"  {breach.detail}")
        print(f"  first in game {breach.playout}, after: {line}")
        for row in breach.picture.splitlines():
            print(f"    {row}")
    print(f"\n{len(report.breaches)} kind(s) of breach found")
    return 1


# --- compare ---------------------------------------------------------------------------


def _compare(args: argparse.Namespace) -> int:
    """Print the comparison table for the spec's game."""
    from plies.cli import gametree
    from plies.games.ordering import by_evaluation

    depth_text = args.depth
    name = args.spec.strip().lower()
    builtin = name in gametree.GAMES and args.state is None
    if builtin:
        setup = gametree.setup(name)
        game, positions, order = setup.game, setup.positions, setup.order
    else:
        game = load(args.spec)
        state = start_state(game, args.state or "")
        label = "initial state" if not args.state else f"after {args.state}"
        positions, order = [(label, state)], by_evaluation(game)
    if args.time is not None and args.time < 0:
        raise CliError(f"--time must be at least 0, not {args.time}")
    default = gametree.DEFAULT_DEPTH.get(name, _COMPARE_DEPTH)
    solve = False
    if depth_text is None:
        # A built-in game's default depth is what its positions can afford; any other game
        # is solved if it can be, so that a small one is never judged at a blind depth.
        depth = default
        solve = args.time is not None or name not in gametree.DEFAULT_DEPTH
    elif depth_text.strip().lower() == "end":
        depth = None
    else:
        try:
            depth = int(depth_text)
        except ValueError:
            raise CliError(f"--depth must be a number or 'end', not {depth_text!r}") from None
        if depth < 1:
            raise CliError(f"--depth must be at least 1, not {depth}")
        if args.time is not None:
            raise CliError("--time limits searches to the end: give --depth end or no --depth")
    seconds = args.time if args.time is not None or not solve else _COMPARE_SECONDS
    playouts = args.playouts
    if playouts is None:
        playouts = gametree.DEFAULT_PLAYOUTS.get(name, _COMPARE_PLAYOUTS)
    if playouts < 1:
        raise CliError(f"--playouts must be at least 1, not {playouts}")
    gametree.compare(args.spec.strip(), game, positions, order, depth, playouts, args.seed,
                     seconds, solve)
    return 0


# --- play ------------------------------------------------------------------------------


def parse_opponent(text: str) -> tuple[str, dict[str, str]]:
    """Split ``ALGORITHM[:k=v,...]``; raise CliError for an unknown name or option."""
    name, _, rest = text.strip().partition(":")
    from plies.games.algorithms import SEARCHES

    name = name.strip().lower()
    if name not in SEARCHES and name not in SIMPLE_OPPONENTS:
        known = ", ".join((*SEARCHES.names(), *SIMPLE_OPPONENTS))
        raise CliError(f"--opponent: unknown algorithm {name!r}: choose from {known}")
    options: dict[str, str] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in _OPPONENT_OPTIONS:
            raise CliError(f"--opponent: {part.strip()!r} is not one of "
                           f"{', '.join(k + '=' for k in _OPPONENT_OPTIONS)}")
        options[key] = value.strip()
    return name, options


def make_opponent(text: str, game: TextGame[Any, Any]) -> Player[Any, Any]:
    """Build the computer player ``--opponent`` describes."""
    from plies.games.algorithms import make_player
    from plies.games.ordering import by_evaluation
    from plies.games.search_players import PerfectPlayer, RandomPlayer

    name, options = parse_opponent(text)
    try:
        depth = int(options["depth"]) if "depth" in options else None
        seconds = float(options["time"]) if "time" in options else None
        playouts = int(options["playouts"]) if "playouts" in options else None
        seed = int(options["seed"]) if "seed" in options else None
    except ValueError as exc:
        raise CliError(f"--opponent: {exc}") from None
    rng = random.Random(seed)
    if name == "random":
        return RandomPlayer(rng)
    if name == "perfect":
        return PerfectPlayer(rng if seed is not None else None)
    if name == "alphabeta" and seconds is None and depth is None:
        seconds = 1.0
    order = getattr(game, "centre_first", None) or getattr(game, "captures_first", None)
    try:
        player: SearchPlayer = make_player(
            name, depth=depth, seconds=seconds, playouts=playouts,
            order=order if callable(order) else by_evaluation(game), rng=rng,
        )
    except ValueError as exc:
        raise CliError(f"--opponent: {exc}") from None
    return player


def _play(args: argparse.Namespace) -> int:
    """Play one game between the person at the console and the computer."""
    from plies.games.console import MenuPlayer
    from plies.games.session import run_session

    game = load(args.spec)
    computer = make_opponent(args.opponent, game)
    state = start_state(game, args.state)
    human_seat = game.to_move(state) if args.first == "human" else 1 - game.to_move(state)
    names = ["", ""]
    # Named as the Game protocol numbers them, so a game's own messages agree.
    names[human_seat] = f"player {human_seat} (you)"
    names[1 - human_seat] = f"player {1 - human_seat} (computer)"
    menu = MenuPlayer(game, names[human_seat])
    players: list[Player[Any, Any]] = [computer, computer]
    players[human_seat] = menu
    run_session(game, (players[0], players[1]), (names[0], names[1]), start=state,
                output=sys.stdout)
    return 0
