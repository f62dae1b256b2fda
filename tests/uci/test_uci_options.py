"""MultiPV, UCI_LimitStrength/UCI_Elo and UCI_ShowWDL through python-chess and raw UCI."""

from __future__ import annotations

import subprocess
import sys

import chess
import chess.engine
from tests.uci.conftest import REPLY_TIMEOUT_S, RawUci

# White wins the black queen with Rxd8+ (the king has luft on h7).
WIN_QUEEN = "3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1"


def _value(score: chess.engine.PovScore) -> int:
    """White's score with mates as huge numbers, for ordering checks."""
    return score.white().score(mate_score=100_000) or 0


def test_options_are_declared_with_bounds(uci_engine: chess.engine.SimpleEngine) -> None:
    """Each option has the type, default, min and max the README documents."""
    o = uci_engine.options
    assert (o["MultiPV"].type, o["MultiPV"].default, o["MultiPV"].min, o["MultiPV"].max) == (
        "spin", 1, 1, 256)
    assert o["UCI_LimitStrength"].type == "check" and o["UCI_LimitStrength"].default is False
    assert (o["UCI_Elo"].default, o["UCI_Elo"].min, o["UCI_Elo"].max) == (1800, 1350, 2200)
    assert o["UCI_ShowWDL"].type == "check" and o["UCI_ShowWDL"].default is False


def test_analyse_three_lines(uci_engine: chess.engine.SimpleEngine) -> None:
    """``analyse(multipv=3)``: three distinct, legal, ranked lines; the best wins the queen."""
    board = chess.Board(WIN_QUEEN)
    infos = uci_engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert len({i["pv"][0] for i in infos}) == 3
    for info in infos:
        scratch = board.copy()
        for move in info["pv"]:
            assert move in scratch.legal_moves
            scratch.push(move)
    values = [_value(i["score"]) for i in infos]
    assert values == sorted(values, reverse=True) and values[0] > values[1] + 500
    assert infos[0]["pv"][0] == chess.Move.from_uci("d1d8")


def test_lines_with_searchmoves_nodes_and_threads(uci_engine: chess.engine.SimpleEngine) -> None:
    """searchmoves bound the lines, go nodes bounds them all, and two threads work too."""
    board = chess.Board()
    wanted = [chess.Move.from_uci(u) for u in ("a2a3", "g1f3", "h2h4")]
    infos = uci_engine.analyse(board, chess.engine.Limit(depth=4), multipv=5, root_moves=wanted)
    assert sorted(i["multipv"] for i in infos) == [1, 2, 3]
    assert {i["pv"][0] for i in infos} == set(wanted)
    infos = uci_engine.analyse(board, chess.engine.Limit(nodes=4000), multipv=3)
    assert len(infos) == 3 and all(i["nodes"] <= 4000 for i in infos)
    uci_engine.configure({"Threads": 2})
    try:
        infos = uci_engine.analyse(chess.Board(WIN_QUEEN), chess.engine.Limit(depth=6), multipv=2)
    finally:
        uci_engine.configure({"Threads": 1})
    assert [i["multipv"] for i in infos] == [1, 2]
    assert infos[0]["pv"][0] == chess.Move.from_uci("d1d8")


def test_go_mate_with_lines(uci_engine: chess.engine.SimpleEngine) -> None:
    """``go mate 2`` with two lines reports the mate as line 1."""
    board = chess.Board("2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1")
    infos = uci_engine.analyse(board, chess.engine.Limit(mate=2), multipv=2)
    assert infos[0]["score"].relative == chess.engine.Mate(2)
    assert len(infos) == 2


def test_wdl_sums_to_1000_and_follows_the_score(uci_engine: chess.engine.SimpleEngine) -> None:
    """With UCI_ShowWDL every line carries W/D/L per mille; better lines win more often."""
    uci_engine.configure({"UCI_ShowWDL": True})
    try:
        infos = uci_engine.analyse(chess.Board(WIN_QUEEN), chess.engine.Limit(depth=5),
                                   multipv=3)
    finally:
        uci_engine.configure({"UCI_ShowWDL": False})
    wdls = [i["wdl"].relative for i in infos]
    assert all(w.wins + w.draws + w.losses == 1000 for w in wdls)
    assert [w.wins for w in wdls] == sorted((w.wins for w in wdls), reverse=True)
    assert wdls[0].wins > 900 and wdls[-1].losses > wdls[0].losses
    plain = uci_engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
    assert "wdl" not in plain


def test_limit_strength_plays_and_persists_over_new_games(
    uci_engine: chess.engine.SimpleEngine,
) -> None:
    """Limited to 1500 the engine plays legal, sensible moves; a new game keeps the setting."""
    uci_engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1500})
    try:
        for game in (object(), object()):  # a new ``game`` sends ucinewgame
            result = uci_engine.play(chess.Board(WIN_QUEEN), chess.engine.Limit(time=2),
                                     game=game, info=chess.engine.INFO_ALL)
            assert result.move == chess.Move.from_uci("d1d8")
            assert result.info["nodes"] < 50_000  # a budget, not a full 2 s search
        uci_engine.configure({"UCI_LimitStrength": False})
        result = uci_engine.play(chess.Board(), chess.engine.Limit(time=0.5),
                                 info=chess.engine.INFO_ALL)
        assert result.move in chess.Board().legal_moves
    finally:
        uci_engine.configure({"UCI_LimitStrength": False, "UCI_Elo": 1800})


def test_order_of_lines_and_option_changes_in_raw_uci(shared_uci: RawUci) -> None:
    """Each depth prints multipv 1, 2, 3 in order; a MultiPV change holds across ucinewgame."""
    uci = shared_uci
    uci.send("setoption name MultiPV value 3", "position startpos", "go depth 4")
    lines = [x for x in uci.expect("bestmove") if x.startswith("info depth")]
    by_depth: dict[int, list[int]] = {}
    for line in lines:
        words = line.split()
        by_depth.setdefault(int(words[2]), []).append(int(words[words.index("multipv") + 1]))
    assert by_depth == {d: [1, 2, 3] for d in range(1, 5)}
    uci.send("ucinewgame", "position startpos moves e2e4", "go depth 3")
    lines = [x for x in uci.expect("bestmove") if x.startswith("info depth")]
    assert {x.split()[x.split().index("multipv") + 1] for x in lines} == {"1", "2", "3"}
    uci.send("setoption name MultiPV value 1", "go depth 3")
    lines = [x for x in uci.expect("bestmove") if x.startswith("info depth")]
    assert all(" multipv 1 " in x for x in lines) and len(lines) == 3


def test_bad_values_keep_the_old_ones(shared_uci: RawUci) -> None:
    """Out-of-range or malformed values get an info string and change nothing."""
    uci = shared_uci
    uci.send("setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1350")
    for bad in ("setoption name UCI_Elo value 9999", "setoption name UCI_Elo value 1000",
                "setoption name MultiPV value 0", "setoption name MultiPV value 257",
                "setoption name UCI_ShowWDL value maybe",
                "setoption name UCI_LimitStrength value yes"):
        uci.send(bad)
        assert uci.expect("info string")[-1].startswith("info string option unchanged")
    uci.send("position fen " + WIN_QUEEN, "go movetime 3000")
    got = uci.expect("bestmove")
    infos = [x for x in got if x.startswith("info depth")]
    assert got[-1].startswith("bestmove d1d8")
    # Still limited at 1350 (a few hundred nodes), still one line shown, no WDL.
    last = infos[-1].split()
    assert int(last[last.index("nodes") + 1]) < 10_000
    assert all(" multipv 1 " in x and " wdl " not in x for x in infos)
    uci.send("setoption name UCI_LimitStrength value false")


def test_declared_range_is_the_engines() -> None:
    """The loop declares UCI_Elo with the engine's range and default, without loading numba."""
    from plies.engine import strength
    from plies.options import OPTIONS, find_option

    option = find_option(OPTIONS, "UCI_Elo")
    assert option is not None
    assert (option.minimum, option.maximum, option.default) == (
        strength.MIN_ELO, strength.MAX_ELO, strength.DEFAULT_ELO)
    probe = "import sys, plies.uci.loop; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=REPLY_TIMEOUT_S)
    assert out.stdout.strip() == "False"
