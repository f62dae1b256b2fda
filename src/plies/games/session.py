"""An interactive game at a text console: boards, moves, the machine's reasoning, the result."""

from __future__ import annotations

import sys
from typing import TextIO

from plies.engine.limits import Info
from plies.games.console import ConsolePlayer, PlayerQuitError, action_label
from plies.games.match import play_match
from plies.games.protocol import WIN, A, Player, S, TextGame
from plies.games.search_players import SearchPlayer


def describe_value(value: float, exact: bool) -> str:
    """Return a proven value in words (win, loss, draw), any other as a signed number."""
    if exact and value >= WIN:
        return "win"
    if exact and value <= -WIN:
        return "loss"
    if exact and value == 0:
        return "draw"
    return f"{value:+.2f}"


def describe_search(result: Info) -> str:
    """Return one line of search statistics: value, nodes, cutoffs, table hits, depth, time."""
    value = 0.0 if result.value is None else result.value
    parts = [f"value {describe_value(value, result.exact)}", f"{result.nodes:,} nodes"]
    if result.iterations:
        parts.append(f"{result.iterations:,} playouts")
    else:
        parts.append(f"{result.cutoffs:,} cutoffs")
        if result.tt_hits:
            parts.append(f"{result.tt_hits:,} table hits")
    parts.append(f"depth {result.depth}")
    parts.append(f"{result.time_ms / 1000:.2f} s")
    return ", ".join(parts)


def run_session(
    game: TextGame[S, A],
    players: tuple[Player[S, A], Player[S, A]],
    names: tuple[str, str],
    output: TextIO | None = None,
    start: S | None = None,
) -> S | None:
    """Play one game with a board after every move; return the final state, or None if quit.

    The game starts from ``start`` (the initial state by default).

    ``names`` label the two sides in messages ("You (X)", "AI (O)"). A search player's
    move is followed by its statistics. A person quitting or ending the input stops the
    game quietly.
    """
    out = output if output is not None else sys.stdout

    def show(before: S, action: A, after: S) -> None:
        """Print a move, the searcher's statistics if any, and the new board."""
        mover = game.to_move(before)
        line = f"{names[mover]} plays {action_label(game, before, action)}"
        player = players[mover]
        if isinstance(player, SearchPlayer) and player.last is not None:
            line += f"   [{describe_search(player.last)}]"
        out.write(f"{line}\n{game.render(after)}\n")
        out.flush()

    first = game.initial_state() if start is None else start
    out.write(f"{game.render(first)}\n")
    out.flush()
    try:
        final, _ = play_match(game, players, first, on_move=show)
    except PlayerQuitError:
        out.write("game abandoned\n")
        return None
    if game.utility(final, 0) > 0:
        out.write(f"{names[0]} wins.\n")
    elif game.utility(final, 1) > 0:
        out.write(f"{names[1]} wins.\n")
    else:
        out.write("Draw.\n")
    return final


def play_against_computer(
    game: TextGame[S, A],
    computer: Player[S, A],
    human_first: bool = True,
    marks: tuple[str, str] = ("X", "O"),
) -> S | None:
    """Play the person at the console against ``computer``; return the final state or None."""
    if human_first:
        names = (f"{marks[0]} (you)", f"{marks[1]} (computer)")
        return run_session(game, (ConsolePlayer(game, names[0]), computer), names)
    names = (f"{marks[0]} (computer)", f"{marks[1]} (you)")
    return run_session(game, (computer, ConsolePlayer(game, names[1])), names)
