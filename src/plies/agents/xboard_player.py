"""``xboard:COMMAND``: an outside engine speaking xboard/CECP (Fairy-Max, GNU Chess, Crafty...).

python-chess's xboard client insists on the ``setboard`` feature, which
Fairy-Max and other old engines lack, so plies speaks the protocol itself,
over pipes like :mod:`plies.agents.uci_engine`: the engine is kept in ``force``
mode, given the moves played since it last moved, the time (``level``,
``time``/``otim``, ``st`` or ``sd``) and ``go``; it answers ``move X``, and ``?``
(``stop()``) makes it move now.  Its thinking lines (``post``) are read into an
:class:`~plies.engine.limits.Info` (a score of 100000 + N is a mate in N moves, as
the protocol writes it).  A position other than the standard start needs
``setboard``.  ``resign`` (or a result claimed for its own loss) resigns; a crash,
a hang, an illegal move or an ``Error`` line costs the engine the game.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import chess

from plies.agents.player import PlayerError
from plies.agents.process import NoReplyError
from plies.agents.process_player import EngineProcessPlayer
from plies.engine.limits import Info
from plies.engine.score import Cp, Mate, PovScore, Score

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Limit
    from plies.sandbox import Jail

# How long an engine may take to list its features after ``protover 2`` (the protocol's
# own rule: an engine that says nothing in 2 s is a version 1 engine).
FEATURE_WAIT_S = 2.0
# How long it may take to answer a ``ping`` (first starts may load tables).
READY_TIMEOUT_S = 300.0
# Depth-only searches: the time per move the engine is told it has (it stops at the depth).
DEPTH_ONLY_TIME_S = 3600
# The protocol's mate scores: 100000 + N for a mate in N moves (-100000 - N: mated).
XBOARD_MATE = 100_000

_FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')


def parse_features(line: str) -> dict[str, str]:
    """The ``name=value`` pairs of a ``feature`` line (quotes removed)."""
    return {k: v.strip('"') for k, v in _FEATURE.findall(line)}


def post_score(value: int) -> Score:
    """A thinking line's score: centipawns, or a mate in N moves written 100000 + N."""
    if abs(value) > XBOARD_MATE:
        moves = abs(value) - XBOARD_MATE
        return Mate(moves if value > 0 else -moves)
    return Cp(value)


def parse_post(line: str, white: bool) -> Info | None:
    """What a thinking line ``depth score time nodes pv`` says (``white``: whose move)."""
    tokens = line.split()
    if len(tokens) < 4:
        return None
    try:
        depth, value = int(tokens[0].rstrip(".&")), int(tokens[1])
        time_cs, nodes = int(tokens[2]), int(tokens[3])
    except ValueError:
        return None
    return Info(score=PovScore(post_score(value), white), depth=depth, time_ms=10 * time_cs,
                nodes=nodes)


class XboardPlayer(EngineProcessPlayer):
    """An xboard/CECP engine driven in ``force`` mode, one ``go`` per move."""

    def __init__(self, name: str, command: list[str], options: dict[str, str],
                 jail: Jail | None = None) -> None:
        """Start the engine (in ``jail`` if given) and apply ``options`` (``option
        NAME=VALUE``); PlayerError('start')."""
        super().__init__(name, command, options, jail)
        self.features: dict[str, str] = {}
        self._board: Board | None = None
        self._sent: list[chess.Move] = []
        self._ping = 0
        self._start()

    def _start(self) -> None:
        """Launch the engine, read its features and set the options."""
        self._launch(self.command)
        with self._starting():
            self._send("xboard", "protover 2")
            self._read_features()
            declared = self._declared_options()
            for key, value in self.options.items():
                if key not in declared:
                    raise PlayerError("start", f"{self.name}: no option {key!r}")
                self._send(f"option {key}={value}")
            self._wait_ready()
        self.engine_name = self.features.get("myname", "") or self.name
        self.healthy = True

    def _send(self, *lines: str) -> None:
        """Write ``lines`` to the engine in one go."""
        self._running().send("\n".join(lines))

    def _read(self, timeout_s: float | None) -> str:
        """The engine's next line."""
        return self._running().read_line(timeout_s).strip()

    def _read_features(self) -> None:
        """Collect ``feature`` lines until ``done=1`` (or ``FEATURE_WAIT_S`` of silence)."""
        waiting = FEATURE_WAIT_S
        while True:
            try:
                line = self._read(waiting)
            except NoReplyError:
                if self.features.get("done") == "0":
                    raise
                return
            if not line.startswith("feature "):
                continue
            found = parse_features(line)
            for key in found:
                if key != "option":
                    self._send(f"accepted {key}")
            if "option" in found:
                self.features.setdefault("options", "")
                self.features["options"] += found["option"] + "\n"
                found.pop("option")
            self.features.update(found)
            if found.get("done") == "0":
                waiting = READY_TIMEOUT_S
            if found.get("done") == "1":
                return

    def _declared_options(self) -> set[str]:
        """Names of the options the engine declared (``feature option="NAME -type ..."``)."""
        names = set()
        for entry in self.features.get("options", "").splitlines():
            name, _, _ = entry.partition(" -")
            names.add(name.strip())
        return names

    def _wait_ready(self) -> None:
        """``ping`` and wait for the ``pong`` (engines without ping: nothing to wait for)."""
        if self.features.get("ping") != "1":
            return
        self._ping += 1
        self._send(f"ping {self._ping}")
        while self._read(READY_TIMEOUT_S) != f"pong {self._ping}":
            pass

    def new_game(self, seed: int | None = None) -> None:
        """Start a fresh engine if the last one broke; the game itself is set up on move one."""
        self.last = None
        self._board = None
        self._restart_if_broken()
        with self._starting("never answered ping"):
            self._wait_ready()

    def _setup(self, board: Board) -> list[str]:
        """Commands bringing the engine from where it is to ``board`` (in force mode)."""
        stack = board.move_stack
        n = len(self._sent)
        commands = []
        if self._board is not board or len(stack) < n or stack[:n] != self._sent:
            commands += ["new", "force", "post", "easy"]
            root = board.root()
            if board.chess960:
                commands.append("variant fischerandom")
            if root.fen() != chess.STARTING_FEN or board.chess960:
                if self.features.get("setboard") != "1":
                    raise PlayerError("start", f"{self.name} cannot be given a position "
                                      "(it has no setboard feature)")
                commands.append(f"setboard {root.fen(shredder=board.chess960)}")
            self._board, self._sent, n = board, [], 0
        else:
            commands.append("force")
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        if board.chess960:  # castling is written O-O there: the moves need their position
            replay = board.root()
            for move in stack:
                if len(replay.move_stack) >= n:
                    commands.append(prefix + replay.xboard(move))
                replay.push(move)
        else:
            commands += [prefix + move.uci() for move in stack[n:]]
        self._sent = list(stack)
        return commands

    def _time_commands(self, board: Board, limit: Limit) -> list[str]:
        """``level``/``time``/``otim``, ``st`` or ``sd`` for the mover's limit."""
        white = bool(board.turn)
        mine, theirs = (limit.wtime, limit.btime) if white else (limit.btime, limit.wtime)
        commands = []
        if mine is not None:
            base_s = max(1, mine // 1000)
            inc = ((limit.winc if white else limit.binc) or 0) / 1000
            moves = limit.movestogo or 0
            commands.append(f"level {moves} {base_s // 60}:{base_s % 60:02d} {inc:g}")
            opp = theirs if theirs is not None else mine
            commands += [f"time {max(1, mine // 10)}", f"otim {max(1, opp // 10)}"]
        elif limit.movetime is not None:
            commands.append(f"st {max(1, math.ceil(limit.movetime / 1000))}")
        elif limit.depth is not None:
            commands.append(f"st {DEPTH_ONLY_TIME_S}")
        if limit.depth is not None:
            commands.append(f"sd {limit.depth}")
        return commands

    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """Set the position and the time, ``go``, and read lines until ``move``."""
        with self._answering(timeout_s):
            self._send(*self._setup(board), *self._time_commands(board, limit), "go")
            info = self._answer(board, timeout_s)
        self.last = info
        return info

    def _interrupt(self) -> None:
        """``?``: the engine moves now."""
        self._send("?")

    def _answer(self, board: Board, timeout_s: float | None) -> Info:
        """Read the engine's lines up to its move (or resignation)."""
        white = bool(board.turn)
        seen = Info()
        lines = self._running().lines(timeout_s)
        while True:
            line = next(lines)
            if line.startswith("move "):
                move = self._parse_move(board, line[5:].strip())
                self._sent.append(move)
                return Info(move=move, score=seen.score, depth=seen.depth, nodes=seen.nodes,
                            time_ms=seen.time_ms)
            if line == "resign" or line.startswith(("1-0", "0-1", "1/2-1/2")):
                own_loss = "0-1" if white else "1-0"
                if line == "resign" or line.startswith(own_loss):
                    return Info(resigned=True)
                raise PlayerError("illegal", f"claimed {line!r} in a game that goes on")
            if line.startswith(("Illegal move", "Error")):
                raise PlayerError("illegal", f"refused the position: {line}")
            if line[:1].isdigit():
                post = parse_post(line, white)
                if post is not None:
                    seen = post
                    if self.on_info is not None:
                        self.on_info(post)

    def _parse_move(self, board: Board, text: str) -> chess.Move:
        """The engine's move in coordinate notation (or SAN); PlayerError('illegal') if illegal."""
        try:
            move = chess.Move.from_uci(text)
            if move in board.legal_moves:
                return move
        except ValueError:
            pass
        try:
            return board.parse_san(text)
        except ValueError:
            raise PlayerError("illegal", f"played {text!r}, not a legal move") from None

    def _kill(self) -> None:
        """End the engine hard and forget its board; the next game starts a new one."""
        self._board = None
        super()._kill()
