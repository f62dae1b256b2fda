"""Arena players: ladder agents and outside UCI engines behind one referee-facing interface.

The arena referees on a python-chess board.  A built-in agent keeps a mirror
:class:`plies.board.Board` in step with it; an outside engine is driven through
``chess.engine`` with a hard timeout, so a crash, a hang or an illegal reply
becomes a :class:`PlayerError` that costs the engine that game, not the match.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import shlex
import shutil
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import chess.engine

from plies.agents.base import Budget
from plies.agents.registry import AGENT_NAMES, agent_options, parse_options

if TYPE_CHECKING:
    from plies.agents.base import Agent
    from plies.board import Board

# Scores beyond this are mates; used to put a mate on the centipawn scale.
MATE_CP = 100_000

# python-chess logs every engine that dies; the arena reports it itself.
logging.getLogger("chess.engine").setLevel(logging.CRITICAL)


class PlayerError(Exception):
    """A player could not produce a move: it crashed, hung or broke the protocol."""

    def __init__(self, kind: str, detail: str) -> None:
        """``kind`` is 'crash', 'hang', 'illegal' or 'start'; ``detail`` says what happened."""
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class MoveRequest:
    """What the referee asks for one move: a thinking budget and a hard timeout."""

    budget: Budget = field(default_factory=Budget)
    timeout_s: float | None = None


@dataclass(frozen=True)
class MoveReply:
    """A player's answer: the move (None = it offered nothing) and what it reported."""

    move: chess.Move | None
    score_cp: int | None = None
    depth: int | None = None


class Player(ABC):
    """One side in arena games: started per game, asked for moves, aborted or closed."""

    name: str = "player"
    healthy: bool = True

    @abstractmethod
    def new_game(self, seed: int | None) -> None:
        """Prepare for a new game (the seed feeds agents' RNGs)."""

    @abstractmethod
    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Return a move for ``board`` or raise :class:`PlayerError`."""

    def abort(self) -> None:
        """Stop thinking as soon as possible (called from another thread)."""
        return None

    def close(self) -> None:
        """Release the player's resources."""
        return None


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player argument: a ladder agent or an outside UCI engine."""

    text: str
    kind: str
    name: str
    agent: str | None = None
    command: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    def create(self) -> Player:
        """Make a fresh player from the spec."""
        if self.kind == "uci":
            return UciPlayer(self.name, list(self.command), dict(self.options))
        assert self.agent is not None
        return AgentPlayer(self.name, self.agent, dict(self.options))


def parse_player(text: str) -> PlayerSpec:
    """Parse ``NAME[:k=v,...]`` (a ladder agent) or ``uci:COMMAND[:Option=value,...]``."""
    text = text.strip()
    if not text:
        raise ValueError("empty player")
    if text.lower().startswith("uci:"):
        return _parse_uci(text)
    name, _, rest = text.partition(":")
    agent = name.strip().lower()
    if agent not in AGENT_NAMES:
        raise ValueError(
            f"unknown player {name!r}: use one of {', '.join(AGENT_NAMES)} or uci:/path/to/engine"
        )
    options = parse_options(rest)
    display = options.pop("name", "") or text
    known = agent_options(agent)
    for key in options:
        if key not in known:
            raise ValueError(f"unknown option {key!r} for {agent} (known: {', '.join(known)})")
    return PlayerSpec(text, "agent", display, agent, (), tuple(options.items()))


def _parse_uci(text: str) -> PlayerSpec:
    """Split ``uci:COMMAND[:opts]`` where opts is ``Option=value,...``."""
    rest = text[4:]
    command_text, sep, opts = rest.rpartition(":")
    if not sep or "=" not in opts or not command_text:
        command_text, opts = rest, ""
    options = parse_options(opts)
    try:
        command = shlex.split(command_text)
    except ValueError as exc:
        raise ValueError(f"bad engine command {command_text!r}: {exc}") from None
    if not command:
        raise ValueError("uci: needs an engine command, e.g. uci:/usr/games/stockfish")
    exe = command[0]
    found = shutil.which(exe)
    if found is None and not (Path(exe).is_file() and os.access(exe, os.X_OK)):
        raise ValueError(f"engine not found or not executable: {exe}")
    display = options.pop("name", "")
    if not display:
        display = Path(exe).name
        if options:
            display += "(" + ",".join(f"{k}={v}" for k, v in options.items()) + ")"
    return PlayerSpec(text, "uci", display, None, tuple(command), tuple(options.items()))


def variant_refusal(player: Player, chess960: bool) -> str | None:
    """Why ``player`` cannot play the match's variant, or None (every ladder agent can)."""
    if not chess960 or not isinstance(player, UciPlayer) or player.engine is None:
        return None
    if "UCI_Chess960" in player.engine.options:
        return None
    return f"{player.engine_name} does not support Chess960 (it has no UCI_Chess960 option)"


class AgentPlayer(Player):
    """A ladder agent playing on a mirror :class:`plies.board.Board` of the referee's board."""

    def __init__(self, name: str, agent: str, options: dict[str, str]) -> None:
        """Create the agent now, so a bad option fails before the first game."""
        from plies.agents.registry import make_agent

        self.name = name
        self.agent: Agent = make_agent(agent, options)
        # Limits given to this player explicitly win over the match-wide ones.
        self._own_limits = {k for k in options if k in ("depth", "nodes", "movetime", "level")}
        self.agent.warm_up()
        self._mirror: Board | None = None
        self._moves: list[chess.Move] = []
        self._root_fen = ""

    def new_game(self, seed: int | None) -> None:
        """Reset the agent (reseeded) and drop the mirror board."""
        self.agent.reset(seed)
        self._mirror = None
        self._moves = []

    def _sync(self, board: chess.Board) -> Board:
        """Bring the mirror up to the referee's position, rebuilding it if the games differ."""
        from plies.board import Board, Move

        stack = board.move_stack
        n = len(self._moves)
        if (
            self._mirror is None
            or len(stack) < n
            or stack[:n] != self._moves
            or board.root().fen() != self._root_fen
            or self._mirror.chess960 != board.chess960
        ):
            self._root_fen = board.root().fen()
            self._mirror = Board(self._root_fen, chess960=board.chess960)
            self._moves = []
            n = 0
        for move in stack[n:]:
            self._mirror.push(Move.from_uci(move.uci()))
            self._moves.append(move)
        return self._mirror

    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Ask the agent for a move; any exception it raises is reported as a crash."""
        mirror = self._sync(board)
        timer: threading.Timer | None = None
        if request.timeout_s is not None:
            timer = threading.Timer(request.timeout_s, self.agent.stop)
            timer.daemon = True
            timer.start()
        try:
            choice = self.agent.choose(mirror.copy(), self._budget(request.budget))
        except Exception as exc:  # an agent bug costs its game, not the match
            raise PlayerError("crash", f"{type(exc).__name__}: {exc}") from exc
        finally:
            if timer is not None:
                timer.cancel()
        if not choice:
            return MoveReply(None)
        thought = self.agent.last
        score = None
        depth = None
        if thought is not None:
            depth = thought.depth or None
            if thought.mate_in is not None:
                sign = 1 if thought.mate_in > 0 else -1
                score = sign * (MATE_CP - abs(thought.mate_in))
            else:
                score = thought.score_cp
        try:
            return MoveReply(chess.Move.from_uci(choice.uci()), score, depth)
        except ValueError:
            return MoveReply(None)

    def _budget(self, budget: Budget) -> Budget:
        """The match budget without the limits this player has set for itself."""
        if "depth" in self._own_limits or "level" in self._own_limits:
            budget = replace(budget, depth=None)
        if "nodes" in self._own_limits:
            budget = replace(budget, nodes=None)
        if "movetime" in self._own_limits:
            budget = replace(budget, movetime_ms=None)
        return budget

    def abort(self) -> None:
        """Stop the agent's search."""
        self.agent.stop()

    def close(self) -> None:
        """Let the agent release its resources."""
        self.agent.close()


def _option_value(text: str) -> str | int | bool:
    """Turn option text into the type python-chess expects (bools and ints, else text)."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _kill_process(transport: asyncio.SubprocessTransport) -> None:
    """Kill an engine's process; one already gone (killed twice, or it quit) is fine.

    Run on the engine's event loop, where an exception would only be logged, with a
    traceback, on stderr.
    """
    with contextlib.suppress(ProcessLookupError):
        transport.kill()


# How long an engine may take to answer ``isready`` before a game (first runs may compile).
READY_TIMEOUT_S = 300.0

REFUSAL_MARKS = ("option unchanged", "no such option", "unknown option", "error", "invalid",
                 "not found", "cannot", "failed")  # fmt: skip
"""Words in what an engine prints after ``setoption`` that mean it refused the option
(plies says "option unchanged"/"no such option"; Stockfish "No such option")."""


def refusal(lines: list[str]) -> str | None:
    """The first line an engine printed in answer to ``setoption`` that refuses it, if any."""
    for line in lines:
        if any(mark in line.lower() for mark in REFUSAL_MARKS):
            return line.strip()
    return None


class _ConfigureCommand(chess.engine.BaseCommand[list[str]]):
    """``setoption`` lines then ``isready``; the result is every line before ``readyok``.

    python-chess's own ``configure`` returns before the engine answers, and drops
    whatever it prints, so an engine refusing an option would go unnoticed.
    """

    def __init__(self, engine: chess.engine.UciProtocol, options: chess.engine.ConfigMapping):
        """Remember the options to send."""
        super().__init__(engine)
        self.engine = engine
        self.options = options
        self.lines: list[str] = []

    def start(self) -> None:
        """Send the options (as python-chess's ``configure`` does, keeping its records)."""
        self.engine._configure(self.options)
        self.engine.target_config.update(
            {name: value for name, value in self.options.items() if value is not None}
        )
        self.engine.send_line("isready")

    def line_received(self, line: str) -> None:
        """Collect lines until ``readyok``."""
        if line.strip() == "readyok":
            self.result.set_result(self.lines)
            self.set_finished()
        else:
            self.lines.append(line)


def configure_checked(engine: chess.engine.SimpleEngine, options: dict[str, str]) -> list[str]:
    """Set ``options`` and wait for ``readyok``; the engine's output in between.

    EngineError for an option the engine does not declare or a value of the wrong
    type; TimeoutError if the engine does not get ready within ``READY_TIMEOUT_S``.
    """
    known = engine.options
    for key in options:
        if key not in known:
            raise chess.engine.EngineError(f"no option {key!r}")
    values = {k: _option_value(v) for k, v in options.items()}
    protocol = engine.protocol
    assert isinstance(protocol, chess.engine.UciProtocol)

    async def run() -> list[str]:
        """The command, on the engine's event loop."""
        return await protocol.communicate(lambda e: _ConfigureCommand(protocol, values))

    coro = asyncio.wait_for(run(), READY_TIMEOUT_S)
    try:
        return asyncio.run_coroutine_threadsafe(coro, protocol.loop).result()
    except concurrent.futures.TimeoutError:
        raise TimeoutError(f"not ready within {READY_TIMEOUT_S:g}s after setoption") from None


class UciPlayer(Player):
    """An outside UCI engine driven through ``chess.engine.SimpleEngine``."""

    def __init__(self, name: str, command: list[str], options: dict[str, str]) -> None:
        """Start the engine and apply ``options``; a failure raises PlayerError('start')."""
        self.name = name
        self.command = command
        self.options = options
        self._lock = threading.Lock()
        self._game: object = object()
        self.engine: chess.engine.SimpleEngine | None = None
        self.engine_name = ""
        self._start()

    def _start(self) -> None:
        """Launch the process (in its own process group so Ctrl-C does not reach it)."""
        try:
            engine = chess.engine.SimpleEngine.popen_uci(self.command, setpgrp=True, timeout=10.0)
        except (OSError, chess.engine.EngineError, TimeoutError) as exc:
            raise PlayerError(
                "start", f"{self.name} did not start: {exc or type(exc).__name__}"
            ) from None
        try:
            if self.options:
                refused = refusal(configure_checked(engine, self.options))
                if refused is not None:
                    raise chess.engine.EngineError(f"refused an option: {refused}")
        except (chess.engine.EngineError, TimeoutError) as exc:
            engine.close()
            detail = f"{self.name}: {exc}" if str(exc) else type(exc).__name__
            raise PlayerError("start", detail) from None
        except BaseException:  # Ctrl-C: a running engine left behind would block the exit
            engine.close()
            raise
        self.engine = engine
        self.engine_name = engine.id.get("name", self.name)
        self.healthy = True

    def reconfigure(self, options: dict[str, str]) -> None:
        """Set ``options`` now and after any restart; PlayerError('start') if refused."""
        self.options = {**self.options, **options}
        engine = self.engine
        if engine is None or not self.healthy:
            return  # applied when the next game starts the engine again
        try:
            refused = refusal(configure_checked(engine, options))
        except (chess.engine.EngineError, TimeoutError) as exc:
            self._kill()
            raise PlayerError("start", f"{self.name}: {exc}") from None
        if refused is not None:
            raise PlayerError("start", f"{self.name} refused an option: {refused}")

    def new_game(self, seed: int | None) -> None:
        """Mark a new game and wait until the engine is ready, before any clock runs."""
        self._game = object()
        if self.engine is None or not self.healthy:
            self._start()
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Send ``isready`` and wait for ``readyok`` (engines may load or compile at start)."""
        engine = self.engine
        if engine is None:
            return
        if engine.protocol.loop.is_closed():  # the process died since the last game
            self._kill()
            raise PlayerError("start", f"{self.name} is gone (its process ended)")
        coro = asyncio.wait_for(engine.protocol.ping(), READY_TIMEOUT_S)
        try:
            asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop).result()
        except (TimeoutError, concurrent.futures.TimeoutError, chess.engine.EngineError) as exc:
            self._kill()
            raise PlayerError("start", f"{self.name} never answered isready: {exc}") from None

    def _kill(self) -> None:
        """Close the engine hard; the pool will start a new one for the next game."""
        self.healthy = False
        with self._lock:
            engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()

    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Send ``position``/``go`` and wait for ``bestmove`` no longer than the timeout."""
        engine = self.engine
        if engine is None:
            raise PlayerError("crash", "engine is not running")
        b = request.budget
        white = board.turn == chess.WHITE
        own = b.time_left_ms / 1000 if b.time_left_ms is not None else None
        opp = b.opponent_time_ms / 1000 if b.opponent_time_ms is not None else None
        clocks = own is not None
        inc = b.increment_ms / 1000 if clocks else None
        limit = chess.engine.Limit(
            depth=b.depth,
            nodes=b.nodes,
            time=b.movetime_ms / 1000 if b.movetime_ms is not None else None,
            white_clock=(own if white else opp) if clocks else None,
            black_clock=(opp if white else own) if clocks else None,
            white_inc=inc,
            black_inc=inc,
            remaining_moves=b.moves_to_go,
        )
        try:
            coro = asyncio.wait_for(
                engine.protocol.play(board, limit, game=self._game, info=chess.engine.INFO_SCORE),
                request.timeout_s,
            )
            future = asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop)
            result = future.result()
        except (TimeoutError, concurrent.futures.TimeoutError):
            self._kill()
            raise PlayerError("hang", f"no move within {request.timeout_s:.1f}s") from None
        except chess.engine.EngineTerminatedError as exc:
            self._kill()
            raise PlayerError("crash", str(exc) or "engine process died") from None
        except chess.engine.EngineError as exc:
            self._kill()
            raise PlayerError("illegal", str(exc)) from None
        except RuntimeError as exc:  # event loop already gone: the process died
            self._kill()
            raise PlayerError("crash", str(exc) or "engine process died") from None
        score_cp = None
        pov = result.info.get("score")
        if pov is not None:
            score_cp = pov.relative.score(mate_score=MATE_CP)
        depth = result.info.get("depth")
        return MoveReply(result.move, score_cp, depth)

    def abort(self) -> None:
        """Kill the engine process: the game in progress is being abandoned.

        Only the process is killed here; the pending ``play`` then fails with
        EngineTerminatedError in the worker, which closes the engine cleanly.
        """
        self.healthy = False
        engine = self.engine
        if engine is None:
            return
        # A closed event loop means the process is already gone.
        with contextlib.suppress(RuntimeError):
            engine.protocol.loop.call_soon_threadsafe(_kill_process, engine.transport)

    def close(self) -> None:
        """Ask the engine to quit, then make sure the process is gone."""
        with self._lock:
            engine, self.engine = self.engine, None
        if engine is None:
            return
        try:
            engine.quit()
        except Exception:  # a dead or stuck engine: closing below is enough
            pass
        finally:
            engine.close()
