"""``uci:COMMAND``: an outside UCI engine as a player, spoken to over plain pipes.

The engine runs in a child process started by :mod:`plies.agents.process` (in the
sandbox when the spec asks for it). The client writes ``position``/``go`` in one write
and reads the answer with a blocking ``select``, so nearly all the CPU goes to the
engine even at a few milliseconds per search (datagen's many short searches). It reads
the ``info`` lines into an :class:`~plies.engine.limits.Info` as python-chess's client
does (the fields of the last line of the best line win; a ``score mate 3`` is
``Mate(3)``), plays Chess960 through ``UCI_Chess960``, keeps pondering off, and checks
options before and after setting them: an option the engine does not declare, a value
of the wrong type or out of range, or a line in which the engine refuses it, is one
line of PlayerError('start'). A crash, a hang or an unreadable reply becomes a
PlayerError that costs the engine that game, not the match.
"""

from __future__ import annotations

import contextlib
import functools
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import chess

from plies.agents.player import PlayerError
from plies.agents.process_player import EngineProcessPlayer
from plies.engine.limits import Info
from plies.engine.score import Cp, Mate, PovScore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from plies.board import Board
    from plies.engine.limits import Limit
    from plies.sandbox import Jail

__all__ = [
    "HANDSHAKE_TIMEOUT_S",
    "READY_TIMEOUT_S",
    "UciEngine",
    "UciOption",
    "go_command",
    "read_info",
    "refusal",
    "variant_refusal",
]

#: How long an engine may take to answer ``uci`` with ``uciok``.
HANDSHAKE_TIMEOUT_S = 10.0
#: How long an engine may take to answer ``isready`` (first runs may load or compile).
READY_TIMEOUT_S = 300.0

REFUSAL_MARKS = ("option unchanged", "no such option", "unknown option", "error", "invalid",
                 "not found", "cannot", "failed")  # fmt: skip
"""Words in what an engine prints after ``setoption`` that mean it refused the option
(plies says "option unchanged"/"no such option"; Stockfish "No such option")."""

#: Options the client keeps as python-chess's does, unless the spec sets them.
MANAGED = {"ponder": "false", "uci_analysemode": "false"}


def refusal(lines: Iterable[str]) -> str | None:
    """The first line an engine printed in answer to ``setoption`` that refuses it, if any."""
    for line in lines:
        if any(mark in line.lower() for mark in REFUSAL_MARKS):
            return line.strip()
    return None


_OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


@dataclass(frozen=True)
class UciOption:
    """One ``option`` an engine declares: its name, type, default and allowed values."""

    name: str
    type: str
    default: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> UciOption | None:
        """Read ``option name N type T [default D] [min A max B] [var V ...]``; None if not."""
        fields: dict[str, str] = {}
        choices: list[str] = []
        key = ""
        for token in line.split(" ")[1:]:
            if token in _OPTION_WORDS and (token == "var" or token not in fields):
                key = token
                if key == "var":
                    choices.append("")
                else:
                    fields[key] = ""
            elif key == "var":
                choices[-1] = f"{choices[-1]} {token}".strip()
            elif key:
                fields[key] = f"{fields[key]} {token}".strip()
        if not fields.get("name") or "type" not in fields:
            return None
        bounds: dict[str, int | None] = {}
        for bound in ("min", "max"):
            try:
                bounds[bound] = int(fields[bound]) if bound in fields else None
            except ValueError:
                bounds[bound] = None
        return cls(fields["name"], fields["type"].lower(), fields.get("default", ""),
                   bounds["min"], bounds["max"], tuple(choices))

    def value(self, text: str) -> str:
        """``text`` as this option's value in a ``setoption`` line; ValueError with why not."""
        if self.type == "check":
            low = text.strip().lower()
            if low not in ("true", "false"):
                raise ValueError(f"option {self.name!r} is true or false, not {text!r}")
            return low
        if self.type == "spin":
            try:
                number = int(text)
            except ValueError:
                raise ValueError(f"option {self.name!r} is a number, not {text!r}") from None
            if (self.min is not None and number < self.min) or (
                    self.max is not None and number > self.max):
                raise ValueError(f"option {self.name!r} is {self.min}..{self.max}, not {number}")
            return str(number)
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            shown = ", ".join(self.choices)
            raise ValueError(f"option {self.name!r} is one of {shown}, not {text!r}")
        return text


def variant_refusal(player: object, chess960: bool) -> str | None:
    """Why ``player`` cannot play the match's variant, or None (every ladder agent can)."""
    if not chess960 or not isinstance(player, UciEngine) or player.supports_chess960:
        return None
    return f"{player.engine_name} does not support Chess960 (it has no UCI_Chess960 option)"


@functools.lru_cache(maxsize=256)
def go_command(limit: Limit) -> str:
    """The ``go`` line for ``limit`` (clocks, depth, nodes, move time, mate, infinite)."""
    parts = ["go"]
    if limit.wtime is not None or limit.btime is not None:
        white = limit.wtime if limit.wtime is not None else limit.btime
        black = limit.btime if limit.btime is not None else limit.wtime
        parts += ["wtime", str(max(0, white or 0)), "btime", str(max(0, black or 0))]
        parts += ["winc", str(limit.winc or 0), "binc", str(limit.binc or 0)]
        if limit.movestogo:
            parts += ["movestogo", str(limit.movestogo)]
    for word, value in (("depth", limit.depth), ("nodes", limit.nodes),
                        ("movetime", limit.movetime), ("mate", limit.mate)):
        if value is not None:
            parts += [word, str(value)]
    if limit.infinite:
        parts.append("infinite")
    return " ".join(parts)


# ``info`` fields holding one int, with the Info field each fills.
_INT_FIELDS = {"depth": "depth", "seldepth": "seldepth", "nodes": "nodes", "nps": "nps",
               "time": "time_ms", "hashfull": "hashfull", "tbhits": "tbhits",
               "multipv": "multipv"}  # fmt: skip
# Fields whose one argument the client skips.
_SKIPPED = frozenset({"currmove", "currmovenumber", "cpuload", "ebf", "sbhits"})
# Where a ``pv`` ends (the words a UCI engine may write after it).
_PV_END = frozenset({*_INT_FIELDS, *_SKIPPED, "score", "wdl", "string", "refutation",
                     "currline", "lowerbound", "upperbound"})  # fmt: skip


def _info_fields(line: str, fields: dict[str, Any]) -> None:
    """Add what the ``info`` line says to ``fields`` (raw: the pv as UCI texts)."""
    # This runs for every search of datagen: the pv (last, as engines write it) is split
    # off first, and the rest read with one iterator.
    head, _, pv = line.partition(" pv ")
    tokens = iter(head.split())
    next(tokens, None)  # "info"
    for token in tokens:
        name = _INT_FIELDS.get(token)
        if name is not None:
            try:
                fields[name] = int(next(tokens, ""))
            except ValueError:
                continue
        elif token == "score":
            kind, value = next(tokens, ""), next(tokens, "")
            if kind in ("cp", "mate"):
                try:
                    fields["score"] = (kind, int(value))
                except ValueError:
                    continue
                fields["bound"] = ""
        elif token in ("lowerbound", "upperbound"):
            fields["bound"] = token
        elif token == "wdl":
            try:
                fields["wdl"] = (int(next(tokens, "")), int(next(tokens, "")),
                                 int(next(tokens, "")))
            except ValueError:
                continue
        elif token in _SKIPPED:
            next(tokens, None)
        elif token in ("string", "refutation", "currline"):
            return  # the rest is text, or moves of a line that is not the best
    if pv:
        moves = pv.split()
        for i, text in enumerate(moves):
            if text in _PV_END:
                if text in ("string", "refutation", "currline"):
                    del moves[i:]
                    break
                # A field written after the pv: read it as the rest of the line.
                _info_fields("info " + " ".join(moves[i:]), fields)
                del moves[i:]
                break
        fields["pv"] = moves


# Moves read from UCI text, kept: an engine names the same few thousand moves again and
# again, and python-chess's Move.from_uci costs more than the rest of reading a line.
_MOVES: dict[str, chess.Move] = {}
_MOVES_KEPT = 20_000


def uci_move(text: str) -> chess.Move:
    """The move UCI ``text`` spells (ValueError if none); the same object for the same text."""
    move = _MOVES.get(text)
    if move is None:
        move = chess.Move.from_uci(text)
        if len(_MOVES) >= _MOVES_KEPT:
            _MOVES.clear()
        _MOVES[text] = move
    return move


def _as_info(fields: dict[str, Any], white: bool, **extra: Any) -> Info:
    """The Info ``fields`` (as :func:`_info_fields` gathered them, taken over) describe."""
    score = fields.pop("score", None)
    if score is not None:
        kind, value = score
        fields["score"] = PovScore(Mate(value) if kind == "mate" else Cp(value), white)
    pv = []
    for text in fields.pop("pv", ()):
        try:
            pv.append(uci_move(text))
        except ValueError:
            break
    return Info(pv=pv, **fields, **extra)


def read_info(lines: Sequence[str], white: bool, **extra: Any) -> Info:
    """What a search's ``info`` lines say, merged as python-chess merges them: each field
    from the last line of the best line (``multipv 1``) giving it; ``white``: whose move it
    was; ``extra``: more fields (the move)."""
    fields: dict[str, Any] = {}
    # From the last line back: the last line of a search usually gives every field.
    for line in reversed(lines):
        if not line.startswith("info ") or line.startswith("info string"):
            continue
        found: dict[str, Any] = {}
        _info_fields(line, found)
        if found.get("multipv", 1) != 1:
            continue
        for key, value in found.items():
            fields.setdefault(key, value)
        if "score" in fields and "depth" in fields and "pv" in fields:
            break
    return _as_info(fields, white, **extra)


def _bestmove(line: str, board: Board) -> tuple[chess.Move | None, chess.Move | None]:
    """The move and ponder move of a ``bestmove`` line (the referee judges the move)."""
    tokens = line.split()
    if len(tokens) < 2 or tokens[1] == "(none)":
        return None, None
    try:
        move = uci_move(tokens[1])
    except ValueError:
        raise PlayerError("illegal", f"unreadable move {tokens[1]!r}") from None
    if board.chess960:
        with contextlib.suppress(ValueError):
            move = board.parse_uci(tokens[1])  # the king's two-square castling, if written so
    ponder = None
    if len(tokens) >= 4 and tokens[2] == "ponder":
        with contextlib.suppress(ValueError):
            ponder = uci_move(tokens[3])
    return move, ponder


class UciEngine(EngineProcessPlayer):
    """A UCI engine driven by ``position``/``go`` over its standard input and output."""

    def __init__(self, name: str, command: list[str], options: Mapping[str, str],
                 jail: Jail | None = None) -> None:
        """Start the engine (in ``jail`` if given) and apply ``options``; a failure raises
        PlayerError('start')."""
        super().__init__(name, command, options, jail)
        self.declared: dict[str, UciOption] = {}
        """The options the engine declares, by lower-case name."""
        self._root: tuple[Board, str] | None = None
        self._moves: list[str] = []
        self._last_move: chess.Move | None = None
        self._chess960 = False
        self._start()

    @property
    def supports_chess960(self) -> bool:
        """Whether the engine declares ``UCI_Chess960``."""
        return "uci_chess960" in self.declared

    def _start(self) -> None:
        """Launch the process (own process group: Ctrl-C is the parent's) and configure it."""
        process = self._launch(self.command, stderr=subprocess.DEVNULL)
        self._root, self._chess960 = None, False
        with self._starting():
            process.send("uci")
            self.declared = {}
            for line in process.read_until("uciok", HANDSHAKE_TIMEOUT_S):
                if line.startswith("id name "):
                    self.engine_name = line[8:].strip()
                elif line.startswith("option "):
                    option = UciOption.parse(line)
                    if option is not None:
                        self.declared[option.name.lower()] = option
            chosen = {key.lower() for key in self.options}
            managed = {key: value for key, value in MANAGED.items()
                       if key in self.declared and key not in chosen
                       and self.declared[key].default.lower() != value}  # fmt: skip
            self._configure({**managed, **self.options})
        self.engine_name = self.engine_name or self.name
        self.healthy = True

    def _configure(self, options: Mapping[str, str]) -> None:
        """Send ``setoption`` for each option and wait for ``readyok``; PlayerError('start')
        for an option not declared, a value it cannot take, or a line refusing it."""
        lines = []
        for key, value in options.items():
            option = self.declared.get(key.lower())
            if option is None:
                raise PlayerError("start", f"{self.name}: no option {key!r}")
            try:
                text = option.value(value)
            except ValueError as exc:
                raise PlayerError("start", f"{self.name}: {exc}") from None
            lines.append(f"setoption name {option.name} value {text}")
        process = self._running()
        process.send("\n".join([*lines, "isready"]))
        refused = refusal(process.read_until("readyok", READY_TIMEOUT_S))
        if refused is not None:
            raise PlayerError("start", f"{self.name} refused an option: {refused}")

    def reconfigure(self, options: Mapping[str, str]) -> None:
        """Set ``options`` now and after any restart; PlayerError('start') if refused."""
        self.options = {**self.options, **options}
        if self._process is None or not self.healthy:
            return  # applied when the next game starts the engine again
        with self._starting("never answered isready"):
            self._configure(options)

    def new_game(self, seed: int | None = None) -> None:
        """Tell the engine a new game starts and wait until it is ready."""
        self.last = None
        self._root = None
        self._restart_if_broken()
        with self._starting("never answered isready"):
            process = self._running()
            process.send("ucinewgame\nisready")
            process.read_until("readyok", READY_TIMEOUT_S)

    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """Send ``position``/``go`` and read up to ``bestmove`` (a hang past ``timeout_s``)."""
        white = bool(board.turn)
        with self._answering(timeout_s):
            process = self._running()
            variant = self._variant(board)
            # One write for all lines: each write wakes the engine.
            process.send(variant + self._position(board) + "\n" + go_command(limit))
            if self.on_info is None:
                lines = process.read_until("bestmove", timeout_s)
            else:
                lines = self._read_reporting(timeout_s, white, self.on_info)
            move, ponder = _bestmove(lines[-1], board)
        info = read_info(lines, white, move=move, ponder=ponder)
        self.last = info
        return info

    def _read_reporting(self, timeout_s: float | None, white: bool,
                        report: Callable[[Info], None]) -> list[str]:
        """The lines up to ``bestmove``, each ``info`` line with a score reported as read."""
        found: list[str] = []
        for line in self._running().lines(timeout_s):
            found.append(line)
            if line.startswith("bestmove"):
                return found
            if line.startswith("info ") and " score " in line:
                info = read_info([line], white)
                if info.score is not None:  # the best line's (read_info drops the others)
                    report(info)
        return found  # pragma: no cover - lines() ends by raising

    def _interrupt(self) -> None:
        """``stop``: the engine answers ``bestmove`` with what it has."""
        self._running().send("stop")

    def _variant(self, board: Board) -> str:
        """The ``setoption`` line switching Chess960 on or off, if the game changes it."""
        chess960 = bool(board.chess960)
        if chess960 == self._chess960:
            return ""
        if chess960 and not self.supports_chess960:
            raise PlayerError("start", f"{self.engine_name} does not support Chess960 "
                              "(it has no UCI_Chess960 option)")
        self._chess960 = chess960
        if not self.supports_chess960:
            return ""
        return f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}\n"

    def _position(self, board: Board) -> str:
        """The ``position`` command for ``board``: its root and the moves played since."""
        # The referee plays a game on one board, adding moves: its root's FEN is worked
        # out once per game, and only new moves are spelled out.
        stack = board.move_stack
        cached = self._root is not None and self._root[0] is board
        n = len(self._moves)
        if not cached or len(stack) < n or (n and stack[n - 1] != self._last_move):
            root = board.root().fen(shredder=bool(board.chess960))
            start = "startpos" if root == chess.STARTING_FEN else f"fen {root}"
            self._root = (board, start)
            self._moves, n = [], 0
        self._moves.extend(m.uci() for m in stack[n:])
        self._last_move = stack[-1] if stack else None
        assert self._root is not None
        start = self._root[1]
        return f"position {start} moves {' '.join(self._moves)}" if stack else f"position {start}"

    def _kill(self) -> None:
        """End the engine hard; the next game starts a new one (and sets the variant again)."""
        self._root, self._chess960 = None, False
        super()._kill()
