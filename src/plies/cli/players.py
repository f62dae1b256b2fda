"""list the players arena, play and mind can seat (built-in, installed, engines).

List every player name plies can see: the built-in agents, players installed packages
register (entry-point group plies.players) and chess engines found on the PATH, then the
spec forms for your own minds and engines.
"""

from __future__ import annotations

import argparse
import shutil

from plies.cli.common import Command

# Engines often installed from Debian, with the protocol each speaks.
KNOWN_ENGINES = (
    ("stockfish", "uci"), ("fairy-stockfish", "uci"), ("ethereal-chess", "uci"),
    ("fairymax", "xboard"), ("gnuchess", "xboard"), ("crafty", "xboard"),
    ("phalanx", "xboard"), ("sjeng", "xboard"),
)

_DESCRIPTIONS = {
    "random": "built-in: a random legal move",
    "capture": "built-in: a random capture if there is one, else a random move",
    "minimax": "built-in: minimax over material and piece-square tables (depth=N, default 2)",
    "alphabeta": "built-in: alpha-beta, same evaluation (depth=N, default 4)",
    "engine": "built-in: the plies engine (depth=, nodes=, movetime=, level=, elo=, hash=)",
}


COMMAND = Command("players", __doc__)


def run(args: argparse.Namespace) -> int:
    """Print one line per player, then the spec forms."""
    from plies.agents.registry import AGENT_NAMES
    from plies.agents.spec import SPEC_FORMS, plugin_players

    rows = [(name, _DESCRIPTIONS.get(name, "built-in")) for name in AGENT_NAMES]
    for name, entry in sorted(plugin_players().items()):
        dist = entry.dist.name if entry.dist is not None else "?"
        rows.append((name, f"installed by {dist}: {entry.value}"))
    for exe, protocol in KNOWN_ENGINES:
        path = shutil.which(exe) or shutil.which(exe, path="/usr/games")
        if path is not None:
            rows.append((f"{protocol}:{path}", f"{protocol} engine found on this machine"))
    width = max(len(name) for name, _ in rows)
    for name, text in rows:
        print(f"{name:<{width}}  {text}")
    print()
    print("your own players:")
    width = max(len(form) for form, _ in SPEC_FORMS[1:])
    for form, text in SPEC_FORMS[1:]:
        print(f"  {form:<{width}}  {text}")
    return 0
