"""Feature indices against python-chess, and the side-to-move symmetry of the features."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np

from plies.learn.train.features import OTHER_OFFSET, feature_index, flip_perspective
from plies.learn.train.loader import parse_buffer, read_dataset

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"


def _chess_features(board: chess.Board, perspective: chess.Color) -> list[int]:
    """The spec's indices of every piece in ``perspective``, computed with python-chess."""
    out = []
    for square, piece in board.piece_map().items():
        own = piece.color == perspective
        # python-chess squares are a1 = 0 .. h8 = 63; Black's view flips the ranks.
        seen = square if perspective == chess.WHITE else chess.square_mirror(square)
        out.append((0 if own else 384) + (piece.piece_type - 1) * 64 + seen)
    return sorted(out)


def _rows(fens: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(features, stm) of ``fens`` parsed by the trainer's loader."""
    text = "".join(f"{fen} | 0 | 0.5\n" for fen in fens).encode()
    data, status = parse_buffer(np.frombuffer(text, dtype=np.uint8))
    assert (status == 0).all()
    return data.features, data.stm


def _perspectives(row: np.ndarray, side: int) -> tuple[list[int], list[int]]:
    """(side to move's, other's) sorted indices of one loaded row, as the kernels form them."""
    pieces = [int(f) for f in row if f >= 0]
    own = [f if side == 0 else flip_perspective(f) for f in pieces]
    return sorted(own), sorted(flip_perspective(f) for f in own)


def test_feature_index_matches_the_spec_formula() -> None:
    """A few hand-worked indices: own white pawn e2, black's own king e8, the other side."""
    assert feature_index(0, 0, 1, chess.E2) == 12
    assert feature_index(1, 1, 6, chess.E8) == 5 * 64 + chess.E1
    assert feature_index(0, 1, 5, chess.D8) == 384 + 4 * 64 + chess.D8
    assert feature_index(1, 0, 2, chess.B1) == 384 + 64 + chess.B8


def test_flip_is_the_other_perspective() -> None:
    """flip(index(WHITE, c, k, s)) == index(BLACK, c, k, s) for every piece, and back."""
    for color in (0, 1):
        for kind in range(1, 7):
            for square in range(64):
                white = feature_index(0, color, kind, square)
                black = feature_index(1, color, kind, square)
                assert flip_perspective(white) == black
                assert flip_perspective(black) == white
    assert OTHER_OFFSET == 384


def test_loaded_features_match_python_chess() -> None:
    """Every sample position: both perspectives' index sets equal python-chess's."""
    data, report = read_dataset(SAMPLE)
    assert report.bad == 0 and len(data) > 1900
    text = SAMPLE.read_bytes()
    for i in range(len(data)):
        start = int(data.offset[i])
        fen = text[start : text.index(b"|", start)].decode().strip()
        board = chess.Board(fen)
        stm = board.turn
        own, other = _perspectives(data.features[i], int(data.stm[i]))
        assert own == _chess_features(board, stm), fen
        assert other == _chess_features(board, not stm), fen
        assert int(data.stm[i]) == (0 if stm == chess.WHITE else 1)


def test_colour_mirror_gives_the_same_features() -> None:
    """A position and its colour mirror (ranks flipped, colours and side swapped) present
    the same features to the side to move and to the other side."""
    data, _ = read_dataset(SAMPLE)
    text = SAMPLE.read_bytes()
    fens = []
    for i in range(0, len(data), 7):
        start = int(data.offset[i])
        fens.append(text[start : text.index(b"|", start)].decode().strip())
    mirrored = [chess.Board(f).mirror().fen() for f in fens]
    rows, stm = _rows(fens)
    mrows, mstm = _rows(mirrored)
    assert (stm != mstm).all()
    for i in range(len(fens)):
        assert _perspectives(rows[i], int(stm[i])) == _perspectives(mrows[i], int(mstm[i]))
