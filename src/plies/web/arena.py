"""The Arena page: matches and leagues between the built-in ladder and the server's players.

The page offers the players the server was started with (``plies serve --player SPEC``)
and then the built-in ladder (:data:`LADDER`, from a random mover to the engine), so a
bare ``plies serve`` has players to choose from.  A request names them by their index in
that list, never by a spec, so nothing a browser sends can make the server load code or
start a program.  One run at a time plays on a thread of its own (one game at a time, so
two players never share the machine's cores with a third), never on the event loop; the
page polls its state: the game being played (board, moves, clocks, the score each side
last reported, a mate in N as ``#N``), every finished game, the standings and the PGN.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.agents.player import Player
from plies.agents.registry import AGENT_NAMES
from plies.agents.spec import PlayerSpec, parse_player
from plies.arena.clock import TimeControl
from plies.arena.match import Match, MatchResult, MatchSettings, unique_names
from plies.arena.openings import opening_schedule
from plies.arena.pgn import format_game, to_pgn
from plies.arena.referee import GameRecord, GameSettings
from plies.arena.report import game_line
from plies.arena.standings import Standings
from plies.board import Board
from plies.board.svg import render_board
from plies.engine.limits import Info, Limit
from plies.engine.score import score_text
from plies.web.errors import ApiError
from plies.web.fields import get_optional_int, get_str

MAX_GAMES = 100
"""Most games per pairing a run may ask for."""
MAX_MOVETIME_MS = 10_000
MAX_DEPTH = 20
MAX_TC_S = 600.0
"""Longest clock (base seconds) a run may ask for."""
MAX_PLIES = 600
"""A run's games are drawn after this many moves (each side's), so a run always ends."""
EVENT = "plies serve arena"
LADDER: dict[str, tuple[str, ...]] = {
    "minimax": ("depth=2",),
    "alphabeta": ("depth=3",),
    "engine": ("depth=1", "depth=4", "depth=8", ""),
}
"""The options of each built-in agent's rungs on the page (an agent not named here: one rung
with its defaults; "": the engine at the run's limit).  Shallow fixed depths keep every rung
quick enough to watch: the searches written in Python slow steeply with depth."""


def ladder_specs() -> list[PlayerSpec]:
    """The built-in ladder, weakest first: every agent of the registry at its rungs."""
    texts = [f"{name}:{options}" if options else name
             for name in AGENT_NAMES for options in LADDER.get(name, ("",))]
    return [parse_player(text) for text in texts]


@dataclass
class _Live:
    """The game being played, as its players' moves pass through them."""

    white: str = ""
    black: str = ""
    board: Board = field(default_factory=Board)
    sans: list[str] = field(default_factory=list)
    clocks: tuple[int | None, int | None] = (None, None)
    """Milliseconds left for White and Black when last known (None without a clock)."""
    scores: tuple[str, str] = ("", "")
    """The score White and Black each last reported this game, from its own side (``#3``:
    it mates in three moves; "" when it reported none)."""
    to_move_since: float = 0.0


def _forwarded(attr: str, doc: str) -> Any:
    """A property reading and writing ``attr`` of the wrapped player (``self.inner``)."""
    return property(lambda self: getattr(self.inner, attr),
                    lambda self, value: setattr(self.inner, attr, value), doc=doc)


class _Watched(Player):
    """A player whose every move is reported to the run (for the live board)."""

    def __init__(self, inner: Player, run: ArenaRun) -> None:
        """Wrap ``inner``."""
        self.inner = inner
        self.run = run

    name = _forwarded("name", "The inner player's name.")
    healthy = _forwarded("healthy", "Whether the inner player can play on.")
    last = _forwarded("last", "What the inner player reported on its last move.")

    def new_game(self, seed: int | None = None) -> None:
        """Start a game."""
        self.inner.new_game(seed)

    def play(self, board: Board, limit: Limit) -> Info:
        """Ask the inner player, telling the run the position, the clocks and the answer."""
        self.run.before_move(self.inner.name, board, limit)
        info = self.inner.play(board, limit)
        self.run.after_move(board, info)
        return info

    def stop(self) -> None:
        """Stop the inner player thinking."""
        self.inner.stop()

    def close(self) -> None:
        """Close the inner player."""
        self.inner.close()


@dataclass(frozen=True)
class _WatchedSpec:
    """A configured player's spec whose players report their moves to a run."""

    spec: PlayerSpec
    name: str
    """The name the server shows the player by."""
    run: ArenaRun

    @property
    def text(self) -> str:
        """The spec as given."""
        return self.spec.text

    def create(self) -> Player:
        """A fresh watched player."""
        return _Watched(self.spec.create(), self.run)


class ArenaRun:
    """One match or league started from the page, played on its own thread."""

    def __init__(self, specs: Sequence[PlayerSpec], names: Sequence[str], games: int,
                 settings: GameSettings, limit_text: str) -> None:
        """Schedule the games; :meth:`start` plays them."""
        self.names = list(names)
        self.limit_text = limit_text
        self.settings = settings
        self._lock = threading.Lock()
        self.live = _Live()
        self.pgn: list[str] = []
        self.lines: list[str] = []
        self.error = ""
        self.finished = False
        openings = opening_schedule((games + 1) // 2, None, None, None)
        watched = [_WatchedSpec(s, n, self) for s, n in zip(specs, names, strict=True)]
        self.match = Match(watched, MatchSettings(games=games, concurrency=1), settings,  # type: ignore[arg-type]
                           openings, on_game=self._on_game)
        self._thread = threading.Thread(target=self._play, name="web-arena", daemon=True)
        self._standings: tuple[int, str] = (-1, "")

    def start(self) -> None:
        """Start playing on the run's thread."""
        self._thread.start()

    def _play(self) -> None:
        """Thread body: play every game (a failure is kept for the page, never raised)."""
        try:
            self.match.run()
        except Exception as exc:  # the page says what went wrong; the server goes on
            self.error = f"the run stopped: {exc}"
        finally:
            with self._lock:
                self.finished = True

    def stop(self) -> None:
        """Stop: the game in progress is abandoned, the finished ones kept."""
        self.match.stop()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the run's thread."""
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """Whether games are still being played."""
        return not self.finished

    def before_move(self, name: str, board: Board, limit: Limit) -> None:
        """A player is asked to move in ``board``: show the position and the clocks."""
        with self._lock:
            live = self.live
            if live.board.move_stack != board.move_stack or live.board.root() != board.root():
                live.sans = _sans(board)  # a new game (else the moves so far are known)
                live.scores = ("", "")
            live.board = board.copy()
            if board.turn:
                live.white = name
            else:
                live.black = name
            live.clocks = (limit.wtime, limit.btime)
            live.to_move_since = time.monotonic()

    def after_move(self, board: Board, info: Info) -> None:
        """A player answered: show its move on the live board when it is legal, and the
        score it reported."""
        move = info.move
        with self._lock:
            live = self.live
            if info.score is not None and live.board.fen() == board.fen():
                text = score_text(info.score.relative)
                live.scores = (text, live.scores[1]) if board.turn else (live.scores[0], text)
            if move and live.board.fen() == board.fen() and move in live.board.legal_moves:
                live.sans.append(live.board.san(move))
                live.board.push(move)

    def _on_game(self, record: GameRecord, result: MatchResult) -> None:
        """A game ended: keep its PGN and its line."""
        tc = self.settings.tc.pgn() if self.settings.tc is not None else "-"
        text = format_game(to_pgn(record, event=EVENT, time_control=tc))
        with self._lock:
            self.pgn.append(text)
            self.lines.append(game_line(record))

    def standings_html(self) -> str:
        """The standings and crosstable as HTML (recomputed only when a game has ended)."""
        records = list(self.match.result.records)
        if self._standings[0] != len(records):
            self._standings = (len(records),
                               Standings.from_records(self.names, records).to_html())
        return self._standings[1]

    def state(self) -> dict[str, Any]:
        """What the page draws."""
        with self._lock:
            live = self.live
            board = live.board.copy()
            sans = list(live.sans)
            white, black, clocks, scores = live.white, live.black, live.clocks, live.scores
            lines = list(self.lines)
            since = live.to_move_since
        last = board.move_stack[-1] if board.move_stack else None
        result = self.match.result
        clock_now = list(clocks)
        if self.running:
            side = 0 if board.turn else 1
            if clock_now[side] is not None:  # the side to move's clock runs
                spent = round((time.monotonic() - since) * 1000)
                clock_now[side] = max(0, (clock_now[side] or 0) - spent)
        return {
            "running": self.running,
            "players": self.names,
            "limit": self.limit_text,
            "scheduled": result.scheduled,
            "played": result.played,
            "error": self.error,
            "live": {
                "white": white,
                "black": black,
                "fen": board.fen(),
                "svg": render_board(Board(board.fen()), False, last),
                "moves": sans,
                "clocks": clock_now,
                "scores": list(scores),
            },
            "games": lines,
            "standings": self.standings_html(),
        }


def _sans(board: Board) -> list[str]:
    """The SAN of every move on ``board``'s stack."""
    replay = board.root()
    out = []
    for move in board.move_stack:
        out.append(replay.san(move))
        replay.push(move)
    return out


class ArenaRoom:
    """The players the Arena offers (the configured ones, then the ladder) and its one run."""

    def __init__(self, specs: Sequence[PlayerSpec]) -> None:
        """Offer ``specs`` (from the command line), then the ladder rungs they do not repeat."""
        self.specs = list(specs)
        """The configured players (also the Play page's opponents)."""
        given = {spec.text.strip().lower() for spec in self.specs}
        ladder = [s for s in ladder_specs() if s.text not in given]
        self.offered = self.specs + ladder
        """Every player the Arena offers, by index: the configured ones first."""
        names = unique_names(self.offered)
        self.names = names[:len(self.specs)]
        """The configured players' names (unique_names keeps a prefix's names)."""
        self.offered_names = names
        self.run: ArenaRun | None = None
        self._lock = threading.Lock()

    def players(self, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """The players offered, by index; ``builtin`` marks the ladder's."""
        configured = len(self.specs)
        return {"players": [{"index": i, "name": n, "builtin": i >= configured}
                            for i, n in enumerate(self.offered_names)]}

    def _chosen(self, data: dict[str, Any]) -> list[int]:
        """The player indices a request names; ApiError unless two or more distinct ones."""
        chosen = data.get("players")
        if not isinstance(chosen, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in chosen):
            raise ApiError("'players' must be a list of player numbers (indices)")
        bad = [i for i in chosen if not 0 <= i < len(self.offered)]
        if bad:
            raise ApiError(f"no player number {bad[0]} (the server offers "
                           f"{len(self.offered)}, numbered from 0)")
        if len(set(chosen)) != len(chosen):
            raise ApiError("each player may be chosen once")
        if len(chosen) < 2:
            raise ApiError("choose at least two players")
        return chosen

    def start(self, data: dict[str, Any]) -> dict[str, Any]:
        """Start a match (two players) or a league (more): every pair plays ``games`` games."""
        chosen = self._chosen(data)
        games = get_optional_int(data, "games", 1, MAX_GAMES) or 2
        settings, text = _limits(data)
        with self._lock:
            if self.run is not None and self.run.running:
                raise ApiError("a run is already being played: stop it first", 409)
            run = ArenaRun([self.offered[i] for i in chosen],
                           [self.offered_names[i] for i in chosen],
                           games, settings, text)
            self.run = run
        run.start()
        return {"started": True, "scheduled": run.match.result.scheduled}

    def stop(self, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """Stop the run (ApiError when none is being played)."""
        run = self.run
        if run is None or not run.running:
            raise ApiError("no run is being played")
        run.stop()
        return {"stopping": True}

    def state(self, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """The run's state, or just the players when nothing was started yet."""
        run = self.run
        base = self.players()
        if run is None:
            return {**base, "run": None}
        return {**base, "run": run.state()}

    def pgn(self) -> str:
        """Every finished game of the run in PGN."""
        run = self.run
        return "" if run is None else "".join(list(run.pgn))

    def close(self) -> None:
        """Stop the run when the server stops."""
        run = self.run
        if run is not None and run.running:
            run.stop()
            run.join(10.0)


def _limits(data: dict[str, Any]) -> tuple[GameSettings, str]:
    """The games' limit from a request: a clock ``tc``, a ``movetime`` or a ``depth``."""
    from plies.arena.referee import Adjudication

    tc_text = data.get("tc")
    movetime = get_optional_int(data, "movetime", 1, MAX_MOVETIME_MS)
    depth = get_optional_int(data, "depth", 1, MAX_DEPTH)
    given = [x for x in (tc_text, movetime, depth) if x is not None]
    if len(given) != 1:
        raise ApiError("give one limit: a clock 'tc' (e.g. \"5+0.05\"), a 'movetime' (ms) "
                       "or a 'depth'")
    adjudication = Adjudication(max_moves=MAX_PLIES // 2)
    if tc_text is not None:
        text = get_str(data, "tc", max_len=20)
        try:
            tc = TimeControl.parse(text)
        except ValueError as exc:
            raise ApiError(str(exc)) from None
        if tc.base_ms > MAX_TC_S * 1000:
            raise ApiError(f"a clock of at most {MAX_TC_S:g} s")
        return GameSettings(tc=tc, adjudication=adjudication), f"clock {tc.pgn()}"
    if movetime is not None:
        return (GameSettings(limit=Limit(movetime=movetime), adjudication=adjudication),
                f"{movetime} ms a move")
    return GameSettings(limit=Limit(depth=depth), adjudication=adjudication), f"depth {depth}"
