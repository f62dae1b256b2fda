"""run the chess engine over UCI (for GUIs, lichess-bot, python-chess).

Speak the Universal Chess Interface on stdin/stdout. Besides the standard commands: 'd'
(board), 'eval', 'go perft N', 'bench [depth]', 'help'. Long commands run in the background
like a search: 'isready' is answered and 'stop' ends them.
"""

from __future__ import annotations

import argparse

from plies.cli.common import Command

COMMAND = Command("uci", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies uci``."""
    p.add_argument("--tune", action="store_true",
                   help="also declare the search's tunable numbers as spin options (for "
                        "plies spsa and other tuners)")


def run(args: argparse.Namespace) -> int:
    """Run the UCI loop until ``quit`` or end of input."""
    import os
    import sys

    from plies.uci.channel import Output, read_lines
    from plies.uci.loop import UciLoop

    # GUIs expect UTF-8 (the board diagram of ``d`` is Unicode) whatever the locale says.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    loop = UciLoop(Output(sys.stdout), tune=args.tune)
    loop.run(read_lines(sys.stdin.buffer))
    # Leave at once: the reader thread may be blocked reading stdin (after
    # ``quit``) and the warm-up thread may be compiling; tearing the interpreter
    # down under either can abort it ("could not acquire lock for stdin").
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def standalone() -> int:
    """``plies-uci``: the UCI engine as one executable (GUIs want a program, not a subcommand)."""
    import sys

    from plies.cli.main import main

    return main(["uci", *sys.argv[1:]])
