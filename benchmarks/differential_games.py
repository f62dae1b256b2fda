"""Differential run: plies.Board against python-chess over random games, position by position.

Seeded random games are played on both boards in lockstep until a position
count is reached (1,000,000 by default). At every position the two boards must
agree on the FEN, the set of legal moves, check, checkmate, stalemate,
insufficient material, the game outcome without claims, and the SAN of the move
played; every fourth position also on the fifty-move claim and threefold
repetition, every sixteenth on the threefold claim (python-chess replays each
legal move for it) and on the SAN of every legal move, and every fiftieth a
pop restores the previous FEN.

Games mix four move pickers so that every rule gets exercised: uniform random
moves, a picker hungry for castling, en passant, captures and promotions
(under-promotions included), a quiet picker that avoids captures and pawn
moves (the fifty- and seventy-five-move rules) and a shuffler that moves pieces
back and forth (repetitions). A tenth of the games start from a perft-suite
position (castling and en-passant corners) instead of the start position.

The time each library spends answering the same questions is printed beside
the other's (a ratio). Mismatches are listed (the first ones in full) and make
the exit status 1.

Usage: python benchmarks/differential_games.py [--positions N] [--seed S]
                                               [--max-plies N] [--progress SECONDS]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess

from plies.board import Board, Move

SUITE = Path(__file__).resolve().parents[1] / "tests" / "data" / "perft" / "perftsuite.epd"
MODES = ("uniform", "captures", "quiet", "shuffle")
SHOWN_MISMATCHES = 10


def _suite_fens() -> list[str]:
    """Perft-suite positions python-chess calls valid."""
    fens = []
    for line in SUITE.read_text(encoding="ascii").splitlines():
        fen = line.split(";")[0].strip()
        if fen and chess.Board(fen).is_valid():
            fens.append(fen)
    return fens


def _pick(board: chess.Board, moves: list[chess.Move], rng: random.Random, mode: str) -> chess.Move:
    """Choose a move by the mode's bias (moves come from python-chess)."""
    if mode == "captures":
        special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m)]
        if special and rng.random() < 0.8:
            return rng.choice(special)
        noisy = [m for m in moves if m.promotion or board.is_capture(m)]
        if noisy and rng.random() < 0.7:
            return rng.choice(noisy)
    elif mode == "quiet":
        quiet = [m for m in moves if not board.is_zeroing(m)]
        if quiet and rng.random() < 0.97:
            return rng.choice(quiet)
    elif mode == "shuffle" and len(board.move_stack) >= 2 and rng.random() < 0.8:
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves:
            return back
    return rng.choice(moves)


class Differential:
    """Two boards in lockstep, the time each spends, and what disagreed."""

    def __init__(self) -> None:
        """Start with no positions checked."""
        self.positions = 0
        self.games = 0
        self.time_ours = 0.0
        self.time_ref = 0.0
        self.mismatches: list[str] = []
        self.endings: Counter[str] = Counter()
        self.seen: Counter[str] = Counter()

    def _both(
        self, name: str, ours: Callable[[], Any], ref: Callable[[], Any], where: str
    ) -> Any:
        """Ask both boards one question, timing each; record a disagreement."""
        t0 = time.perf_counter()
        a = ours()
        t1 = time.perf_counter()
        b = ref()
        t2 = time.perf_counter()
        self.time_ours += t1 - t0
        self.time_ref += t2 - t1
        if a != b:
            self.mismatches.append(f"{name}: plies {a!r} != python-chess {b!r} {where}")
        return b

    def compare(self, ours: Board, ref: chess.Board, index: int) -> list[chess.Move]:
        """Compare everything observable in the current position; return its legal moves."""
        where = f"at {ref.fen()} (game {self.games}, ply {len(ref.move_stack)})"
        self._both("fen", ours.fen, ref.fen, where)
        moves: list[chess.Move] = []

        def ref_legal() -> set[tuple[int, int, int | None]]:
            """python-chess's legal moves as (from, to, promotion)."""
            moves.extend(ref.legal_moves)
            return {(m.from_square, m.to_square, m.promotion) for m in moves}

        def ours_legal() -> set[tuple[int, int, int | None]]:
            """plies's legal moves as (from, to, promotion)."""
            return {(m.from_square, m.to_square, m.promotion) for m in ours.legal_moves}

        self._both("legal moves", ours_legal, ref_legal, where)
        if self._both("check", ours.is_check, ref.is_check, where):
            self.seen["check"] += 1
        self._both("checkmate", ours.is_checkmate, ref.is_checkmate, where)
        self._both("stalemate", ours.is_stalemate, ref.is_stalemate, where)
        self._both("insufficient material", ours.is_insufficient_material,
                   ref.is_insufficient_material, where)  # fmt: skip
        outcome = self._both(
            "outcome",
            lambda: _name(ours.outcome()),
            lambda: _name(ref.outcome()),
            where,
        )
        if index % 4 == 0:
            if self._both("fifty-move claim", ours.can_claim_fifty_moves,
                          ref.can_claim_fifty_moves, where):  # fmt: skip
                self.seen["fifty-move claim"] += 1
            if self._both("threefold repetition", lambda: ours.is_repetition(3),
                          lambda: ref.is_repetition(3), where):  # fmt: skip
                self.seen["threefold repetition"] += 1
        if index % 16 == 0:
            if self._both("threefold claim", ours.can_claim_threefold_repetition,
                          ref.can_claim_threefold_repetition, where):  # fmt: skip
                self.seen["threefold claim"] += 1
            self._both(
                "san of every move",
                lambda: sorted(ours.san(Move(m.from_square, m.to_square, m.promotion))
                               for m in moves),
                lambda: sorted(ref.san(m) for m in moves),
                where,
            )  # fmt: skip
        if outcome is not None:
            self.endings[outcome] += 1
        return [] if outcome is not None else moves

    def play(self, rng: random.Random, start: str, mode: str, max_plies: int, limit: int) -> None:
        """Play one seeded game on both boards, comparing at every position."""
        ours, ref = Board(start), chess.Board(start)
        self.games += 1
        for ply in range(max_plies + 1):
            if self.positions >= limit:
                return
            self.positions += 1
            moves = self.compare(ours, ref, self.positions)
            if not moves or ply == max_plies:
                if not moves:
                    return
                self.endings["ply limit"] += 1
                return
            move = _pick(ref, moves, rng, mode)
            where = f"for {move.uci()} at {ref.fen()} (game {self.games})"
            ours_move = Move(move.from_square, move.to_square, move.promotion)
            self._both("san", lambda m=ours_move: ours.san(m), lambda m=move: ref.san(m), where)
            if ref.is_en_passant(move):
                self.seen["en passant"] += 1
            if ref.is_castling(move):
                self.seen["castling"] += 1
            if move.promotion:
                self.seen["promotion"] += 1
            if self.positions % 50 == 0 and ref.move_stack:
                # Take back the previous move on both boards, compare, and replay it.
                last, ours_last = ref.pop(), ours.pop()
                if ours.fen() != ref.fen() or ours_last.uci() != last.uci():
                    self.mismatches.append(f"pop: {ours.fen()} != {ref.fen()} {where}")
                ours.push(ours_last)
                ref.push(last)
            t0 = time.perf_counter()
            ours.push(ours_move)
            t1 = time.perf_counter()
            ref.push(move)
            self.time_ours += t1 - t0
            self.time_ref += time.perf_counter() - t1


def _name(outcome: chess.Outcome | Any | None) -> str | None:
    """Comparable text of an outcome (termination and winner), or None."""
    if outcome is None:
        return None
    winner = outcome.winner
    side = "none" if winner is None else ("white" if winner in (True, 0) else "black")
    return f"{outcome.termination.name} {side}"


def main(argv: list[str] | None = None) -> int:
    """Run the differential games and print the report; exit status 1 on any mismatch."""
    parser = argparse.ArgumentParser(
        description="Compare plies.Board with python-chess over positions of random games."
    )
    parser.add_argument("--positions", type=int, default=1_000_000,
                        help="positions to compare (default 1,000,000)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--max-plies", type=int, default=400,
                        help="longest game in plies (default 400)")  # fmt: skip
    parser.add_argument("--progress", type=float, default=60.0,
                        help="seconds between progress lines (default 60; 0: none)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.positions < 1 or args.max_plies < 1:
        parser.error("--positions and --max-plies must be positive")

    rng = random.Random(args.seed)
    suite = _suite_fens()
    run = Differential()
    started = last = time.perf_counter()
    while run.positions < args.positions:
        mode = MODES[run.games % len(MODES)]
        start = rng.choice(suite) if rng.random() < 0.1 else chess.STARTING_FEN
        run.play(rng, start, mode, args.max_plies, args.positions)
        now = time.perf_counter()
        if args.progress and now - last >= args.progress:
            last = now
            print(f"  {run.positions:,} positions, {run.games:,} games, "
                  f"{run.positions / (now - started):,.0f} positions/s, "
                  f"{len(run.mismatches)} mismatches", flush=True)  # fmt: skip
    wall = time.perf_counter() - started

    print(f"positions compared: {run.positions:,} in {run.games:,} games (seed {args.seed})")
    print(f"wall time: {wall:,.1f} s ({run.positions / wall:,.0f} positions/s)")
    print(f"time answering the same questions: plies {run.time_ours:,.1f} s, "
          f"python-chess {run.time_ref:,.1f} s, ratio python-chess/plies "
          f"{run.time_ref / max(run.time_ours, 1e-9):.2f}")  # fmt: skip
    print("game endings: " + ", ".join(f"{k} {v:,}" for k, v in run.endings.most_common()))
    print("rules seen: " + ", ".join(f"{k} {v:,}" for k, v in sorted(run.seen.items())))
    print(f"mismatches: {len(run.mismatches)}")
    for line in run.mismatches[:SHOWN_MISMATCHES]:
        print("  " + line)
    return 1 if run.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
