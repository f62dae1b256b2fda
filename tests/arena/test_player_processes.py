"""Every kind of player plays real games through the one protocol: Python minds in a child
process, a mind program, a mind over HTTP, an xboard engine and an installed plugin."""

from __future__ import annotations

import http.server
import random
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest
from tests.loopback import serving
from tests.waiting import HANG_S

from plies.agents.player import Player, PlayerError
from plies.agents.registry import make_player
from plies.agents.spec import parse_player
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameRecord, GameSettings, play_game
from plies.engine.limits import Limit
from plies.engine.score import Cp, pov

TOY_MIND = Path(__file__).with_name("toy_mind.py")
FAIRYMAX = shutil.which("fairymax") or shutil.which("fairymax", path="/usr/games")
SHORT = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S,
                     adjudication=Adjudication(max_moves=12))


def _game(white: Player, black: Player, settings: GameSettings = SHORT) -> GameRecord:
    """One game from the standard start."""
    record = play_game(white, black, Opening(chess.STARTING_FEN), settings, seed=1)
    assert record.finished, record.reason
    return record


def _legal_replay(record: GameRecord) -> None:
    """Every recorded move was legal (the referee checked; replay to be sure)."""
    board = chess.Board()
    for m in record.moves:
        assert m.move in board.legal_moves
        board.push(m.move)


def test_python_minds_of_every_shape_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shapes.py").write_text(
        "import random\n"
        "from plies.agents import LadderPlayer\n"
        "from plies.engine.limits import Info\n"
        "from plies.engine.score import Cp, pov\n"
        "def san(board):\n"
        "    return board.san(board.legal_moves[0])\n"
        "def uci(board):\n"
        "    return board.legal_moves[-1].uci()\n"
        "class Counter:\n"
        "    def __init__(self):\n"
        "        self.moves = 0\n"
        "    def choose(self, board):\n"
        "        self.moves += 1\n"
        "        print('thinking', self.moves)  # must not break the protocol\n"
        "        return board.legal_moves[self.moves % len(board.legal_moves)]\n"
        "class Deep(LadderPlayer):\n"
        "    def play(self, board, limit):\n"
        "        move = self.rng.choice(list(board.legal_moves))\n"
        "        return Info(move=move, score=pov(Cp(12), board.turn), depth=limit.depth * 10)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    opponent = make_player("random")
    for attr in ("san", "uci", "Counter", "Deep"):
        mind = parse_player(f"shapes.py:{attr}").create()
        try:
            record = _game(mind, opponent)
        finally:
            mind.close()
        assert not record.fault, record.reason
        assert len(record.moves) >= 20
        _legal_replay(record)
        if attr == "Deep":  # a Player class gets the limit and reports its Info
            assert {(m.depth, str(m.score)) for m in record.moves[::2]} == {
                (10, str(pov(Cp(12), True)))}


def test_module_mind_and_installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "clubminds"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "first.py").write_text("def choose(board):\n    return board.legal_moves[0]\n")
    dist = tmp_path / "clubminds-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: clubminds\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[plies.players]\nclubfirst = clubminds.first:choose\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from plies.cli.main import main

    spec = parse_player("clubfirst")
    assert (spec.kind, spec.name, spec.target, spec.attr) == (
        "module", "clubfirst", "clubminds.first", "choose")
    assert parse_player("clubminds.first").kind == "module"
    player = spec.create()
    try:
        record = _game(make_player("random"), player)
    finally:
        player.close()
    assert not record.fault and len(record.moves) >= 20
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["players"]) == 0


def test_mind_program_plays_and_resigns() -> None:
    player = parse_player(f"mind:{sys.executable} {TOY_MIND}").create()
    try:
        record = _game(player, make_player("random"))
        assert not record.fault and len(record.moves) >= 20
        _legal_replay(record)
    finally:
        player.close()
    resigner = parse_player(f"mind:{sys.executable} {TOY_MIND} resign 3").create()
    try:
        record = _game(make_player("random"), resigner)
    finally:
        resigner.close()
    assert (record.result, record.termination, record.fault) == ("1-0", "normal", "")
    assert record.reason.endswith("resigns")
    assert len(record.moves) == 7


class _MindHandler(http.server.BaseHTTPRequestHandler):
    """Answers a POSTed FEN with a random legal action (or misbehaves, by path)."""

    rng = random.Random(3)
    release = threading.Event()

    def do_POST(self) -> None:
        """Read the FEN, write the action."""
        fen = self.rfile.read(int(self.headers["Content-Length"])).decode()
        if self.path == "/garbage":
            body, status = b"pass", 200
        elif self.path == "/error":
            body, status = b"oops", 500
        elif self.path == "/slow":
            self.release.wait()
            body, status = b"0,0", 200
        else:
            move = self.rng.choice(list(chess.Board(fen).legal_moves))
            body, status = f"{move.from_square},{move.to_square}".encode(), 200
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def mind_server() -> Iterator[str]:
    """A mind served on the loopback address; yields its base URL."""
    with serving(_MindHandler, _MindHandler.release) as url:
        yield url


def test_http_mind_plays_and_its_faults_lose(mind_server: str) -> None:
    player = parse_player(f"mind+{mind_server}/mind").create()
    record = _game(player, make_player("random"))
    assert not record.fault and len(record.moves) >= 20
    _legal_replay(record)
    # Only the mind that never answers gets a timeout it cannot meet; the other faults get
    # all the time a reply may take, so a busy machine cannot turn them into hangs.
    quick = GameSettings(limit=Limit(depth=1), move_timeout_s=0.5)
    patient = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S)
    for path, fault, words in (("/garbage", "illegal", "answered 'pass'"),
                               ("/error", "crash", "HTTP 500"),
                               ("/slow", "hang", "no move within 0.5s")):
        bad = parse_player(f"mind+{mind_server}{path}").create()
        settings = quick if fault == "hang" else patient
        record = _game(bad, make_player("random"), settings)
        bad.close()
        assert (record.result, record.fault) == ("0-1", fault), record.reason
        assert words in record.reason
    dead = parse_player("mind+http://127.0.0.1:9/none").create()  # the discard port: refused
    record = _game(make_player("random"), dead, patient)
    assert (record.result, record.fault) == ("1-0", "crash")


@pytest.mark.skipif(FAIRYMAX is None, reason="fairymax is not installed")
def test_xboard_engine_plays_a_game() -> None:
    assert FAIRYMAX is not None
    engine = parse_player(f"xboard:{FAIRYMAX}").create()
    try:
        record = _game(engine, make_player("random"),
                       GameSettings(limit=Limit(depth=2), adjudication=Adjudication(max_moves=30)))
        again = _game(make_player("random"), engine,
                      GameSettings(limit=Limit(depth=2), adjudication=Adjudication(max_moves=10)))
    finally:
        engine.close()
    assert not record.fault and not again.fault, (record.reason, again.reason)
    _legal_replay(record)
    # Fairy-Max at depth 2 beats a random mover or is far ahead when the game is cut short.
    assert record.result == "1-0" or len(record.moves) >= 58
    assert any(m.depth == 2 and m.score is not None for m in record.moves[::2])


TOY_XBOARD = Path(__file__).with_name("toy_xboard.py")


def test_xboard_faults_lose_and_a_resignation_is_no_fault() -> None:
    quick = GameSettings(limit=Limit(depth=1), move_timeout_s=1.0)
    patient = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S)
    cases = (("illegal", "illegal", "played 'a1a1'"), ("garbage", "illegal", "played 'hello'"),
             ("die", "crash", "exited with status 5"), ("hang", "hang", "no move within 1s"),
             ("claim", "illegal", "claimed '1-0 {I say so}'"), ("resign", "", "resigns"))
    for mode, fault, words in cases:
        # The engine that hangs does so at once: a move it made first would have to meet the
        # timeout no hang can meet.
        good = 0 if fault == "hang" else 2
        engine = parse_player(f"xboard:{sys.executable} {TOY_XBOARD} {mode} {good}").create()
        try:
            settings = quick if fault == "hang" else patient
            record = _game(engine, make_player("random"), settings)
            assert not engine.healthy or not fault
        finally:
            engine.close()
        assert (record.result, record.fault) == ("0-1", fault), (mode, record.reason)
        assert words in record.reason, (mode, record.reason)
        assert len(record.moves) == 2 * good


def test_xboard_options_and_set_up_positions() -> None:
    toy = f"xboard:{sys.executable} {TOY_XBOARD}"
    with pytest.raises(PlayerError, match="no option 'Colour'"):
        parse_player(f"{toy}:Colour=blue").create()
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    plain = parse_player(f"{toy}:Style=wild").create()  # no setboard feature
    try:
        record = play_game(plain, make_player("random"), Opening(fen), SHORT)
    finally:
        plain.close()
    assert record.fault == "start" and "no setboard feature" in record.reason
    able = parse_player(f"{toy} setboard").create()
    try:
        record = play_game(able, make_player("random"), Opening(fen), SHORT)
    finally:
        able.close()
    assert record.finished and not record.fault, record.reason
