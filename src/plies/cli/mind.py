"""answer FENs on stdin with 'from,to' moves (squares 0-63), one line each."""

from __future__ import annotations

import argparse
import sys

from plies.cli import match_options
from plies.cli.common import CliError, Command

_DESCRIPTION = """\
Answer chess positions as a "mind": a mind is a chess player reduced to one
question and one answer, so that programs in any language can play each other.
The question is a position, written as a FEN on one line; the answer is the move,
written "from,to" with squares numbered 0-63 (a1=0, b1=1, ..., h1=7, a2=8, ...,
h8=63), so e2-e4 is "12,28".  This command reads one FEN per line on standard
input and writes one answer per line, flushed at once so that a program can talk
to it line by line.  The player answering can be any player spec (see
"plies players"): a built-in agent, your Python file, another mind program or an
engine.

"0,0" forfeits: the answer to a line that is not a readable FEN (blank lines and
junk included) and to a position without a legal move (checkmate, stalemate).
The process then simply goes on with the next line.  A promotion is answered
with its two squares only; the receiver plays a queen (an agent's preferred
under-promotion is reported with --verbose but cannot be expressed).
"""

_EPILOG = """\
examples:
  echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" | plies mind --agent random
  plies mind --agent alphabeta:depth=3 < positions.fen
  plies mind --agent engine --movetime 200
  plies mind --agent mymind.py --verbose < positions.fen
  plies mind --agent xboard:/usr/games/fairymax --movetime 100
"""


COMMAND = Command("mind", __doc__, epilog=_EPILOG, description_text=_DESCRIPTION)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies mind``."""
    from plies.agents.spec import spec_help

    p.add_argument(
        "--agent",
        metavar="SPEC",
        default="engine",
        help=f"who answers: {spec_help()} (default engine)",
    )
    p.add_argument("--depth", type=int, metavar="N", help="search depth per position")
    p.add_argument("--nodes", type=int, metavar="N", help="node limit per position")
    p.add_argument("--movetime", type=int, metavar="MS", help="thinking time per position")
    p.add_argument("--seed", type=int, metavar="S", help="seed for the agent's random choices")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="on stderr: the move chosen (with its promotion piece) and why a line was forfeited",
    )
    match_options.add_sandbox_options(p)


def run(args: argparse.Namespace) -> int:
    """Answer every line of standard input until it ends."""
    from plies.agents.ladder import bounded
    from plies.agents.mind import mind_answer
    from plies.agents.spec import SpecError, start_player
    from plies.engine.limits import Limit

    for flag, value in (("--depth", args.depth), ("--nodes", args.nodes),
                        ("--movetime", args.movetime)):
        if value is not None and value < 1:
            raise CliError(f"{flag} must be at least 1, not {value}")
    try:
        # Compiled now, so that the first position gets an answer as quickly as the rest.
        player = start_player(args.agent, seed=args.seed,
                              sandbox=match_options.sandbox_policy(args))
    except SpecError as exc:
        raise CliError(str(exc)) from None
    limit = bounded(player, Limit(depth=args.depth, nodes=args.nodes, movetime=args.movetime))
    verbose = args.verbose
    number = 0
    try:
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            number += 1
            answer = mind_answer(player, line, limit)
            if verbose and answer.move is not None:
                print(f"move {answer.move.uci()}", file=sys.stderr, flush=True)
            sys.stdout.write(answer.action + "\n")
            sys.stdout.flush()
            if verbose and answer.error is not None:
                print(f"line {number}: {answer.error}", file=sys.stderr, flush=True)
    finally:
        player.close()
    return 0
