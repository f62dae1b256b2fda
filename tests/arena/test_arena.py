"""The arena: scheduling, clocks, openings, results that add up, PGN round trip, bad engines."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest
from tests.waiting import HANG_S, wait_until

from plies.agents.spec import parse_player
from plies.arena.clock import Clock, TimeControl
from plies.arena.gsprt import Sprt
from plies.arena.interrupt import CtrlC
from plies.arena.match import Match, MatchResult, MatchSettings, pairings_for, schedule
from plies.arena.openings import Opening, OpeningError, load_openings, opening_schedule
from plies.arena.pgn import format_game, to_pgn
from plies.arena.referee import Adjudication, GameRecord, GameSettings, MoveRecord
from plies.engine.limits import Limit

TOY = Path(__file__).with_name("toy_uci.py")
TOY_CMD = f"{sys.executable} {TOY}"
STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None
)


def toy(name: str, mode: str = "none", after: int = 0) -> str:
    """A player spec for the toy engine misbehaving in ``mode`` after ``after`` moves."""
    return f"uci:{TOY_CMD}:Mode={mode},After={after},name={name}"


def run_match(
    players: list[str],
    games: int,
    settings: GameSettings,
    openings: list[Opening] | None = None,
    **kwargs: object,
) -> Match:
    """Play a match in-process and return it (with its result)."""
    specs = [parse_player(p) for p in players]
    book = openings or opening_schedule((games + 1) // 2, None, 2, 11)
    match = Match(specs, MatchSettings(games=games, seed=5, **kwargs), settings, book)  # type: ignore[arg-type]
    match.run()
    return match


def test_time_control_parsing() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10_000, 100, None)
    assert TimeControl.parse("40/60") == TimeControl(60_000, 0, 40)
    assert TimeControl.parse("1:30+1") == TimeControl(90_000, 1000, None)
    assert TimeControl.parse("10+0.1").pgn() == "10+0.1"
    assert TimeControl.parse("40/60+0.5").pgn() == "40/60+0.5"
    for bad in ("", "ten", "10+", "0+1", "0/10"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_clock_increments_periods_and_flags() -> None:
    clock = Clock(TimeControl(1000, 100, 2))
    assert clock.spend(0, 300) and clock.remaining(0) == 800
    assert clock.moves_to_go(0) == 1
    assert clock.spend(0, 300) and clock.remaining(0) == 600 + 1000  # new period
    assert not clock.spend(1, 1001)
    lenient = Clock(TimeControl(1000), margin_ms=50)
    assert lenient.spend(0, 1040) and lenient.remaining(0) == 0


def test_player_spec_parsing() -> None:
    spec = parse_player("alphabeta:depth=3,name=AB3")
    assert (spec.kind, spec.agent, spec.name, dict(spec.options)) == (
        "agent", "alphabeta", "AB3", {"depth": "3"})
    sf = parse_player("uci:/bin/sh:UCI_LimitStrength=true,UCI_Elo=1500")
    assert sf.kind == "uci" and sf.command == ("/bin/sh",)
    assert dict(sf.options) == {"UCI_LimitStrength": "true", "UCI_Elo": "1500"}
    assert sf.name == "sh(UCI_LimitStrength=true,UCI_Elo=1500)"
    assert parse_player("uci:/bin/sh").options == ()
    for bad, msg in (("grandmaster", "unknown player"), ("minimax:width=2", "unknown option"),
                     ("uci:/no/such/engine", "not found"), ("uci:", "needs an engine")):
        with pytest.raises(ValueError, match=msg):
            parse_player(bad)


def test_schedule_pairs_openings_and_swaps_colours() -> None:
    pairings = pairings_for(3)
    assert pairings == [(0, 1), (0, 2), (1, 2)]
    assert pairings_for(3, gauntlet=True) == [(0, 1), (0, 2)]
    books = [Opening(name=str(i)) for i in range(3)]
    tasks = schedule(pairings, 5, books, seed=1)
    assert len(tasks) == 15 and [t.round for t in tasks] == list(range(1, 16))
    for pairing in pairings:
        mine = [t for t in tasks if t.pairing == pairing]
        assert len(mine) == 5
        for k in range(2):
            a, b = mine[2 * k], mine[2 * k + 1]
            assert a.opening is b.opening and (a.white, a.black) == (b.black, b.white)
    assert len({t.seed for t in tasks}) == 15


def test_openings_from_epd_and_pgn(tmp_path: Path) -> None:
    epd = tmp_path / "book.epd"
    epd.write_text(
        "# two positions\n"
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\";\n\n"
        "4k3/8/8/8/8/8/4P3/4K3 w - -\n"
    )
    book = load_openings(epd)
    assert len(book) == 2 and book[0].name == "open"
    assert book[1].board().fen().startswith("4k3/8/8/8/8/8/4P3/4K3 w")
    pgn = tmp_path / "book.pgn"
    pgn.write_text('[Opening "Italian"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n\n'
                   '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 Kd7 *\n')
    lines = load_openings(pgn, max_plies=4)
    assert lines[0].moves == ("e2e4", "e7e5", "g1f3", "b8c6") and lines[0].name == "Italian"
    assert lines[1].fen.startswith("4k3/") and lines[1].moves == ("e2e4", "e8d7")
    bad = tmp_path / "bad.epd"
    bad.write_text("this is not a position\n")
    with pytest.raises(OpeningError, match="bad EPD"):
        load_openings(bad)
    with pytest.raises(OpeningError, match="not found"):
        load_openings(tmp_path / "missing.epd")


def test_random_openings_are_seeded_and_alive() -> None:
    a = opening_schedule(5, None, 8, seed=3)
    b = opening_schedule(5, None, 8, seed=3)
    assert a == b and len(a) == 5
    assert all(len(o.moves) == 8 and not o.board().is_game_over() for o in a)
    assert opening_schedule(2, None, None, None) == [Opening(), Opening()]


def test_results_add_up_and_pgn_reads_back(tmp_path: Path) -> None:
    settings = GameSettings(limit=Limit(depth=1), adjudication=Adjudication(max_moves=40))
    match = run_match(["random", "capture", "minimax:depth=1"], 4, settings)
    res = match.result
    assert res.played == res.scheduled == 12 and not res.interrupted
    assert all(s.games == 4 for s in res.scores.values())
    total_points = sum(s.points + s.reversed().points for s in res.scores.values())
    assert total_points == res.played
    text = "".join(format_game(to_pgn(r, time_control="-")) for r in res.records)
    handle = io.StringIO(text)
    count = 0
    by_round = {r.round: r for r in res.records}
    while (game := chess.pgn.read_game(handle)) is not None:
        count += 1
        assert not game.errors
        record = by_round[int(game.headers["Round"])]
        assert game.headers["Result"] == record.result
        assert game.headers["White"] == record.white
        assert game.end().board().fen() == record.final_fen
        assert record.reason in game.end().comment
        assert int(game.headers["PlyCount"]) == len(list(game.mainline_moves()))
    assert count == 12


def test_crashing_uci_engine_loses_and_the_match_goes_on() -> None:
    settings = GameSettings(limit=Limit(movetime=20))
    match = run_match(["random:name=steady", toy("crashy", "crash", after=3)], 4, settings)
    res = match.result
    assert res.played == 4
    assert res.scores[(0, 1)].wins == 4
    for record in res.records:
        assert "crashy" in record.reason and "crashed" in record.reason
        assert record.termination == "abandoned"
        # The crash came mid-game, after the engine had played three moves.
        mover_moves = record.moves[1 if record.white == "steady" else 0 :: 2]
        assert len(mover_moves) == 3


@pytest.mark.parametrize(
    ("mode", "words", "termination"),
    [("illegal", "illegal move", "rules infraction"), ("null", "illegal move", "rules infraction"),
     ("hang", "loses on time", "time forfeit")],
)
def test_bad_uci_engines_lose_with_the_reason(mode: str, words: str, termination: str) -> None:
    settings = GameSettings(tc=TimeControl(600, 50))
    match = run_match([toy("good"), toy("bad", mode, after=2)], 2, settings)
    res = match.result
    assert res.played == 2 and res.scores[(0, 1)].wins == 2
    for record in res.records:
        assert words in record.reason and "bad" in record.reason, record.reason
        assert record.termination == termination


def test_sprt_stops_at_a_verdict() -> None:
    settings = GameSettings(limit=Limit(movetime=20))
    match = run_match(["random", toy("crashy", "crash")], 40, settings, sprt=Sprt(0.0, 100.0))
    res = match.result
    assert res.sprt_verdict == "H1"
    assert 10 <= res.played < 40 and not res.interrupted


def test_draw_and_resign_adjudication() -> None:
    # The toy engine always reports 0.00: a draw after 3 moves each from move 1.
    settings = GameSettings(limit=Limit(movetime=20),
                            adjudication=Adjudication(draw_after=1, draw_moves=3))
    res = run_match([toy("a"), toy("b")], 2, settings).result
    assert all(r.result == "1/2-1/2" and r.termination == "adjudication" for r in res.records)
    assert all(len(r.moves) == 6 for r in res.records)


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
def test_short_match_against_stockfish(tmp_path: Path) -> None:
    # Nodes, not a clock: on a loaded machine a short clock can run out for either side.
    settings = GameSettings(limit=Limit(nodes=20_000), adjudication=Adjudication(max_moves=60))
    res = run_match(["capture", f"uci:{STOCKFISH}:Threads=1,Hash=16"], 2, settings).result
    assert res.played == 2
    assert res.scores[(0, 1)].wins == 0  # capture does not beat Stockfish
    assert all("crash" not in r.reason and "time" not in r.reason for r in res.records)


def test_seeded_matches_repeat() -> None:
    settings = GameSettings(limit=Limit(depth=1), adjudication=Adjudication(max_moves=30))
    first = run_match(["random", "capture"], 2, settings).result
    second = run_match(["random", "capture"], 2, settings).result
    moves = sorted((r.round, [m.move for m in r.moves]) for r in first.records)
    assert moves == sorted((r.round, [m.move for m in r.moves]) for r in second.records)


def test_resign_adjudication_counts_the_losing_sides_moves() -> None:
    from plies.arena.referee import _Adjudicator

    adj = _Adjudicator(Adjudication(resign_moves=2, resign_score=500))
    board = chess.Board()
    assert adj.update(board, chess.WHITE, -600) == ("", "")
    assert adj.update(board, chess.BLACK, 600) == ("", "")
    assert adj.update(board, chess.WHITE, None) == ("", "")  # no score: the count restarts
    assert adj.update(board, chess.WHITE, -600) == ("", "")
    assert adj.update(board, chess.WHITE, -900) == ("0-1", "White resigns (adjudication)")
    limit = _Adjudicator(Adjudication(max_moves=1))
    board.push_san("e4")
    board.push_san("e5")
    assert limit.update(board, chess.BLACK, None)[0] == "1/2-1/2"


def test_ctrl_c_while_a_game_is_written_keeps_count_and_file_in_step() -> None:
    """SIGINT landing inside the finished-game callback neither cuts the write nor miscounts."""
    written: list[str] = []

    def on_game(record: GameRecord, res: MatchResult) -> None:
        """Press Ctrl-C in the middle of 'writing' the first game."""
        if not written:
            os.kill(os.getpid(), signal.SIGINT)
        written.append(record.result)

    specs = [parse_player(toy("a")), parse_player(toy("b"))]
    games = 40
    match = Match(specs, MatchSettings(games=games, seed=5), GameSettings(limit=Limit(depth=1)),
                  opening_schedule(games // 2, None, 2, 11), on_game=on_game)
    before = signal.getsignal(signal.SIGINT)
    result = match.run()
    assert signal.getsignal(signal.SIGINT) is before
    assert result.interrupted
    assert 1 <= result.played == len(written) < games
    assert all(r.finished for r in result.records)


def test_ctrl_c_guard_turns_sigint_into_a_flag() -> None:
    """Inside the guard SIGINT (even twice) only sets the flag; outside it raises again."""
    before = signal.getsignal(signal.SIGINT)  # Python's, or the one `plies` installs
    with CtrlC() as ctrl_c:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        wait_until(lambda: ctrl_c.pressed, "the flag set")
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(HANG_S)  # cut short by the KeyboardInterrupt


def test_ladder_player_plays_chess960_castling_on_the_referee_board() -> None:
    """A ladder player on a Chess960 referee board answers in Chess960 notation: in a position
    where castling (king takes rook) is the only mate, a searching player plays it."""
    from plies.agents.registry import make_player
    from plies.board import Board

    player = make_player("alphabeta", {"depth": 2})
    player.new_game(1)
    board = Board("2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1", chess960=True)
    move = player.play(board.copy(), Limit()).move
    assert move == chess.Move.from_uci("b1a1")
    board.push(move)
    assert board.is_checkmate()


def test_chess960_openings_are_seeded_distinct_start_positions() -> None:
    a = opening_schedule(6, None, None, seed=5, chess960=True)
    assert a == opening_schedule(6, None, None, seed=5, chess960=True)
    assert len({o.fen for o in a}) == 6 and all(o.chess960 and not o.moves for o in a)
    for o in a:
        n = int(o.name.split("#")[1])
        assert chess.Board(o.fen, chess960=True) == chess.Board.from_chess960_pos(n)
    lines = opening_schedule(3, None, 4, seed=5, chess960=True)
    assert all(len(o.moves) == 4 and o.board().chess960 for o in lines)
    assert [o.fen for o in lines] == [o.fen for o in a[:3]]


def test_chess960_pgn_has_variant_fen_and_setup_and_reads_back() -> None:
    opening = Opening(chess.Board.from_chess960_pos(518).fen(), (), "Chess960 #518", True)
    board = opening.board()
    record = GameRecord("a", "b", opening, result="1/2-1/2", termination="normal")
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1h1"):
        move = chess.Move.from_uci(uci)
        board.push(move)
        record.moves.append(MoveRecord(move, 1, None, None))
    text = format_game(to_pgn(record))
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.headers["Variant"] == "Chess960" and game.headers["SetUp"] == "1"
    assert game.headers["FEN"] == chess.STARTING_FEN
    assert "O-O" in text
    assert list(game.mainline_moves()) == board.move_stack
    assert game.end().board() == board


def test_chess960_openings_from_files(tmp_path: Path) -> None:
    """EPD positions are read by Chess960 rules when asked; a PGN game must say Chess960."""
    epd = tmp_path / "960.epd"
    epd.write_text("2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - id \"castle mate\";\n")
    (opening,) = load_openings(epd, chess960=True)
    assert opening.chess960 and chess.Move.from_uci("b1a1") in opening.board().legal_moves
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Variant "Chess960"]\n[FEN "' + chess.Board.from_chess960_pos(7).fen()
                   + '"]\n[SetUp "1"]\n\n1. e4 *\n\n1. d4 *\n')
    with pytest.raises(OpeningError, match="Chess960"):
        load_openings(pgn, chess960=True)
    pgn.write_text(pgn.read_text().split("\n\n1. d4")[0] + "\n")
    (game,) = load_openings(pgn, chess960=True)
    assert game.chess960 and game.moves == ("e2e4",)
