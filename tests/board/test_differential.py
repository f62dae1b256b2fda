"""Differential tests: plies.Board against python-chess over thousands of positions.

Seeded random games are generated with python-chess alone (biased towards
promotions, castling, en passant, checks and mates; some shuffle pieces to
reach repetitions, some avoid captures to reach the fifty- and seventy-five-move
rules), then replayed on both boards in lockstep, comparing every observable
answer at every ply. The ``chess960`` games start from Chess960 positions (start
positions and the Chess960 perft suite's) and play on Chess960 boards.
"""

from __future__ import annotations

import functools
import os
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import pytest

from plies.board import BLACK, WHITE, Board, Move, Outcome

DATA = Path(__file__).resolve().parents[1] / "data" / "perft"


def _suite_fens() -> list[str]:
    """Every perft-suite FEN that python-chess calls valid (rich in odd positions)."""
    fens = []
    for name in ("perftsuite.epd", "standard.epd"):
        with open(DATA / name, encoding="ascii") as handle:
            for line in handle:
                fen = line.split(";")[0].strip()
                if fen and chess.Board(fen).is_valid() and fen not in fens:
                    fens.append(fen)
    return fens


TRICKY_FENS = _suite_fens()

# Hand-picked corners: en passant pinned along a rank, en passant out of
# check, promotions with capture and check, castling through attacks.
EXTRA_FENS = [
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",  # ep capture would expose the king on the rank
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # same, for black
    "8/8/8/4k3/2pP4/8/8/3K4 b - d3 0 1",  # ep removes the checking pawn
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # same, with the other pawn
    "4k3/8/8/2KpP3/8/8/8/8 w - d6 0 2",  # ep capture beside the own king
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",  # promotions onto rook squares
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # all four castlings
    "r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1",  # castling through an attacked square
    "1k6/8/8/8/8/8/8/R3K2R b KQ - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "7k/8/8/8/8/8/8/K5R1 w - - 98 80",  # fifty-move claim one move away
    "7k/8/8/8/8/8/6R1/K5R1 w - - 149 120",  # mate on the 150th half-move beats the 75-move rule
    "8/8/8/8/8/2k5/1q6/K7 w - - 0 1",  # already checkmated
]

MAX_PLIES = {"tactical": 200, "shuffle": 120, "quiet": 170, "sparse": 24, "chess960": 160}
GAMES = {"tactical": 36, "shuffle": 12, "quiet": 10, "sparse": 72, "chess960": 24}
# Every position gets the position-level comparison; every n-th also has each of
# its legal moves checked (SAN, predicates, make/unmake), to keep the run short.
EVERY_MOVE_STRIDE = {"tactical": 3, "shuffle": 2, "quiet": 10, "sparse": 1, "chess960": 3}


@dataclass(frozen=True)
class Game:
    """A generated game: the start FEN and the UCI moves played from it."""

    start: str
    moves: tuple[str, ...]
    chess960: bool = False


def _is_pawn_move(board: chess.Board, move: chess.Move) -> bool:
    """True when the move's piece is a pawn."""
    return board.piece_type_at(move.from_square) == chess.PAWN


def BB(square: int) -> int:
    """The one-bit bitboard of a square."""
    return 1 << square


def _makes_en_passant(board: chess.Board, move: chess.Move) -> bool:
    """True when a double pawn push lets the opponent capture en passant."""
    if not _is_pawn_move(board, move) or abs(move.to_square - move.from_square) != 16:
        return False
    board.push(move)
    try:
        return board.has_legal_en_passant()
    finally:
        board.pop()


def _chess960_fens() -> list[str]:
    """The Chess960 perft suite's positions (Shredder-FEN castling fields)."""
    with open(DATA / "chess960.perft", encoding="ascii") as handle:
        return [line[4:].strip() for line in handle if line.startswith("epd ")]


CHESS960_FENS = _chess960_fens()


def _pick(board: chess.Board, rng: random.Random, mode: str) -> chess.Move:
    """Choose a move by the mode's bias; moves are drawn from python-chess."""
    moves = list(board.legal_moves)
    if mode in ("tactical", "chess960"):
        mates = []
        for move in moves:
            if board.gives_check(move):
                board.push(move)
                if board.is_checkmate():
                    mates.append(move)
                board.pop()
        castling_rights = board.castling_rights & board.occupied_co[board.turn]
        buckets = [
            (0.9, mates),
            (0.8, [m for m in moves if _makes_en_passant(board, m)]),
            (0.9, [m for m in moves if m.promotion]),
            (0.9, [m for m in moves if board.is_en_passant(m)]),
            (0.6, [m for m in moves if board.is_castling(m)]),
            (0.3, [m for m in moves if board.gives_check(m)]),
            (0.4, [m for m in moves if board.is_capture(m)]),
            (0.4, [m for m in moves if _is_pawn_move(board, m)]),
        ]
        for chance, bucket in buckets:
            if bucket and rng.random() < chance:
                return rng.choice(bucket)
        if castling_rights and rng.random() < 0.9:
            # Keep king and rooks home while castling is possible, so that it happens.
            home = [m for m in moves if not (BB(m.from_square) & (board.kings | castling_rights))]
            if home:
                return rng.choice(home)
        return rng.choice(moves)
    quiet = [m for m in moves if not board.is_zeroing(m)]
    if mode == "shuffle" and len(board.move_stack) >= 2:
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if rng.random() < 0.85 and board.is_legal(back):
            return back
    if mode in ("shuffle", "quiet") and quiet and rng.random() < 0.95:
        return rng.choice(quiet)
    return rng.choice(moves)


def _random_sparse(rng: random.Random, pawns: bool, playable: bool = False) -> chess.Board:
    """A random valid position with kings and a few pieces (minor-heavy).

    ``playable`` asks for a position whose game is not over yet.
    """
    pool = "NNBBRQnnbbrq" + ("PPPppp" if pawns else "")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 8)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        count = rng.choice([0, 1, 1, 2, 2, 2, 3, 4, 6])
        for square in squares[2 : 2 + count]:
            piece = chess.Piece.from_symbol(rng.choice(pool))
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, piece)
        board.turn = rng.random() < 0.5
        board.halfmove_clock = rng.choice([0, 0, 7, 60, 95, 99, 140, 148])
        board.fullmove_number = rng.randint(board.halfmove_clock // 2 + 1, 200)
        if board.is_valid() and not (playable and board.is_game_over()):
            return board


@functools.cache
def _game(mode: str, index: int) -> Game:
    """Generate one seeded game of the given mode with python-chess."""
    rng = random.Random(f"{mode}-{index}")
    if mode == "tactical":
        if index < len(EXTRA_FENS):
            board = chess.Board(EXTRA_FENS[index])
        else:
            board = chess.Board(chess.STARTING_FEN if index % 2 else rng.choice(TRICKY_FENS))
    elif mode == "shuffle":
        board = chess.Board(chess.STARTING_FEN if index % 2 else rng.choice(TRICKY_FENS))
        # A few random moves first, so that the shuffling happens in varied positions.
        for _ in range(rng.randint(0, 8)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if index % 4 == 0:
            board = chess.Board(board.fen())  # some games start from a FEN, without history
    elif mode == "chess960":
        if index % 2:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board(rng.choice(CHESS960_FENS), chess960=True)
    else:
        board = _random_sparse(rng, pawns=mode == "sparse", playable=mode == "quiet")
    start = board.root().fen()
    for _ in range(MAX_PLIES[mode]):
        if board.outcome(claim_draw=False) is not None:
            break
        board.push(_pick(board, rng, mode))
    return Game(start, tuple(m.uci() for m in board.move_stack), board.chess960)


def _all_games() -> Iterator[tuple[str, int]]:
    """Every (mode, index) pair the tests replay."""
    for mode, count in GAMES.items():
        for index in range(count):
            yield mode, index


def _winner(color: chess.Color | None) -> int | None:
    """python-chess's bool colour as plies' int colour."""
    if color is None:
        return None
    return WHITE if color == chess.WHITE else BLACK


def _ours_outcome(outcome: Outcome | None) -> tuple[str, int | None] | None:
    """A comparable (termination name, winner) for a plies outcome."""
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def _ref_outcome(outcome: chess.Outcome | None) -> tuple[str, int | None] | None:
    """A comparable (termination name, winner) for a python-chess outcome."""
    return None if outcome is None else (outcome.termination.name, _winner(outcome.winner))


def _compare_position(ours: Board, ref: chess.Board, every_move: bool) -> None:
    """Assert that both boards agree on everything observable in this position."""
    where = f"at {ref.fen()} after {[m.uci() for m in ref.move_stack]}"
    assert ours.fen() == ref.fen(), where
    assert ours.turn == _winner(ref.turn), where
    assert ours.halfmove_clock == ref.halfmove_clock, where
    assert ours.fullmove_number == ref.fullmove_number, where
    assert ours.castling_xfen() == ref.castling_xfen(), where
    assert ours.shredder_fen() == ref.shredder_fen(), where
    legal = {m.uci() for m in ours.legal_moves}
    assert legal == {m.uci() for m in ref.legal_moves}, where
    assert ours.is_check() == ref.is_check(), where
    assert ours.is_checkmate() == ref.is_checkmate(), where
    assert ours.is_stalemate() == ref.is_stalemate(), where
    assert ours.is_insufficient_material() == ref.is_insufficient_material(), where
    # python-chess's repetition checks replay history, so each is asked once.
    threefold, fifty = ref.can_claim_threefold_repetition(), ref.can_claim_fifty_moves()
    assert ours.can_claim_threefold_repetition() == threefold, where
    assert ours.is_fivefold_repetition() == ref.is_fivefold_repetition(), where
    assert ours.can_claim_fifty_moves() == fifty, where
    assert ours.is_seventyfive_moves() == ref.is_seventyfive_moves(), where
    assert ours.can_claim_draw() == (threefold or fifty), where
    for claim in (False, True):
        expected = ref.outcome(claim_draw=claim)
        assert _ours_outcome(ours.outcome(claim_draw=claim)) == _ref_outcome(expected), (
            f"claim_draw={claim} {where}"
        )
        assert ours.is_game_over(claim_draw=claim) == (expected is not None), where
        assert ours.result(claim_draw=claim) == (expected.result() if expected else "*"), where
    # The key is a function of the position alone: incremental == from scratch. The
    # FEN keeps any en-passant square, so a key that counts one either way agrees.
    from_fen = Board(ref.fen(en_passant="fen"), chess960=ours.chess960)
    assert ours.zobrist_key() == from_fen.zobrist_key(), where
    if not every_move:
        return
    fen = ours.fen()
    for move in ours.legal_moves:
        uci = move.uci()
        ref_move = chess.Move.from_uci(uci)
        at = f"move {uci} {where}"
        assert ours.parse_uci(uci) == move, at
        san = ours.san(move)
        assert san == ref.san(ref_move), at
        assert ours.parse_san(san) == move, at
        assert ours.gives_check(move) == ref.gives_check(ref_move), at
        assert ours.is_capture(move) == ref.is_capture(ref_move), at
        assert ours.is_en_passant(move) == ref.is_en_passant(ref_move), at
        assert ours.is_castling(move) == ref.is_castling(ref_move), at
        assert ours.is_legal(move), at
        # make/unmake: the child position matches, and pop restores exactly.
        ours.push(move)
        ref.push(ref_move)
        try:
            assert ours.fen() == ref.fen(), at
            assert ours.is_check() == ref.is_check(), at
        finally:
            ref.pop()
            assert ours.pop() == move, at
        assert ours.fen() == fen, at


def _push_same(ours: Board, ref: chess.Board, uci: str, ply: int) -> None:
    """Play one move on both boards, by Move, UCI or SAN in turn."""
    ref_move = chess.Move.from_uci(uci)
    way = ply % 3
    if way == 0:
        ours.push(Move.from_uci(uci))
    elif way == 1:
        assert ours.push_uci(uci).uci() == uci
    else:
        assert ours.push_san(ref.san(ref_move)).uci() == uci
    ref.push(ref_move)


def _check_conversions(ours: Board, ref: chess.Board) -> None:
    """to_chess/from_chess keep position and history; copies are independent."""
    where = f"at {ref.fen()}"
    history = [m.uci() for m in ref.move_stack]
    exported = ours.to_chess()
    assert isinstance(exported, chess.Board)
    assert exported.chess960 == ours.chess960 == ref.chess960, where
    assert exported.fen() == ref.fen(), where
    assert [m.uci() for m in exported.move_stack] == history, where
    assert exported.can_claim_threefold_repetition() == ref.can_claim_threefold_repetition()
    imported = Board.from_chess(ref)
    assert imported.chess960 == ref.chess960, where
    assert imported.fen() == ref.fen(), where
    assert [m.uci() for m in imported.move_stack] == history, where
    assert imported.can_claim_threefold_repetition() == ref.can_claim_threefold_repetition()
    assert imported.is_fivefold_repetition() == ref.is_fivefold_repetition(), where
    assert imported.zobrist_key() == ours.zobrist_key(), where

    copy = ours.copy()
    fen, stack = ours.fen(), list(ours.move_stack)
    assert copy.fen() == fen and list(copy.move_stack) == stack
    assert copy.chess960 == ours.chess960 and copy.root().chess960 == ours.chess960
    assert copy.can_claim_threefold_repetition() == ours.can_claim_threefold_repetition()
    moves = copy.legal_moves
    if moves:
        copy.push(moves[0])
        assert ours.fen() == fen and list(ours.move_stack) == stack, where
        assert ours.legal_moves and copy.pop() is not None
    if imported.legal_moves:
        imported.push(imported.legal_moves[0])
        assert ref.fen() == fen, "from_chess must not alias the python-chess board"


def _replay(game: Game, stride: int) -> None:
    """Replay a game on both boards, comparing at every ply (each move every ``stride``)."""
    ours = Board(game.start, chess960=game.chess960)
    ref = chess.Board(game.start, chess960=game.chess960)
    assert ours.fen() == ref.fen() == game.start
    for ply, uci in enumerate(game.moves):
        _compare_position(ours, ref, every_move=ply % stride == 0)
        if ply % 25 == 0:
            _check_conversions(ours, ref)
        _push_same(ours, ref, uci, ply)
    _compare_position(ours, ref, every_move=True)
    _check_conversions(ours, ref)
    # Unwind the whole game: each pop restores the exact earlier FEN.
    while ref.move_stack:
        expected = ref.pop()
        assert ours.pop().uci() == expected.uci()
        assert ours.fen() == ref.fen()
    assert ours.fen() == game.start


@pytest.mark.parametrize(("mode", "index"), list(_all_games()), ids=lambda v: str(v))
def test_game_in_lockstep(mode: str, index: int) -> None:
    """Replay a generated game on both boards, comparing at every ply."""
    _replay(_game(mode, index), EVERY_MOVE_STRIDE[mode])


LONG_RUN_GAMES = int(os.environ.get("PLIES_DIFFERENTIAL_GAMES", "2000"))
"""Games per mode of the slow run, after the ones the default run replays."""


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(GAMES))
def test_many_more_games_in_lockstep(mode: str) -> None:
    """The long run: ``PLIES_DIFFERENTIAL_GAMES`` further seeded games of each mode."""
    for index in range(GAMES[mode], GAMES[mode] + LONG_RUN_GAMES):
        _replay(_game.__wrapped__(mode, index), EVERY_MOVE_STRIDE[mode])


@pytest.mark.parametrize("index", range(300))
def test_fen_round_trip_random_positions(index: int) -> None:
    """Board(fen).fen() == fen for random valid positions, with the same moves."""
    rng = random.Random(f"fen-{index}")
    ref = _random_sparse(rng, pawns=True)
    if index % 2:
        ref.castling_rights = ref.clean_castling_rights()
    fen = ref.fen()
    ours = Board(fen)
    assert ours.fen() == fen
    assert {m.uci() for m in ours.legal_moves} == {m.uci() for m in ref.legal_moves}, fen
    assert ours.is_insufficient_material() == ref.is_insufficient_material(), fen
    assert _ours_outcome(ours.outcome()) == _ref_outcome(ref.outcome()), fen


@pytest.mark.parametrize("fen", TRICKY_FENS + EXTRA_FENS)
def test_tricky_positions(fen: str) -> None:
    """Every suite and hand-picked FEN agrees with python-chess, move by move."""
    ours, ref = Board(fen), chess.Board(fen)
    _compare_position(ours, ref, every_move=True)
    _check_conversions(ours, ref)


def _shipped_positions() -> list[tuple[str, str | None]]:
    """(FEN, best move SAN or None) for the mate, Bratko-Kopec and WAC files in tests/data."""
    data = DATA.parent
    positions: list[tuple[str, str | None]] = []
    for name in ("mate1.fen", "mate2.fen"):
        with open(data / "mates" / name, encoding="ascii") as handle:
            positions += [(line.strip(), None) for line in handle if line.strip()]
    for name in ("bratko-kopec.epd", "wac.epd"):
        with open(data / "tactics" / name, encoding="ascii") as handle:
            for line in handle:
                if line.strip():
                    fields = line.split()
                    best = line.split(" bm ")[1].split(";")[0].split()[0]
                    positions.append((" ".join(fields[:4]) + " 0 1", best))
    return positions


def test_shipped_positions_agree() -> None:
    """The mate and tactics test positions load and agree with python-chess."""
    positions = _shipped_positions()
    assert len(positions) == 8 + 212 + 24 + 300
    for index, (fen, best) in enumerate(positions):
        ours, ref = Board(fen), chess.Board(fen)
        _compare_position(ours, ref, every_move=index % 8 == 0)
        if best is not None:
            assert ours.parse_san(best).uci() == ref.parse_san(best).uci(), fen


def test_mate_in_one_positions_have_a_mate() -> None:
    """Every mate1.fen position has a move after which the board reports checkmate."""
    for fen, _ in _shipped_positions()[:8]:
        board = Board(fen)
        mates = []
        for move in board.legal_moves:
            board.push(move)
            if board.is_checkmate():
                mates.append(move)
            board.pop()
        assert mates, fen
        assert all(board.san(move).endswith("#") for move in mates), fen


def test_variation_san_matches() -> None:
    """variation_san agrees with python-chess from either side to move."""
    for mode, index in [("tactical", i) for i in range(6)]:
        game = _game(mode, index)
        ours, ref = Board(game.start), chess.Board(game.start)
        moves = game.moves[:21]
        assert ours.variation_san([Move.from_uci(u) for u in moves]) == ref.variation_san(
            [chess.Move.from_uci(u) for u in moves]
        )
        assert ours.fen() == game.start and not ours.move_stack
        if len(moves) > 1:
            ours.push_uci(moves[0])
            ref.push_uci(moves[0])
            rest = moves[1:]
            assert ours.variation_san([Move.from_uci(u) for u in rest]) == ref.variation_san(
                [chess.Move.from_uci(u) for u in rest]
            )


def test_knight_shuffle_repetitions() -> None:
    """Shuffling knights: threefold claimable, then claimable one move early, then fivefold."""
    ours, ref = Board(), chess.Board()
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    seen = []
    for ply in range(4 * 4):
        _compare_position(ours, ref, every_move=False)
        seen.append((ours.can_claim_threefold_repetition(), ours.is_fivefold_repetition()))
        _push_same(ours, ref, cycle[ply % 4], ply)
    _compare_position(ours, ref, every_move=True)
    assert ours.is_fivefold_repetition()
    assert _ours_outcome(ours.outcome()) == ("FIVEFOLD_REPETITION", None)
    assert ours.result() == "1/2-1/2"
    # Claimable before the third occurrence is on the board (the claiming move).
    assert seen[7] == (True, False)
    assert not seen[6][0]


def test_repetition_through_an_illegal_en_passant_square() -> None:
    """A double push whose en-passant capture is illegal (pinned) does not change the position.

    FIDE counts positions as the same when the same moves are possible; the
    capture exd6 here would expose the white king, so the position after ...d5
    recurs when the kings come back, as python-chess counts it.
    """
    start = "3k4/3p4/8/K3P2r/8/8/8/8 b - - 0 1"
    ours, ref = Board(start), chess.Board(start)
    for ply, uci in enumerate(["d7d5", *["a5a4", "d8e8", "a4a5", "e8d8"] * 2]):
        _push_same(ours, ref, uci, ply)
        _compare_position(ours, ref, every_move=False)
        assert ours.is_repetition(3) == ref.is_repetition(3), ref.fen()
    assert ours.is_repetition(3)


def _collect_coverage() -> tuple[Counter[str], int]:
    """Count the features the generated games reach, with python-chess only."""
    seen: Counter[str] = Counter()
    positions = 0
    for mode, index in _all_games():
        game = _game(mode, index)
        board = chess.Board(game.start)
        for uci in game.moves:
            positions += 1
            move = chess.Move.from_uci(uci)
            if move.promotion:
                seen[f"promote-{chess.piece_symbol(move.promotion)}"] += 1
            if board.is_en_passant(move):
                seen["en-passant"] += 1
            if board.is_kingside_castling(move):
                seen[f"O-O-{'w' if board.turn else 'b'}"] += 1
            if board.is_queenside_castling(move):
                seen[f"O-O-O-{'w' if board.turn else 'b'}"] += 1
            if board.gives_check(move):
                seen["check"] += 1
            board.push(move)
            if board.can_claim_threefold_repetition():
                seen["threefold"] += 1
            if board.can_claim_fifty_moves():
                seen["fifty"] += 1
        positions += 1
        outcome = board.outcome()
        if outcome is not None:
            seen[outcome.termination.name] += 1
    return seen, positions


def test_generated_games_cover_the_rules() -> None:
    """The random games reach every rule the lockstep tests mean to check."""
    seen, positions = _collect_coverage()
    assert positions >= 3000, positions
    wanted = [
        "promote-q",
        "promote-r",
        "promote-b",
        "promote-n",
        "en-passant",
        "O-O-w",
        "O-O-b",
        "O-O-O-w",
        "O-O-O-b",
        "check",
        "threefold",
        "fifty",
        "CHECKMATE",
        "STALEMATE",
        "INSUFFICIENT_MATERIAL",
        "SEVENTYFIVE_MOVES",
        "FIVEFOLD_REPETITION",
    ]
    missing = [name for name in wanted if seen[name] == 0]
    assert not missing, (missing, seen)
