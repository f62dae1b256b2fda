"""count leaf nodes of the legal move tree (move generator check and speed).

Count the leaf nodes of the legal move tree DEPTH plies deep.
"""

from __future__ import annotations

import argparse
import time

from plies.cli.common import CliError, Command

COMMAND = Command("perft", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies perft``."""
    p.add_argument("depth", type=int, nargs="?", default=6, help="depth in plies (default 6)")
    p.add_argument("--fen", help="position to start from (default: the starting position)")
    p.add_argument("--divide", action="store_true", help="print the count under each root move")
    p.add_argument(
        "--chess960", action="store_true",
        help="Chess960 rules: X-FEN or Shredder-FEN castling, castling as king takes rook",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Run perft and print the counts and speed."""
    if args.depth < 1 or args.depth > 20:
        raise CliError(f"depth must be between 1 and 20, got {args.depth}")
    from plies.board import Board, InvalidFenError, divide, perft
    from plies.compile_notice import compile_notice

    try:
        fen = Board.STARTING_FEN if args.fen is None else args.fen
        board = Board(fen, chess960=args.chess960)
        board.check_playable()
    except InvalidFenError as exc:
        raise CliError(str(exc)) from None
    with compile_notice():
        perft(board, 1)
        if args.divide:
            divide(board, 1)
    start = time.perf_counter()
    if args.divide:
        counts = divide(board, args.depth)
        nodes = sum(counts.values())
        for uci in sorted(counts):
            print(f"{uci}: {counts[uci]}")
        print()
    else:
        nodes = perft(board, args.depth)
    elapsed = time.perf_counter() - start
    nps = int(nodes / elapsed) if elapsed > 0 else 0
    print(f"Nodes: {nodes}  Time: {elapsed:.3f} s  NPS: {nps}")
    return 0
