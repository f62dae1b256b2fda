"""Seeded FEN fuzzing against python-chess: random and mutated FENs, plies.Board beside chess.Board.

Each FEN is judged by python-chess: a syntax error, unplayable (a bit of
``UNPLAYABLE`` set in ``Board.status()``), or playable. plies must refuse the
first two with a one-line ``InvalidFenError`` and accept the third with the same
legal moves and the same FEN written back. The rule set is python-chess's status()
minus the merely unusual checks (three checkers, or two no single move could
uncover), which both libraries play.

Two quirks of python-chess are treated as refusals too: a castling right with
no rook at all on its side is dropped silently by its parser (plies refuses
the FEN naming the right), and its integer parsing takes ``+1`` or ``1_0``
as clocks (plies wants plain digits, at most ``MAX_CLOCK``). Such FENs are counted as ``stricter``
only when the mutation touched the text itself (``junk`` mutations);
mutations of the position must match exactly.

Generators: ``mutated_fen`` alters a seed FEN (perft-suite positions, the
start position, positions of short random games) by one to three mutations of
the position (add, remove, move or swap pieces, flood with queens, side,
castling, en passant, clocks) and, now and then, of the text; ``random_fen``
fills a board at random.

The default run checks 1,500 FENs for each of two seeds; the ``slow`` run checks
``PLIES_FUZZ_FENS`` of them (100,000 by default).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import chess
import pytest

from plies.board import Board, InvalidFenError

SUITE = Path(__file__).resolve().parents[1] / "data" / "perft" / "perftsuite.epd"

UNPLAYABLE = (
    chess.STATUS_EMPTY
    | chess.STATUS_NO_WHITE_KING
    | chess.STATUS_NO_BLACK_KING
    | chess.STATUS_TOO_MANY_KINGS
    | chess.STATUS_TOO_MANY_WHITE_PAWNS
    | chess.STATUS_TOO_MANY_BLACK_PAWNS
    | chess.STATUS_PAWNS_ON_BACKRANK
    | chess.STATUS_TOO_MANY_WHITE_PIECES
    | chess.STATUS_TOO_MANY_BLACK_PIECES
    | chess.STATUS_BAD_CASTLING_RIGHTS
    | chess.STATUS_INVALID_EP_SQUARE
    | chess.STATUS_OPPOSITE_CHECK
)
"""python-chess status bits that make a position unplayable (and plies refuse it)."""

PIECES = "PNBRQKpnbrqk"
CASTLINGS = ["-", "K", "Q", "k", "q", "KQ", "kq", "Kk", "Qq", "KQk", "KQq", "Kkq", "Qkq", "KQkq"]
JUNK = ["", " ", "/", "9", "0", "x", "-", "K", "p", "w", "b", "e3", "+1", "1_0", "99999999999",
        "9" * 30, "-1", "\x00", "é"]


@dataclass(frozen=True)
class Verdict:
    """What python-chess says of a FEN, and what plies must do with it."""

    kind: str
    """``syntax`` (python-chess cannot parse it), ``unplayable`` or ``playable``."""
    board: chess.Board | None
    """The parsed python-chess board (None on a syntax error)."""


def judge(fen: str) -> Verdict:
    """python-chess's verdict on a FEN under plies's rule set."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return Verdict("syntax", None)
    castling = fen.split()[2] if len(fen.split()) > 2 else "-"
    # python-chess drops a right with no rook on its side: the FEN asked for it anyway.
    dropped = castling != "-" and board.castling_xfen() != castling
    if board.status() & UNPLAYABLE or dropped:
        return Verdict("unplayable", board)
    return Verdict("playable", board)


def _mutate_position(rng: random.Random, board: chess.Board) -> None:
    """One random change of pieces, side, castling rights, en passant or clocks."""
    squares = list(board.piece_map())
    choice = rng.randrange(10)
    if choice == 0:
        board.set_piece_at(rng.randrange(64), chess.Piece.from_symbol(rng.choice(PIECES)))
    elif choice == 1 and squares:
        board.remove_piece_at(rng.choice(squares))
    elif choice == 2 and squares:
        piece = board.remove_piece_at(rng.choice(squares))
        board.set_piece_at(rng.randrange(64), piece)
    elif choice == 3:
        a, b = rng.randrange(64), rng.randrange(64)
        pa, pb = board.piece_at(a), board.piece_at(b)
        board.set_piece_at(a, pb)
        board.set_piece_at(b, pa)
    elif choice == 4:
        # Flood with one piece kind: too many pieces or pawns, or the most moves.
        piece = chess.Piece.from_symbol(rng.choice("QQNPpq"))
        for _ in range(rng.randint(2, 14)):
            square = rng.randrange(64)
            if board.piece_type_at(square) != chess.KING:
                board.set_piece_at(square, piece)
    elif choice == 5:
        board.turn = not board.turn
    elif choice == 6:
        board.castling_rights = 0
    elif choice == 7:
        rank = rng.choice([2, 5, 2, 5, rng.randrange(8)])
        board.ep_square = chess.square(rng.randrange(8), rank)
    elif choice == 8:
        board.ep_square = None
    else:
        board.halfmove_clock = rng.choice([0, 1, 49, 99, 100, 149, 150, 1000])


def _mutate_text(rng: random.Random, fen: str) -> str:
    """One random edit of the FEN text: a character, a field, or a number."""
    if rng.random() < 0.5 or not fen:
        i = rng.randrange(len(fen) + 1)
        cut = rng.randint(0, 2)
        return fen[:i] + rng.choice(JUNK) + fen[i + cut :]
    fields = fen.split(" ")
    i = rng.randrange(len(fields))
    if rng.random() < 0.3:
        del fields[i]
    else:
        fields[i] = rng.choice(JUNK)
    return " ".join(fields)


def mutated_fen(rng: random.Random, seeds: list[str]) -> tuple[str, bool]:
    """A seed FEN altered by one to three mutations; the flag says the text was edited."""
    board = chess.Board(rng.choice(seeds))
    for _ in range(rng.randint(1, 3)):
        _mutate_position(rng, board)
    # Written field by field: board.fen() would drop an ep square without a capture.
    ep = chess.SQUARE_NAMES[board.ep_square] if board.ep_square is not None else "-"
    # Rights as they are after the mutations, or any set of letters (often impossible).
    castling = rng.choice(CASTLINGS) if rng.random() < 0.25 else board.castling_xfen()
    side = "w" if board.turn else "b"
    fen = (f"{board.board_fen()} {side} {castling} {ep} "
           f"{board.halfmove_clock} {board.fullmove_number}")  # fmt: skip
    if rng.random() < 0.15:
        return _mutate_text(rng, fen), True
    return fen, False


def random_fen(rng: random.Random) -> str:
    """A board filled at random (kings usually present), random side, rights and ep."""
    board = chess.Board(None)
    if rng.random() < 0.95:
        board.set_piece_at(rng.randrange(64), chess.Piece.from_symbol("K"))
        board.set_piece_at(rng.randrange(64), chess.Piece.from_symbol("k"))
    for _ in range(rng.choice([0, 2, 4, 8, 16, 24, 32])):
        square = rng.randrange(64)
        if board.piece_type_at(square) != chess.KING:
            piece = chess.Piece.from_symbol(rng.choice("PNBRQpnbrq"))
            board.set_piece_at(square, piece)
    side = rng.choice("wb")
    ep = "-" if rng.random() < 0.7 else chess.SQUARE_NAMES[rng.randrange(64)]
    return f"{board.board_fen()} {side} {rng.choice(CASTLINGS)} {ep} 0 1"


def seed_fens(rng: random.Random, games: int = 40) -> list[str]:
    """Perft-suite positions, the start position and positions of short random games."""
    fens = [chess.STARTING_FEN]
    for line in SUITE.read_text(encoding="ascii").splitlines():
        fen = line.split(";")[0].strip()
        if fen and chess.Board(fen).is_valid():
            fens.append(fen)
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randint(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen(en_passant="fen"))
    return fens


@dataclass
class Tally:
    """Outcome counts, mismatches, and the seconds each library spent."""

    counts: Counter[str] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)
    seconds_ours: float = 0.0
    seconds_ref: float = 0.0

    def check(self, fen: str, junk: bool) -> None:
        """Judge one FEN with both libraries (each timed) and record the outcome."""
        label, problem = self._compare(fen, junk)
        self.counts[label] += 1
        if problem is not None:
            self.mismatches.append(problem)

    def _compare(self, fen: str, junk: bool) -> tuple[str, str | None]:
        """(outcome label, mismatch or None) for one FEN."""
        t0 = time.perf_counter()
        verdict = judge(fen)
        ref_moves = sorted(m.uci() for m in verdict.board.legal_moves) if (
            verdict.kind == "playable" and verdict.board is not None) else []  # fmt: skip
        t1 = time.perf_counter()
        self.seconds_ref += t1 - t0
        try:
            ours = Board(fen)
            ours.check_playable()
            our_moves = sorted(m.uci() for m in ours.legal_moves)
        except InvalidFenError as exc:
            self.seconds_ours += time.perf_counter() - t1
            message = str(exc)
            if "\n" in message or not message.startswith("invalid fen"):
                return "refused", f"unclear refusal {message!r} of {fen!r}"
            if verdict.kind != "playable":
                return f"refused ({verdict.kind})", None
            if junk:
                return "stricter", None
            return "refused", f"playable position refused: {message!r} for {fen!r}"
        except Exception as exc:  # anything else is a crash in the making
            return "crashed", f"{type(exc).__name__}: {exc} for {fen!r}"
        self.seconds_ours += time.perf_counter() - t1
        if verdict.kind != "playable" or verdict.board is None:
            return "accepted", f"{verdict.kind} FEN accepted: {fen!r}"
        if our_moves != ref_moves:
            return "accepted", f"legal moves differ for {fen!r}"
        if ours.fen() != verdict.board.fen():
            return "accepted", f"fen {ours.fen()!r} != {verdict.board.fen()!r} for {fen!r}"
        return "accepted", None


def fuzz(count: int, seed: int) -> Tally:
    """Check ``count`` seeded FENs (a fifth random, the rest mutated) and tally them."""
    rng = random.Random(seed)
    seeds = seed_fens(rng)
    tally = Tally()
    for i in range(count):
        if i % 5 == 0:
            tally.check(random_fen(rng), False)
        else:
            tally.check(*mutated_fen(rng, seeds))
    return tally


LONG_RUN = int(os.environ.get("PLIES_FUZZ_FENS", "100000"))
"""FENs of the slow run."""


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzzed_fens_agree_with_python_chess(seed: int) -> None:
    """1,500 FENs per seed: no mismatch, and every kind of verdict occurs."""
    tally = fuzz(1500, seed)
    assert tally.mismatches == []
    assert tally.counts["accepted"] > 200
    assert tally.counts["refused (unplayable)"] > 200
    assert tally.counts["refused (syntax)"] > 20
    assert tally.counts["crashed"] == 0


@pytest.mark.slow
def test_long_fuzz_agrees_with_python_chess() -> None:
    """The long run (``PLIES_FUZZ_FENS``, 100,000 by default): no mismatch, no crash."""
    tally = fuzz(LONG_RUN, 2026)
    assert tally.mismatches[:20] == []
    assert tally.counts["crashed"] == 0
    assert sum(tally.counts.values()) == LONG_RUN


def test_fuzzer_catches_an_accepted_unplayable_fen() -> None:
    """The checker itself flags a FEN plies would wrongly accept (here: judged directly)."""
    verdict = judge("QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1")
    assert verdict.kind == "unplayable"
    assert judge("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").kind == "playable"
    assert judge("4k3/8/8/8/8/8/8/4K3 w Q - 0 1").kind == "unplayable"
    assert judge("not a fen").kind == "syntax"
