"""Seeded fuzzing of ``plies uci`` as a real subprocess: it never dies and never loses its place.

A generator sends a few hundred random commands: positions (legal, with an
illegal move inside, broken FENs), searches with every kind of limit, extra
commands, out-of-range and negative numbers, junk bytes, invalid UTF-8, an
overlong line, and commands sent while a search runs.  python-chess keeps the
position plies must be in (the last legal one); every few commands the test
checks that the process is alive, answers ``isready`` promptly, shows that
position with ``d`` and, after ``go``, plays a legal move in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import chess
from tests.uci.conftest import REPLY_TIMEOUT_S, RawUci

SEED = 2026
STEPS = 160

_JUNK_WORDS = (
    "go depth 99999999999999999999999999", "go depth 0", "go depth -5", "go depth 128",
    "go nodes -1", "go movetime -10", "go wtime 3000000000", "go winc 99999999999",
    "go mate 0", "go movestogo -2", "go depth", "go depth x", "go nodes 1e9",
    "perft 0", "perft 13", "perft -1", "go perft 99", "bench 0", "bench 65", "bench -3",
    "setoption name Hash value 0", "setoption name Hash value 99999999999999999999999",
    "setoption name Threads value 1000", "setoption name Threads value -1",
    "setoption name Move Overhead value 5001", "setoption name Nope value 1",
    "setoption name Hash", "setoption", "position", "position fen", "position moves e2e4",
    "ponderhit", "stop", "register later", "debug on", "debug off", "help", "eval",
    "xyzzy", "isready now", "uci extra", "d d d",
)  # fmt: skip

_BROKEN_FENS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # seven ranks
    "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # bad piece letter
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # nine files
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  # bad side
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",  # bad en passant square
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",  # bad clock
    "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
)


class Fuzzer:
    """Drives one process and keeps the position it must be in."""

    def __init__(self, uci: RawUci, rng: random.Random) -> None:
        """Start from the start position."""
        self.uci = uci
        self.rng = rng
        self.board = chess.Board()
        self.commands = 0

    # -- generators -------------------------------------------------------------

    def random_game(self, plies: int) -> chess.Board:
        """A position after ``plies`` random legal moves (fewer if the game ends)."""
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(self.rng.choice(moves))
        return board

    def position_moves(self) -> None:
        """``position startpos moves ...``, sometimes with an illegal move inside."""
        game = self.random_game(self.rng.randrange(0, 40))
        moves = [m.uci() for m in game.move_stack]
        expected = game.copy()
        if moves and self.rng.random() < 0.4:
            cut = self.rng.randrange(len(moves))
            bad = self.rng.choice(["e1e8", "a1a1", "zz99", "e2e4e", "h7h8q", "0000", "é"])
            board = chess.Board()
            for m in moves[:cut]:
                board.push_uci(m)
            if not self._legal_text(board, bad):
                moves.insert(cut, bad)
                expected = board
        self.send("position startpos moves " + " ".join(moves))
        self.board = expected

    def position_fen(self) -> None:
        """``position fen``: a real position (and moves), or a broken FEN that changes nothing."""
        if self.rng.random() < 0.5:
            self.send("position fen " + self.rng.choice(_BROKEN_FENS))
            return
        game = self.random_game(self.rng.randrange(0, 60))
        start = chess.Board(game.fen())
        after = start.copy()
        moves = []
        for _ in range(self.rng.randrange(0, 4)):
            legal = list(after.legal_moves)
            if not legal:
                break
            move = self.rng.choice(legal)
            after.push(move)
            moves.append(move.uci())
        tail = (" moves " + " ".join(moves)) if moves else ""
        self.send(f"position fen {start.fen()}{tail}")
        self.board = after

    def junk(self) -> None:
        """A junk line: random bytes, invalid UTF-8, an out-of-range number or a bad command."""
        roll = self.rng.random()
        if roll < 0.4:
            data = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 80)))
            self.uci.send_bytes(data.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n")
        elif roll < 0.45:
            self.uci.send_bytes(b"go depth " + b"9" * 70_000 + b"\n")  # past the line cap
        else:
            self.send(self.rng.choice(_JUNK_WORDS))
        self.commands += 1

    # -- checks -----------------------------------------------------------------

    def send(self, *lines: str) -> None:
        """Send lines, counting them."""
        self.uci.send(*lines)
        self.commands += len(lines)

    def alive_and_ready(self) -> None:
        """The process lives and answers ``isready`` promptly."""
        assert self.uci.proc.poll() is None, f"plies uci died after {self.commands} commands"
        self.send("isready")
        self.uci.expect("readyok")

    def check_position(self) -> None:
        """``d`` shows the expected position."""
        self.send("d")
        lines = self.uci.expect("Fen:")
        shown = lines[-1].split(":", 1)[1].split()
        assert shown[:4] == self.board.fen().split()[:4], f"after {self.commands} commands"

    def check_search(self) -> None:
        """A short search plays a legal move of the expected position (or 0000 if none)."""
        line = self.rng.choice(["go depth 1", "go depth 2", "go nodes 2000", "go movetime 20",
                                "go wtime 50 btime 50 winc 1 binc 1", "go wtime -20 btime 5"])
        self.send(line)
        self._expect_legal_bestmove(self.board)

    def search_under_fire(self) -> None:
        """``go infinite``, commands during it, ``stop``: a legal move for the old position."""
        root = self.board.copy()
        self.send("go infinite")
        for _ in range(self.rng.randrange(1, 5)):
            roll = self.rng.random()
            if roll < 0.3:
                self.junk()
            elif roll < 0.6:
                self.position_moves()  # applies to the next search, not this one
            else:
                self.send("isready")
                self.uci.expect("readyok")
        self.send("stop")
        self._expect_legal_bestmove(root)

    def check_perft(self) -> None:
        """``go perft 2`` counts what python-chess counts, or a long perft that stop ends."""
        if self.rng.random() < 0.5:
            self.send("go perft 2")
            lines = self.uci.expect("Nodes searched:")
            count = int(lines[-1].split(":")[1])
            assert count == sum(1 for _ in _leaves(self.board, 2)), f"at {self.board.fen()}"
        else:
            self.send("go perft 9", "isready")
            self.uci.expect("readyok")
            self.send("stop")
            self.uci.expect("Nodes searched:")

    def _expect_legal_bestmove(self, board: chess.Board) -> None:
        """Wait for ``bestmove`` and check it against ``board``."""
        line = self.uci.expect("bestmove")[-1]
        text = line.split()[1]
        if not any(board.legal_moves):
            assert text == "0000"
            return
        assert chess.Move.from_uci(text) in board.legal_moves, f"{line} in {board.fen()}"

    @staticmethod
    def _legal_text(board: chess.Board, text: str) -> bool:
        """Whether ``text`` is a legal UCI move in ``board``."""
        try:
            return chess.Move.from_uci(text) in board.legal_moves
        except ValueError:
            return False


def _leaves(board: chess.Board, depth: int) -> Iterator[None]:
    """One item per leaf of the legal move tree."""
    if depth == 0:
        yield None
        return
    for move in list(board.legal_moves):
        board.push(move)
        yield from _leaves(board, depth - 1)
        board.pop()


def test_random_command_sequences(spawn_uci: Callable[[], RawUci]) -> None:
    """Random commands never kill the process, block isready or lose the position."""
    uci = spawn_uci()  # a process of its own: the fuzz leaves options changed
    uci.ready()
    fuzzer = Fuzzer(uci, random.Random(SEED))
    actions: list[tuple[float, Callable[[], None]]] = [
        (0.22, fuzzer.junk),
        (0.14, fuzzer.position_moves),
        (0.10, fuzzer.position_fen),
        (0.14, fuzzer.check_search),
        (0.08, fuzzer.search_under_fire),
        (0.06, fuzzer.check_perft),
        (0.10, fuzzer.check_position),
        (0.08, fuzzer.alive_and_ready),
        (0.08, lambda: fuzzer.send(fuzzer.rng.choice(
            ["ucinewgame", "setoption name Threads value 2", "setoption name Threads value 1",
             "setoption name Hash value 8", "setoption name Clear Hash", "eval", "stop"]))),
    ]  # fmt: skip
    weights = [w for w, _ in actions]
    for _ in range(STEPS):
        fuzzer.rng.choices(actions, weights)[0][1]()
    fuzzer.alive_and_ready()
    fuzzer.check_position()
    fuzzer.check_search()
    assert fuzzer.commands > STEPS


def test_end_of_input_mid_search_exits_cleanly(spawn_uci: Callable[[], RawUci]) -> None:
    """Closing stdin during an infinite search: bestmove still printed, exit status 0."""
    uci = spawn_uci()
    uci.ready()
    uci.send("go infinite")
    uci.expect("info depth 1")
    assert uci.proc.stdin is not None
    uci.proc.stdin.close()
    uci.expect("bestmove")
    assert uci.proc.wait(REPLY_TIMEOUT_S) == 0
