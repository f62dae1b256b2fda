"""An outside UCI engine as a player, through ``chess.engine`` with a hard timeout.

A crash, a hang or an illegal reply becomes a :class:`PlayerError` that costs the
engine that game, not the match; options the engine refuses are reported in one line.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading

import chess
import chess.engine

from plies.agents.player import MATE_CP, MovePlayer, MoveReply, MoveRequest, PlayerError
from plies.sandbox import Jail, SandboxError

__all__ = [
    "READY_TIMEOUT_S",
    "UciPlayer",
    "configure_checked",
    "refusal",
    "variant_refusal",
]

# python-chess logs every engine that dies; the arena reports it itself.
logging.getLogger("chess.engine").setLevel(logging.CRITICAL)


def variant_refusal(player: MovePlayer, chess960: bool) -> str | None:
    """Why ``player`` cannot play the match's variant, or None (every ladder agent can)."""
    if not chess960 or not isinstance(player, UciPlayer) or player.engine is None:
        return None
    if "UCI_Chess960" in player.engine.options:
        return None
    return f"{player.engine_name} does not support Chess960 (it has no UCI_Chess960 option)"


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


class UciPlayer(MovePlayer):
    """An outside UCI engine driven through ``chess.engine.SimpleEngine``."""

    def __init__(self, name: str, command: list[str], options: dict[str, str],
                 jail: Jail | None = None) -> None:
        """Start the engine (in ``jail`` if given) and apply ``options``; a failure raises
        PlayerError('start')."""
        self.name = name
        self.command = command
        self.options = options
        self.jail = jail
        self.sandboxed = False
        """True if the running engine is in the sandbox."""
        self._lock = threading.Lock()
        self._game: object = object()
        self.engine: chess.engine.SimpleEngine | None = None
        self.engine_name = ""
        self._start()

    def _start(self) -> None:
        """Launch the process (in its own process group so Ctrl-C does not reach it)."""
        try:
            launch = (self.jail.wrap(self.command, None, None) if self.jail is not None else
                      None)
            command = self.command if launch is None else launch.command
            env = None if launch is None else launch.env
            engine = chess.engine.SimpleEngine.popen_uci(command, setpgrp=True, timeout=10.0,
                                                         env=env)
        except (OSError, chess.engine.EngineError, TimeoutError, SandboxError) as exc:
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
        self.sandboxed = launch is not None and launch.confined
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
        if self.engine is not None and self._worn():
            self._kill()
        if self.engine is None or not self.healthy:
            self._start()
        self._wait_ready()

    def _worn(self) -> bool:
        """True once a sandboxed engine has used half its CPU limit (see Jail.worn)."""
        engine = self.engine
        if self.jail is None or not self.sandboxed or engine is None:
            return False
        pid = engine.transport.get_pid()
        return pid is not None and self.jail.worn(pid)

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
