"""list the players arena, play and mind can seat (built-in, installed, engines).

List every player name plies can see: the built-in agents, players installed packages
register (entry-point group plies.players) and chess engines found on the PATH, then the
spec forms for your own minds and engines, each with whether it runs in the sandbox.
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

COMMAND = Command("players", __doc__)


def run(args: argparse.Namespace) -> int:
    """Print one line per player, then the spec forms."""
    from plies.agents.registry import PLAYERS
    from plies.agents.spec import SPEC_FORMS

    rows = [(name, ("built-in: " if name in PLAYERS.builtin_names() else "") + text)
            for name, text in PLAYERS.listing()]
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
        print(f"  {form:<{width}}  {text} ({_confinement(form)})")
    print()
    print(_sandbox_status())
    return 0


def _confinement(form: str) -> str:
    """Where a player of spec form ``form`` runs: sandboxed, or why not."""
    from plies.sandbox import unavailable

    if form.startswith("mind+"):
        return "remote: runs where it is served"
    if form.startswith(("uci:", "xboard:")):
        return "with your rights; sandboxed with --sandbox-engines"
    return "sandboxed" if unavailable() is None else "with your rights: no sandbox here"


def _sandbox_status() -> str:
    """One line on the sandbox on this machine."""
    from plies.sandbox import Limits, unavailable

    problem = unavailable()
    if problem is not None:
        return (f"sandbox: cannot be built here ({problem}); minds run with your rights, "
                "and --sandbox strict refuses to play")
    return ("sandbox: bubblewrap; each mind sees only its own folder and the software it needs, "
            f"writes only to a private /tmp, has no network; limits: {Limits().summary()} "
            "(--sandbox-* options; --no-sandbox lifts it)")
