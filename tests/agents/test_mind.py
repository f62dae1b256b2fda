"""The mind protocol: FEN in, "from,to" out, for every ladder player, in process and over
pipes."""

from __future__ import annotations

import queue
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import chess
import pytest
from tests.waiting import HANG_S

from plies.agents import (
    AGENT_NAMES,
    FORFEIT,
    FunctionPlayer,
    Player,
    PlayerError,
    make_player,
    mind_action,
    mind_answer,
)
from plies.agents.mind import action_move, move_action, parse_action
from plies.agents.spec import parse_player
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameSettings, play_game
from plies.board import KNIGHT, QUEEN, Board, Move
from plies.engine.limits import Info, Limit

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# White to move; e8=Q (or e8=N) is the only sensible move and the engine finds it.
PROMOTION = "8/4P3/8/8/8/8/k7/7K w - - 0 1"
# Black to move, en passant on d3 is legal.
EN_PASSANT = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
CHECKMATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
PLAYABLE = (START, KIWIPETE, PROMOTION, EN_PASSANT)
BAD_LINES = (
    "",
    "   ",
    "junk",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  # no such colour
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",  # rank one square short
    "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
    "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",  # the side not to move is in check
    "4k3/8/8/8/8/8/8/4K2P w - - 0 1",  # a pawn on the first rank
)
# Small limits so that every player answers quickly.
QUICK_OPTIONS: dict[str, dict[str, str | int]] = {
    "random": {},
    "capture": {},
    "minimax": {"depth": 1},
    "alphabeta": {"depth": 2},
    "engine": {"depth": 3},
}
#: The bound on any one answer of a mind: only a hang reaches it.
ANSWER_TIMEOUT = HANG_S
MINDS = Path(__file__).resolve().parents[2] / "examples" / "minds"
#: The side to move takes the hanging queen with its rook: White Rd2xd5, then the same
#: position mirrored, Black Rd7xd4.
FREE_QUEEN = {
    chess.WHITE: ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "11,35"),
    chess.BLACK: ("4k3/3r4/8/8/3Q4/8/8/4K3 b - - 0 1", "51,27"),
}


def assert_legal_in_python_chess(fen: str, action: str) -> chess.Move:
    """The action, read as a receiver must (a queen for a promotion), is legal in python-chess."""
    board = chess.Board(fen)
    frm, to = (int(x) for x in action.split(","))
    piece = board.piece_at(frm)
    promotion = None
    if piece is not None and piece.piece_type == chess.PAWN and chess.square_rank(to) in (0, 7):
        promotion = chess.QUEEN
    move = chess.Move(frm, to, promotion)
    assert move in board.legal_moves, f"{action} ({move.uci()}) is not legal in {fen}"
    return move


def test_squares_are_numbered_from_a1_along_the_ranks() -> None:
    """a1 = 0, h1 = 7, a2 = 8, h8 = 63; e2e4 is 12,28; castling is the king's move."""
    assert move_action(Move.from_uci("e2e4")) == "12,28"
    assert move_action(Move.from_uci("a1h8")) == "0,63"
    assert move_action(Move.from_uci("e1g1")) == "4,6"
    assert move_action(Move.null()) == FORFEIT
    assert parse_action(" 12,28\n") == (12, 28)
    for bad in ("", "12", "12,28,3", "a,b", "-1,5", "12,64"):
        with pytest.raises(ValueError):
            parse_action(bad)


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_every_player_answers_a_legal_action(name: str) -> None:
    """The Python API: each ladder player answers legal actions, checked by python-chess."""
    agent = make_player(name, QUICK_OPTIONS[name], seed=3)
    for fen in PLAYABLE:
        answer = mind_answer(agent, fen)
        assert answer.error is None
        action = answer.action
        assert_legal_in_python_chess(fen, action)
        move = action_move(Board(fen), action)
        assert move is not None and move_action(move) == action
    assert mind_action(agent, START) != FORFEIT


def test_bad_lines_and_finished_games_forfeit_and_the_mind_goes_on() -> None:
    """Blank, junk and impossible FENs, checkmate and stalemate all answer "0,0", with a reason."""
    player = make_player("random", seed=1)
    for line in BAD_LINES:
        answer = mind_answer(player, line)
        assert answer.action == FORFEIT and answer.error is not None
    assert mind_answer(player, CHECKMATED).error == "no legal move (checkmate)"
    assert mind_answer(player, STALEMATE).error == "no legal move (stalemate)"
    answer = mind_answer(player, START)
    assert_legal_in_python_chess(START, answer.action)
    assert answer.error is None


def test_an_under_promotion_is_sent_as_its_squares_and_received_as_a_queen() -> None:
    """A player preferring e8=N still answers "52,60"; the receiver plays e8=Q."""
    knight = FunctionPlayer(lambda board: Move.from_uci("e7e8n"), name="knight")
    answer = mind_answer(knight, PROMOTION)
    action = answer.action
    assert action == "52,60"
    assert answer.move == Move(52, 60, KNIGHT)
    received = action_move(Board(PROMOTION), action)
    assert received == Move(52, 60, QUEEN)
    assert assert_legal_in_python_chess(PROMOTION, action).promotion == chess.QUEEN


def test_the_engine_promotes_and_the_receiver_queens() -> None:
    """A real player on a promotion position: the action is e7-e8, played as a queen."""
    action = mind_action(make_player("engine", {"depth": 4}), PROMOTION, Limit(depth=4))
    assert action == "52,60"
    assert action_move(Board(PROMOTION), action) == Move(52, 60, QUEEN)


def test_a_player_answering_an_illegal_move_forfeits() -> None:
    """A plugged-in function that answers nonsense gives "0,0", never an illegal action."""
    answer = mind_answer(FunctionPlayer(lambda board: Move.from_uci("e2e5")), START)
    assert answer.action == FORFEIT
    assert answer.error is not None and "e2e5" in answer.error


class _Faulty(Player):
    """A player that fails in the way it is told: a fault, or resigning."""

    def __init__(self, fault: str) -> None:
        """``fault``: 'crash' raises PlayerError, 'resign' gives the game up."""
        self.fault = fault

    def play(self, board: Board, limit: Limit) -> Info:
        """Fail as told."""
        if self.fault == "resign":
            return Info(resigned=True)
        raise PlayerError("crash", "it fell over")


@pytest.mark.parametrize("fault", ["crash", "resign"])
def test_a_fault_or_a_resignation_answers_the_forfeit(fault: str) -> None:
    """A player that fails or resigns answers "0,0", and says why."""
    answer = mind_answer(_Faulty(fault), START)
    assert answer.action == FORFEIT
    assert answer.error == ("resigned" if fault == "resign" else "crash: it fell over")


def test_a_function_that_leaves_the_board_moved_is_judged_where_it_was_asked() -> None:
    """A plugged-in function that pushes its move before answering still answers the
    position it was given: its move is checked against that position's legal moves."""

    def careless(board: Board) -> Move:
        """Play the first legal move on the board it was handed, and answer it."""
        move = next(iter(board.legal_moves))
        board.push(move)
        return move

    answer = mind_answer(FunctionPlayer(careless), START)
    assert_legal_in_python_chess(START, answer.action)
    assert answer.error is None


def test_action_move_rejects_what_is_not_a_legal_move() -> None:
    """A receiver refuses an action naming no legal move; "0,0" is the forfeit (None)."""
    board = Board(START)
    assert action_move(board, "0,0") is None
    with pytest.raises(ValueError, match="not a legal move"):
        action_move(board, "12,36")


@pytest.mark.parametrize("chess960", [False, True])
def test_one_rule_reads_an_action_on_either_board(chess960: bool) -> None:
    """The same action is the same move on a plies board and on a python-chess board,
    castling included (the king's two-square move, even where a board writes king takes
    rook), and a promotion a queen's."""
    fen = "r3k2r/pP6/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for action in ("4,6", "4,2", "49,56", "49,57", "4,5"):
        ours = action_move(Board(fen, chess960=chess960), action)
        theirs = action_move(chess.Board(fen, chess960=chess960), action)
        assert ours == theirs and ours is not None, action
        assert ours.promotion in (None, QUEEN)


class MindProcess:
    """A ``plies mind`` subprocess spoken to line by line, each answer read before the next."""

    def __init__(self, *args: str) -> None:
        """Start ``plies mind ARGS`` with pipes for stdin and stdout."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "plies", "mind", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Forward every line the process writes."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)

    def ask(self, line: str) -> str:
        """Send one line and wait for exactly one answer."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self._lines.get(timeout=ANSWER_TIMEOUT).rstrip("\n")
        assert self._lines.empty()
        return answer

    def finish(self) -> int:
        """Close stdin and return the exit status."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=ANSWER_TIMEOUT)


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_plies_mind_answers_line_by_line_over_pipes(name: str) -> None:
    """Interactive session: a legal action per FEN, "0,0" per bad line, then a clean exit."""
    spec = name + "".join(f":depth={v}" for v in QUICK_OPTIONS[name].values())
    mind = MindProcess("--agent", spec, "--seed", "5")
    try:
        for fen in (START, "", PROMOTION, "not a fen", KIWIPETE, CHECKMATED, EN_PASSANT):
            answer = mind.ask(fen)
            if fen in PLAYABLE:
                assert_legal_in_python_chess(fen, answer)
            else:
                assert answer == FORFEIT
        assert mind.finish() == 0
    finally:
        mind.proc.kill()


def test_plies_mind_rejects_a_bad_agent_in_one_line() -> None:
    """An unknown player or a bad option is a one-line error, status 2."""
    for args in (["--agent", "nobody"], ["--agent", "random", "--depth", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "plies", "mind", *args],
            input="", capture_output=True, text=True, timeout=ANSWER_TIMEOUT,
        )
        assert done.returncode == 2
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("agent", ["alphabeta:depth=2", str(MINDS / "minimax2.py")],
                         ids=["alphabeta", "example-minimax2"])
def test_a_mind_over_pipes_plays_for_either_colour(agent: str) -> None:
    """Over the protocol a searching mind answers for the colour to move, White or Black:
    it takes the free queen with that colour's rook."""
    mind = MindProcess("--agent", agent)
    try:
        for fen, capture in FREE_QUEEN.values():
            assert mind.ask(fen) == capture, fen
        assert mind.finish() == 0
    finally:
        mind.proc.kill()


@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK], ids=["white", "black"])
def test_a_mind_program_plays_either_colour_in_a_game(color: chess.Color) -> None:
    """A ``mind:`` player (a program speaking the protocol) seated as White or as Black
    moves its own colour's pieces and takes the free queen first."""
    command = shlex.join([sys.executable, "-m", "plies", "mind", "--agent", "alphabeta:depth=2"])
    mind = parse_player(f"mind:{command}").create()
    other = make_player("random")
    fen, capture = FREE_QUEEN[color]
    white, black = (mind, other) if color == chess.WHITE else (other, mind)
    settings = GameSettings(move_timeout_s=HANG_S, adjudication=Adjudication(max_moves=3))
    try:
        record = play_game(white, black, Opening(fen), settings, seed=1)
    finally:
        mind.close()
    assert not record.fault, record.reason
    board = chess.Board(fen)
    first = record.moves[0].move
    assert f"{first.from_square},{first.to_square}" == capture
    for played in record.moves:
        assert board.color_at(played.move.from_square) == board.turn
        board.push(played.move)
    assert len(record.moves) >= 2  # the other side answered in its turn
