"""One arena game: the referee loop with clocks, adjudication and failure handling.

The referee keeps its own :class:`plies.Board`, independent of the players, and asks
each side ``player.play(board, limit)`` (:class:`plies.agents.player.Player`) for an
:class:`~plies.engine.limits.Info`.  A game ends
by the rules (checkmate, stalemate, insufficient material, threefold
repetition, fifty moves), by adjudication if enabled (resign, draw, move
limit), by a resignation (a mind's ``0,0``, an xboard engine's ``resign``), or by
a player's fault: a crash (an exception in a mind, a process that died), a hang
(no answer within the move's timeout: the referee calls ``player.stop()``, and a player
that still cannot answer has its process killed), an illegal or
unreadable move, each of which loses the game with the reason recorded: the PGN
``Termination`` tag says which kind of ending ("abandoned", "rules infraction",
"time forfeit"), the game's last comment says why, and ``GameRecord.fault``
flags it as a fault of the loser's.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace

import chess

from plies.agents.player import Player, PlayerError
from plies.arena.clock import Clock, TimeControl
from plies.arena.openings import Opening
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.engine.score import PovScore, score_int


@dataclass(frozen=True)
class Adjudication:
    """Optional early endings; a count of 0 switches a rule off; scores in centipawns from
    the mover's side (a mate counts beyond any of them)."""

    resign_moves: int = 0
    resign_score: int = 600
    draw_after: int = 40
    draw_moves: int = 0
    draw_score: int = 10
    max_moves: int = 0


@dataclass(frozen=True)
class GameSettings:
    """How every game of a match is limited and judged: a time control (the clocks go into
    each move's limit) or a fixed per-move ``limit`` (depth, nodes, movetime), the lag
    forgiven before a flag, the hard timeout of a move without a clock or movetime, and the
    adjudication rules."""

    tc: TimeControl | None = None
    limit: Limit = field(default_factory=Limit)
    time_margin_ms: int = 0
    move_timeout_s: float = 60.0
    adjudication: Adjudication = field(default_factory=Adjudication)


@dataclass(frozen=True)
class MoveRecord:
    """A move the players made (not a book move) and what the mover reported."""

    move: chess.Move
    elapsed_ms: int
    score: PovScore | None = None
    depth: int | None = None


@dataclass
class GameRecord:
    """A finished (or abandoned) game: who, how it started, every move and why it ended."""

    white: str
    black: str
    opening: Opening
    result: str = "*"
    termination: str = "unterminated"
    reason: str = ""
    moves: list[MoveRecord] = field(default_factory=list)
    round: int = 0
    pairing: tuple[int, int] = (0, 1)
    white_index: int = 0
    black_index: int = 1
    final_fen: str = ""
    # The kind of player fault that ended the game ('crash', 'hang', 'illegal', 'start'), if any;
    # the faulty player is the loser (see ``faulty_index``).
    fault: str = ""

    @property
    def finished(self) -> bool:
        """True when the game has a result (not abandoned by Ctrl-C)."""
        return self.result != "*"

    @property
    def faulty_index(self) -> int | None:
        """The spec index of the player whose fault ended the game, or None."""
        if not self.fault or self.result == "*":
            return None
        if self.result == "1/2-1/2":  # a time forfeit drawn against a bare king: named first
            return self.black_index if self.reason.startswith("Black") else self.white_index
        return self.black_index if self.result == "1-0" else self.white_index

    def points_for(self, index: int) -> float:
        """Points the player with spec ``index`` scored (1, 0.5 or 0)."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if (index == self.white_index) == white_won else 0.0


_COLOR_NAME = {chess.WHITE: "White", chess.BLACK: "Black"}


def rules_ending(board: Board) -> tuple[str, str, str] | None:
    """(result, PGN termination, reason) if the rules end the game now, else None."""
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        if board.is_repetition(3):
            return ("1/2-1/2", "normal", "Draw by threefold repetition")
        if board.halfmove_clock >= 100:
            return ("1/2-1/2", "normal", "Draw by fifty-move rule")
        return None
    t = outcome.termination
    if t == chess.Termination.CHECKMATE:
        winner = _COLOR_NAME[not board.turn]
        return (outcome.result(), "normal", f"{winner} mates")
    reasons = {
        chess.Termination.STALEMATE: "Draw by stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "Draw by insufficient mating material",
        chess.Termination.SEVENTYFIVE_MOVES: "Draw by fifty-move rule",
        chess.Termination.FIVEFOLD_REPETITION: "Draw by threefold repetition",
    }
    return (outcome.result(), "normal", reasons.get(t, f"Draw ({t.name.lower()})"))


def _loss(side: chess.Color) -> str:
    """The result string of a game that ``side`` lost."""
    return "0-1" if side == chess.WHITE else "1-0"


class _Adjudicator:
    """Counts consecutive scores for the resign and draw rules."""

    def __init__(self, rules: Adjudication) -> None:
        """Start with no history."""
        self.rules = rules
        self.losing = {chess.WHITE: 0, chess.BLACK: 0}
        self.drawish = 0

    def update(self, board: Board, mover: chess.Color, score: int | None) -> tuple[str, str]:
        """Record the mover's score (``score_int`` of its own side); return (result, reason)
        if the game is adjudicated."""
        r = self.rules
        if r.max_moves and board.fullmove_number > r.max_moves:
            return ("1/2-1/2", f"Draw by adjudication: move limit ({r.max_moves})")
        if score is None:
            self.losing[mover] = 0
            self.drawish = 0
            return ("", "")
        self.losing[mover] = self.losing[mover] + 1 if score <= -r.resign_score else 0
        if r.resign_moves and self.losing[mover] >= r.resign_moves:
            return (_loss(mover), f"{_COLOR_NAME[mover]} resigns (adjudication)")
        if board.fullmove_number >= r.draw_after and abs(score) <= r.draw_score:
            self.drawish += 1
        else:
            self.drawish = 0
        # Both sides must agree, so count plies: draw_moves moves of each side.
        if r.draw_moves and self.drawish >= 2 * r.draw_moves:
            return ("1/2-1/2", "Draw by adjudication")
        return ("", "")


def move_limit(settings: GameSettings, clock: Clock | None, side: chess.Color) -> Limit:
    """The limit of ``side``'s next move: the fixed one, with both clocks (and the mover's
    moves to the next time control) when there is a clock."""
    if clock is None:
        return settings.limit
    inc = clock.tc.increment_ms
    return replace(
        settings.limit, wtime=clock.remaining(0), btime=clock.remaining(1), winc=inc,
        binc=inc, movestogo=clock.moves_to_go(0 if side == chess.WHITE else 1),
    )  # fmt: skip


def _timeout(settings: GameSettings, clock: Clock | None, side: chess.Color) -> float:
    """Seconds after which a silent player is declared hung."""
    if clock is not None:
        me = 0 if side == chess.WHITE else 1
        # Past its clock the mover has lost anyway; allow a little for lag.
        return max(0.0, clock.remaining(me) + settings.time_margin_ms) / 1000.0 + 0.5
    if settings.limit.movetime is not None:
        return settings.limit.movetime / 1000.0 + max(1.0, settings.time_margin_ms / 1000.0)
    return settings.move_timeout_s


def _ask(player: Player, board: Board, limit: Limit, timeout_s: float) -> Info:
    """``player.play`` under the hard timeout: past it the referee calls ``player.stop()``;
    a player that then fails is reported as hung, whatever its error says."""
    fired = threading.Event()

    def expire() -> None:
        """Mark the timeout before stopping: ``play`` may fail while ``stop`` still runs."""
        fired.set()
        player.stop()

    timer = threading.Timer(timeout_s, expire)
    timer.daemon = True
    timer.start()
    try:
        return player.play(board, limit)
    except PlayerError as exc:
        if fired.is_set():  # stopped by the referee: its own words say why
            raise PlayerError("hang", f"no move within {timeout_s:g}s") from exc
        raise
    finally:
        timer.cancel()


def play_game(
    white: Player,
    black: Player,
    opening: Opening,
    settings: GameSettings,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> GameRecord:
    """Play one game to its end and return the record (result '*' if ``stop`` was set)."""
    record = GameRecord(white=white.name, black=black.name, opening=opening)
    board = opening.board()
    players = {chess.WHITE: white, chess.BLACK: black}
    for side, player in players.items():
        if stop is not None and stop.is_set():  # no engine (re)start for a game never played
            return _finish(record, board, "*", "unterminated", "Match interrupted")
        try:
            player.new_game(None if seed is None else seed * 2 + (0 if side else 1))
        except PlayerError as exc:
            if stop is not None and stop.is_set():  # aborted by the match, not its own fault
                return _finish(record, board, "*", "unterminated", "Match interrupted")
            record.fault = exc.kind
            return _finish(record, board, _loss(side), "abandoned",
                           f"{_COLOR_NAME[side]} ({player.name}) failed to start: {exc.detail}")
    clock = Clock(settings.tc, settings.time_margin_ms) if settings.tc is not None else None
    adjudicator = _Adjudicator(settings.adjudication)
    while True:
        if stop is not None and stop.is_set():
            return _finish(record, board, "*", "unterminated", "Match interrupted")
        ending = rules_ending(board)
        if ending is not None:
            return _finish(record, board, *ending)
        side = board.turn
        player = players[side]
        who = f"{_COLOR_NAME[side]} ({player.name})"
        limit = move_limit(settings, clock, side)
        started = time.perf_counter()
        try:
            info = _ask(player, board.copy(), limit, _timeout(settings, clock, side))
        except PlayerError as exc:
            if stop is not None and stop.is_set():
                return _finish(record, board, "*", "unterminated", "Match interrupted")
            record.fault = exc.kind
            if exc.kind == "hang" and clock is not None:
                return _flag(record, board, side, f"{who} loses on time (no reply, engine killed)")
            termination = "rules infraction" if exc.kind == "illegal" else "abandoned"
            text = {"crash": "crashed", "hang": "hung", "illegal": "made an illegal move"}
            verb = text.get(exc.kind, "failed")
            return _finish(record, board, _loss(side), termination, f"{who} {verb}: {exc.detail}")
        elapsed_ms = round((time.perf_counter() - started) * 1000)
        if stop is not None and stop.is_set():
            return _finish(record, board, "*", "unterminated", "Match interrupted")
        if clock is not None and not clock.spend(0 if side == chess.WHITE else 1, elapsed_ms):
            return _flag(record, board, side, f"{who} loses on time")
        if info.resigned and info.move is None:
            return _finish(record, board, _loss(side), "normal", f"{who} resigns")
        move = info.move
        if not move or not isinstance(move, chess.Move) or move not in board.legal_moves:
            # A null move (``0000``) is python-chess's "no move" too.
            shown = "no move" if not move else (
                move.uci() if isinstance(move, chess.Move) else repr(move))
            record.fault = "illegal"
            return _finish(record, board, _loss(side), "rules infraction",
                           f"{who} made an illegal move: {shown}")
        board.push(move)
        record.moves.append(MoveRecord(move, elapsed_ms, info.score, info.depth or None))
        mover_score = None if info.score is None else score_int(info.score.relative)
        result, reason = adjudicator.update(board, side, mover_score)
        if result and rules_ending(board) is None:
            return _finish(record, board, result, "adjudication", reason)


def _flag(record: GameRecord, board: Board, side: chess.Color, reason: str) -> GameRecord:
    """Time forfeit, drawn instead when the opponent could never mate (FIDE 6.9)."""
    if board.has_insufficient_material(not side):
        return _finish(record, board, "1/2-1/2", "time forfeit",
                       reason + "; draw, the opponent cannot mate")
    return _finish(record, board, _loss(side), "time forfeit", reason)


def _finish(
    record: GameRecord, board: Board, result: str, termination: str, reason: str
) -> GameRecord:
    """Fill in the ending and return the record."""
    record.result = result
    record.termination = termination
    record.reason = reason
    record.final_fen = board.fen()
    return record
