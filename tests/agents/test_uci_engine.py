"""The UCI client: the same moves and reports as python-chess's client, typed scores (a mate in
3 is Mate(3)), Chess960, checked options, and every fault named."""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

import chess
import chess.engine
import pytest
from tests.waiting import HANG_S, wait_until

from plies.agents.player import Player, PlayerError
from plies.agents.registry import make_player
from plies.agents.spec import parse_player
from plies.agents.uci_engine import UciEngine, UciOption, go_command, read_info, variant_refusal
from plies.arena.openings import Opening
from plies.arena.referee import GameSettings, play_game
from plies.board import Board
from plies.engine.limits import Limit
from plies.engine.score import Cp, Mate

TOY = [sys.executable, str(Path(__file__).parents[1] / "arena" / "toy_uci.py")]
STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None
)
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")

MATE_IN_3_WHITE = "1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 1"
MATE_IN_3_BLACK = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1"

# A UCI engine that finds a mate in 3 in every position, for the client's reading of it.
MATE_ENGINE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name MateIn3")
        print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info depth 4 seldepth 6 score cp 250 nodes 900 pv b4b3")
        print("info depth 5 seldepth 7 multipv 1 score mate 3 nodes 1200 nps 60000 time 20 "
              "pv c5a6 b8a8 b5c6")
        print("info depth 5 multipv 2 score cp 10 pv a2a1")
        print("bestmove c5a6 ponder b8a8", flush=True)
    elif word == "quit":
        break
"""


def test_read_info_merges_as_python_chess_does() -> None:
    """Each field from the last line of the best line giving it; scores typed, pv moves."""
    lines = [
        "info depth 1 seldepth 1 score cp 12 nodes 20 pv e2e4",
        "info depth 2 seldepth 3 score cp -40 upperbound nodes 90 nps 900 time 100 pv d2d4 d7d5",
        "info depth 3 currmove e2e4 currmovenumber 1",
        "info depth 3 multipv 2 score cp -90 pv g1f3",
        "info string score cp 999 is only text",
        "bestmove d2d4",
    ]
    info = read_info(lines, white=True)
    assert info.score is not None and info.score.relative == Cp(-40)
    assert (info.depth, info.seldepth, info.nodes, info.nps, info.time_ms, info.bound) == (
        3, 3, 90, 900, 100, "upperbound")
    assert info.pv == [chess.Move.from_uci("d2d4"), chess.Move.from_uci("d7d5")]
    mate = read_info(["info depth 9 score mate 3 wdl 1000 0 0 pv a1a8"], white=False)
    assert mate.score is not None and mate.score.relative == Mate(3)
    assert mate.score.white() == Mate(-3) and mate.wdl == (1000, 0, 0)
    mated = read_info(["info depth 9 score mate -2 pv a1a2"], True).score
    assert mated is not None and mated.relative == Mate(-2)
    assert read_info(["info nodes 5 string score cp 3"], True).score is None
    assert read_info(["info depth x score cp y"], True) == read_info([], True)


def test_go_command_spells_each_limit() -> None:
    """Depth, nodes, move time, mate, infinite and both clocks, as the Limit gives them."""
    assert go_command(Limit(depth=7)) == "go depth 7"
    assert go_command(Limit(nodes=500, movetime=30)) == "go nodes 500 movetime 30"
    assert go_command(Limit(mate=3)) == "go mate 3"
    assert go_command(Limit(infinite=True)) == "go infinite"
    clocks = Limit(wtime=1200, btime=900, winc=10, binc=10, movestogo=5)
    assert go_command(clocks) == "go wtime 1200 btime 900 winc 10 binc 10 movestogo 5"
    flagging = Limit(wtime=0, btime=900)
    assert go_command(flagging) == "go wtime 0 btime 900 winc 0 binc 0"


def test_options_are_read_and_values_checked() -> None:
    """Spins within their bounds, checks true or false, combos one of their choices."""
    spin = UciOption.parse("option name Hash type spin default 16 min 1 max 33554432")
    assert spin == UciOption("Hash", "spin", "16", 1, 33554432)
    assert spin.value("64") == "64"
    with pytest.raises(ValueError, match=r"1\.\.33554432"):
        spin.value("0")
    with pytest.raises(ValueError, match="is a number"):
        spin.value("lots")
    combo = UciOption.parse("option name Style type combo default Normal var Solid var "
                            "Normal var Risky Play")
    assert combo is not None and combo.choices == ("Solid", "Normal", "Risky Play")
    assert combo.value("risky play") == "Risky Play"
    with pytest.raises(ValueError, match="one of"):
        combo.value("wild")
    check = UciOption.parse("option name Ponder type check default false")
    assert check is not None and check.value("True") == "true"
    named = UciOption.parse("option name Syzygy Path type string default <empty>")
    assert named is not None and named.name == "Syzygy Path"
    assert UciOption.parse("option name") is None


def _mate_engine(tmp_path: Path) -> UciEngine:
    """The fake engine that always sees a mate in 3."""
    script = tmp_path / "mate_engine.py"
    script.write_text(MATE_ENGINE, encoding="utf-8")
    return UciEngine("mate", [sys.executable, str(script)], {})


def test_a_mate_in_3_comes_out_as_mate_3(tmp_path: Path) -> None:
    """``score mate 3`` is Mate(3) from the mover's side, never a number of centipawns."""
    engine = _mate_engine(tmp_path)
    assert isinstance(engine, Player)
    reported = []
    try:
        engine.new_game(1)
        info = engine.play(Board(MATE_IN_3_WHITE), Limit(depth=5))
        assert info.score is not None and info.score.relative == Mate(3)
        assert info.score.white() == Mate(3) and info.depth == 5 and info.seldepth == 7
        assert (info.move, info.ponder) == (chess.Move.from_uci("c5a6"),
                                             chess.Move.from_uci("b8a8"))
        assert engine.last == info
        engine.on_info = reported.append
        black = engine.play(Board(MATE_IN_3_BLACK), Limit(depth=5))
        assert black.score is not None and black.score.relative == Mate(3)
        assert black.score.white() == Mate(-3)
    finally:
        engine.close()
    assert [r.score.relative for r in reported if r.score is not None] == [Cp(250), Mate(3)]


@needs_stockfish
def test_stockfish_mate_in_3_is_mate_3() -> None:
    """A real engine's mate in 3 for either side reads as Mate(3) for the side to move."""
    assert STOCKFISH is not None
    engine = UciEngine("sf", [STOCKFISH], {})
    try:
        engine.new_game(1)
        for fen in (MATE_IN_3_WHITE, MATE_IN_3_BLACK):
            info = engine.play(Board(fen), Limit(mate=3))
            assert info.score is not None and info.score.relative == Mate(3), fen
    finally:
        engine.close()


@needs_stockfish
def test_same_moves_and_scores_as_python_chess() -> None:
    """Stockfish at a fixed depth answers each position of a game as through python-chess."""
    assert STOCKFISH is not None
    ours = UciEngine("sf", [STOCKFISH], {"Threads": "1"})
    theirs = chess.engine.SimpleEngine.popen_uci([STOCKFISH])
    try:
        ours.new_game(1)
        game = object()
        board = chess.Board()
        for _ in range(12):
            info = ours.play(board, Limit(depth=6))  # type: ignore[arg-type]
            result = theirs.play(board, chess.engine.Limit(depth=6), game=game,
                                 info=chess.engine.INFO_ALL)
            assert (info.move, info.score, info.depth) == (
                result.move, result.info["score"], result.info["depth"])
            assert info.pv == result.info["pv"]
            board.push(info.move)
    finally:
        ours.close()
        theirs.quit()


@needs_stockfish
def test_stop_from_another_thread_returns_the_best_move_so_far() -> None:
    """An infinite search ends with a move when stopped; the engine stays healthy."""
    assert STOCKFISH is not None
    engine = UciEngine("sf", [STOCKFISH], {})
    try:
        engine.new_game(None)
        timer = threading.Timer(0.3, engine.stop)
        timer.start()
        info = engine.play(Board(), Limit(infinite=True))
        assert info.move in chess.Board().legal_moves and engine.healthy
    finally:
        engine.close()


@needs_stockfish
def test_chess960_is_set_and_castling_is_king_takes_rook() -> None:
    """The engine is told UCI_Chess960 and answers the castling mate as king takes rook."""
    assert STOCKFISH is not None
    player = parse_player(f"uci:{STOCKFISH}").create()
    try:
        assert variant_refusal(player, True) is None
        player.new_game(1)
        board = chess.Board("2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1", chess960=True)
        info = player.play(board, Limit(depth=4))  # type: ignore[arg-type]
        assert info.move == chess.Move.from_uci("b1a1")
        assert player.play(Board(), Limit(depth=2)).move in chess.Board().legal_moves
    finally:
        player.close()


def test_engine_without_uci_chess960_is_refused_for_chess960() -> None:
    """The match says so before any game; a game asked anyway fails to start."""
    toy = UciEngine("toy", TOY, {})
    try:
        assert variant_refusal(toy, False) is None
        assert "does not support Chess960" in (variant_refusal(toy, True) or "")
        with pytest.raises(PlayerError, match="does not support Chess960"):
            toy.play(Board.from_chess960_pos(7), Limit(depth=1))
    finally:
        toy.close()
    assert variant_refusal(make_player("random"), True) is None


def _toy(mode: str = "none", after: int = 0) -> UciEngine:
    """The toy engine, misbehaving in ``mode`` after ``after`` moves."""
    return UciEngine("toy", TOY, {"Mode": mode, "After": str(after)})


def test_toy_game_and_its_faults() -> None:
    """A whole game; a crash, an illegal reply and a null move each cost the game, named."""
    good = _toy()
    assert good.engine_name == "ToyUCI"
    opening = Opening(chess.STARTING_FEN, ("e2e4",), "test")
    # A depth, not a move time: a move time would also set each move's timeout to about a
    # second, which a busy machine may miss.
    settings = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S)
    try:
        record = play_game(good, good, opening, settings, seed=1)
        assert record.finished and record.moves
        first = record.moves[0].score
        assert first is not None and first.relative == Cp(0)
        faults = (("crash", "crashed"), ("illegal", "illegal move: unreadable move 'a1a1'"),
                  ("null", "illegal move: no move"))  # fmt: skip
        for mode, words in faults:
            bad = _toy(mode, after=2)
            try:
                record = play_game(good, bad, opening, settings, seed=1)
            finally:
                bad.close()
            assert record.result == "1-0" and words in record.reason, record.reason
            assert len(record.moves) == 4  # after e4, two moves each, then Black fails
    finally:
        good.close()


def test_hang_times_out_and_the_next_game_restarts_the_engine() -> None:
    """No reply within the timeout is a hang; the killed engine starts again for a new game."""
    player = _toy("hang", after=1)
    board = Board()
    # A move that comes is given all the time a hang needs; the hung one only half a second
    # (it never comes, so no machine meets that timeout).
    limit = Limit(movetime=5)
    try:
        player.new_game(None)
        board.push(player.play_within(board, limit, HANG_S).move or chess.Move.null())
        with pytest.raises(PlayerError) as caught:
            player.play_within(board, limit, 0.5)
        assert caught.value.kind == "hang"
        assert not player.healthy
        with pytest.raises(PlayerError) as crashed:
            player.play_within(board, limit, HANG_S)
        assert crashed.value.kind == "crash"
        player.new_game(None)
        assert player.healthy
        assert player.play_within(board, limit, HANG_S).move in board.legal_moves
    finally:
        player.close()


@pytest.mark.parametrize(("ending", "kind"), [("stop", "hang"), ("abandon", "crash")])
def test_stop_or_abandon_from_another_thread_ends_a_hung_engine(ending: str, kind: str) -> None:
    """An engine that does not answer ``stop`` is killed (a hang); ``abandon`` kills it
    outright (the move then fails as a crash): either way a move waiting without a timeout
    ends."""
    player = _toy("hang")
    player.new_game(None)
    timer = threading.Timer(0.3, getattr(player, ending))
    timer.start()
    try:
        with pytest.raises(PlayerError) as caught:
            player.play(Board(), Limit(depth=1))  # ends only by the stop or the abandon
        assert caught.value.kind == kind and not player.healthy
    finally:
        timer.cancel()
        player.close()


def test_start_failures_are_one_line_player_errors(tmp_path: Path) -> None:
    """A missing program, an unknown option, a bad value and a program that is not an engine."""
    with pytest.raises(PlayerError, match="did not start") as missing:
        UciEngine("nothing", [str(tmp_path / "no-such-engine")], {})
    assert missing.value.kind == "start"
    with pytest.raises(PlayerError, match="no option 'Colour'"):
        UciEngine("toy", TOY, {"Colour": "blue"})
    with pytest.raises(PlayerError, match=r"'After' is 0\.\.1000, not 5000"):
        UciEngine("toy", TOY, {"After": "5000"})
    with pytest.raises(PlayerError, match="'Mode' is one of none"):
        UciEngine("toy", TOY, {"Mode": "sulk"})
    with pytest.raises(PlayerError, match="did not start"):
        UciEngine("false", ["/bin/false"], {})


def test_engine_killed_between_games_is_a_start_failure() -> None:
    """A process that died since the last game fails the next start; the one after works."""
    player = _toy()
    try:
        player.new_game(None)
        assert player._process is not None and player._process.process is not None
        process = player._process.process
        process.kill()
        wait_until(lambda: process.poll() is not None, "the engine died")
        with pytest.raises(PlayerError) as info:
            player.new_game(None)
        assert info.value.kind == "start"
        assert not player.healthy
        player.new_game(None)  # a fresh process replaces the dead one
        assert player.healthy
    finally:
        player.close()


def test_close_leaves_no_process() -> None:
    """``close`` after a normal ``quit`` and after a hang both end the process."""
    for mode in ("none", "hang"):
        player = _toy(mode)
        assert player._process is not None
        process = player._process.process
        assert process is not None
        if mode == "hang":
            with pytest.raises(PlayerError):
                player.play_within(Board(), Limit(depth=1), 0.2)
        player.close()
        assert process.poll() is not None
