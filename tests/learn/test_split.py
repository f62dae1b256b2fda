"""The validation split holds out whole games: game boundaries recovered, no game on both sides."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import numpy as np
import pytest

from plies.learn.lines import OK, read_records
from plies.learn.split import NO_PLY, game_ids, split_rows
from plies.learn.train.loader import read_dataset
from plies.learn.tune.dataset import build_features, read_positions

RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5", "*": "0.5"}


def _random_games(n_games: int, seed: int) -> list[list[str]]:
    """Lines (``FEN | score | result``) of random games, some positions left out as datagen does."""
    rng = random.Random(seed)
    games = []
    for _ in range(n_games):
        board = chess.Board()
        fens = []
        for _ in range(rng.randint(30, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over(claim_draw=False):
                break
            board.push(rng.choice(moves))
            # Opening plies are skipped and some positions filtered, like datagen's filters.
            if board.ply() >= 8 and rng.random() < 0.7:
                fens.append(board.fen())
        if not fens:
            fens.append(board.fen())
        result = RESULTS[board.result(claim_draw=True)] if board.is_game_over() else rng.choice(
            ["1.0", "0.5", "0.0"]
        )
        games.append([f"{fen} | {rng.randint(-300, 300)} | {result}" for fen in fens])
    return games


def _truth(games: list[list[str]]) -> np.ndarray:
    """The game number of every line, as written."""
    return np.concatenate([np.full(len(g), i) for i, g in enumerate(games)])


def test_ply_number_from_the_fen() -> None:
    """Move number and side give the ply; FENs without a usable move number give NO_PLY."""
    tails = {"b - - 3 40": 79, "w - - 0 1": 0, "w - -": NO_PLY, "w - - 0 0": NO_PLY,
             "w - - 0 x": NO_PLY, "w - - 0 \u00b2": NO_PLY, "w - - 0 999999": 1999996,
             "w - - 0 " + "9" * 30: NO_PLY}  # fmt: skip
    text = "".join(f"4k3/8/8/8/8/8/8/4K3 {tail} | 0.5\n" for tail in tails)
    records, status = read_records(np.frombuffer(text.encode(), dtype=np.uint8))
    assert (status == OK).all()
    assert records.plies().tolist() == list(tails.values())


def test_crafted_move_numbers_read_alike_in_both_readers(tmp_path: Path) -> None:
    """Odd or huge move numbers neither crash a reader nor make the two disagree."""
    lines = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 " + number + " | 0 | 0.5"
        for number in ("1", "0", "-3", "\u00b2", "9" * 30, "123456", "1234567", "12a")
    ]
    lines.append("4k3/8/8/8/8/8/8/4K3 b - - 0 | 0 | 0.5")
    path = tmp_path / "odd.txt"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    data, report = read_dataset(path)
    assert report.bad == 0
    positions = read_positions([path])
    assert positions.bad == 0
    assert data.ply.tolist() == positions.plies
    assert positions.plies == [0, NO_PLY, NO_PLY, NO_PLY, NO_PLY, 246910, NO_PLY, NO_PLY, NO_PLY]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_both_readers_recover_the_games_of_a_file(tmp_path: Path, seed: int) -> None:
    """Random games written one after another: both readers number the rows by game exactly."""
    games = _random_games(60, seed)
    path = tmp_path / "games.txt"
    path.write_text("".join(line + "\n" for g in games for line in g))
    truth = _truth(games)
    data, report = read_dataset(path)
    assert report.bad == 0 and len(data) == len(truth)
    assert np.array_equal(data.games(), truth)
    features, bad = build_features(read_positions([path]))
    assert bad == 0
    assert np.array_equal(features.games, truth)


def test_two_files_never_share_a_game(tmp_path: Path) -> None:
    """The same game in two files is two games: the file is part of what tells them apart."""
    game = _random_games(1, 7)[0]
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for path in paths:
        path.write_text("".join(line + "\n" for line in game))
    features, _ = build_features(read_positions(paths))
    assert np.array_equal(features.games, np.repeat([0, 1], len(game)))


def test_without_move_numbers_result_and_pieces_still_split() -> None:
    """Four-field FENs: a new game where the result changes or pieces reappear."""
    ply = np.full(6, NO_PLY)
    result = np.array([1.0, 1.0, 0.5, 0.5, 0.5, 0.5])
    pieces = np.array([30, 28, 28, 20, 32, 31])
    source = np.zeros(6, dtype=np.int64)
    assert game_ids(ply, result, pieces, source).tolist() == [0, 0, 1, 1, 2, 2]


def test_a_ply_that_does_not_advance_starts_a_game() -> None:
    """Same result, no piece back: the move number alone tells the games apart."""
    ply = np.array([30, 31, 33, 12, 13, NO_PLY, 14])
    result = np.full(7, 0.5)
    pieces = np.full(7, 20)
    source = np.zeros(7, dtype=np.int64)
    assert game_ids(ply, result, pieces, source).tolist() == [0, 0, 0, 1, 1, 1, 1]


def test_split_holds_out_whole_games() -> None:
    """Every game lies on one side; about the asked share of games is held out; seeded."""
    rng = np.random.default_rng(5)
    games = np.repeat(np.arange(400), rng.integers(1, 120, 400))
    valid, train = split_rows(games, 0.1, seed=11)
    assert sorted(np.concatenate([valid, train]).tolist()) == list(range(len(games)))
    assert np.all(np.diff(valid) > 0)
    assert not set(games[valid]) & set(games[train])
    assert len(set(games[valid].tolist())) == 40
    again_valid, again_train = split_rows(games, 0.1, seed=11)
    assert np.array_equal(valid, again_valid) and np.array_equal(train, again_train)
    other, _ = split_rows(games, 0.1, seed=12)
    assert not np.array_equal(valid, other)


def test_split_keeps_a_game_to_train_on() -> None:
    """A tiny file: at least one game held out when asked, and at least one left to train on."""
    games = np.array([0, 0, 0, 1, 1])
    valid, train = split_rows(games, 0.9, seed=0)
    assert len(valid) and len(train)
    valid, train = split_rows(games, 0.0, seed=0)
    assert len(valid) == 0 and len(train) == 5
