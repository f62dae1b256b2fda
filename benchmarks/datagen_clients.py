"""Datagen throughput with plies's UCI client beside python-chess's, measured in one run.

Plays the same seeded datagen games (Stockfish at a fixed depth, as
``plies datagen --player uci:/usr/games/stockfish --depth 7 --scores`` does)
once through python-chess's ``chess.engine`` (a small player below) and once
through :class:`plies.agents.uci_engine.UciEngine`, alternating ``--repeat``
times, and prints the training positions per CPU second (this process, its
threads and the engine), best of the repeats, with the ratio.  CPU time, not
wall time, so a busy machine does not blur the comparison; both runs must write
the same lines, or the script says so and exits 1.

Usage: python benchmarks/datagen_clients.py [--games N] [--depth D] [--repeat N] [--engine PATH]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import chess
import chess.engine

from harness import STOCKFISH, children_cpu, clocked, in_turn, machine_line
from plies.agents.player import Player
from plies.agents.spec import parse_player
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, play_datagen_game


class PythonChessClient(Player):
    """The same engine through python-chess's client (its asyncio loop and info parsing)."""

    def __init__(self, command: list[str]) -> None:
        """Start the engine."""
        self.name = "python-chess"
        self.engine = chess.engine.SimpleEngine.popen_uci(command)
        self._game = object()

    def new_game(self, seed: int | None = None) -> None:
        """A new game: python-chess sends ``ucinewgame`` with the next search."""
        self._game = object()

    def play(self, board: Board, limit: Limit) -> Info:
        """The engine's move and its last score and depth (asked on a python-chess board
        with the game's moves, as python-chess's client needs)."""
        position = chess.Board(board.root().fen(), chess960=board.chess960)
        for move in board.move_stack:
            position.push(move)
        result = self.engine.play(position,
                                  chess.engine.Limit(depth=limit.depth, nodes=limit.nodes),
                                  game=self._game, info=chess.engine.INFO_SCORE)
        return Info(move=result.move, score=result.info.get("score"),
                    depth=result.info.get("depth", 0))

    def close(self) -> None:
        """Quit the engine."""
        self.engine.quit()


@dataclass(frozen=True)
class Rate:
    """One client's run: the lines written and the CPU seconds of this process and the engine."""

    lines: list[str]
    own: float
    engine: float

    @property
    def per_cpu_second(self) -> float:
        """Training positions per CPU second (client and engine together)."""
        return len(self.lines) / (self.own + self.engine)


def run(settings: DatagenSettings, games: range, pipes: bool) -> Rate:
    """Play the games through one client and say what it cost."""
    spec = parse_player(settings.player)
    player = spec.create() if pipes else PythonChessClient(list(spec.command))
    engine_before = children_cpu()

    def play() -> list[str]:
        """Every game's position lines."""
        lines: list[str] = []
        for number in games:
            record = play_datagen_game(settings, number, player, player)
            lines += position_lines(record, settings.skip_plies, settings.scores)
        return lines

    try:
        played = clocked(play)
    finally:
        player.close()  # the engine's CPU counts once it has exited
    rate = Rate(played.value, played.cpu, children_cpu() - engine_before)
    print(f"{'plies' if pipes else 'python-chess':>12}: {len(rate.lines)} positions, client "
          f"{rate.own:.2f} CPU s, engine {rate.engine:.2f} CPU s, "
          f"{rate.per_cpu_second:.1f} positions per CPU s", flush=True)
    return rate


def main() -> int:
    """Measure both clients and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--engine", default=STOCKFISH)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    settings = DatagenSettings(
        player=f"uci:{args.engine}", nodes=None, depth=args.depth, seed=args.seed, scores=True
    )
    games = range(1, args.games + 1)
    chess_client, pipes = in_turn([lambda: run(settings, games, False),
                                   lambda: run(settings, games, True)], args.repeat)
    reference = chess_client.results[0].lines
    if any(r.lines != reference for r in chess_client.results + pipes.results):
        print("the two clients wrote different lines", file=sys.stderr)
        return 1
    ours = pipes.timing(lambda r: r.per_cpu_second, highest=True)
    peer = chess_client.timing(lambda r: r.per_cpu_second, highest=True)
    print(f"best of {args.repeat}: plies {ours.best:.1f}, python-chess {peer.best:.1f} "
          f"positions per CPU s, ratio {ours.best / peer.best:.2f} (load {ours.load:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
