"""A game against the engine for one browser tab: moves, undo, FEN, PGN and live thinking."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import chess
import chess.pgn

from plies.agents.spec import PlayerSpec
from plies.board import BLACK, COLOR_NAMES, WHITE, Board, Color, InvalidFenError, Move
from plies.board.svg import render_board
from plies.engine import Info, Limit
from plies.engine.limits import DEFAULT_MOVETIME_MS
from plies.play.human_game import HumanGame
from plies.web.errors import ApiError
from plies.web.fields import get_bool, get_choice, get_optional_int, get_str
from plies.web.notation import info_json
from plies.web.opponent import Opponent
from plies.web.runner import Emit, Post, RunnerSession, SearchRunner

MAX_MOVETIME_MS = 60_000
MAX_DEPTH = 40
#: Longest game a tab may play: each state carries the whole game (moves, PGN).
MAX_GAME_PLIES = 1000
SIDES = ("white", "black", "none")
#: Longest line of PGN movetext, as the PGN standard asks (python-chess counts the
#: columns a line may reach, the standard the characters it may hold).
PGN_LINE = 80


def _side_color(side: str) -> Color | None:
    """The colour a side name stands for, None for ``none``."""
    return {"white": WHITE, "black": BLACK}.get(side)


class _KnownSanBoard(chess.Board):
    """A python-chess board told the SAN of the game's moves, so writing the PGN of a long
    game does not work every one out again (that is most of the writer's time)."""

    known: tuple[list[chess.Move], list[str]] = ([], [])

    def san(self, move: chess.Move) -> str:
        """The known SAN of the game's next move, else python-chess's own."""
        ply = len(self.move_stack)
        moves, sans = self.known
        if ply < len(moves) and moves[ply] == move:
            return sans[ply]
        return super().san(move)


class _PlayedGame(chess.pgn.Game):
    """A game whose moves' SAN is known (see ``_KnownSanBoard``)."""

    known: tuple[list[chess.Move], list[str]] = ([], [])

    def board(self) -> chess.Board:
        """The start position, on a board that knows the moves' SAN."""
        chess960 = self.headers.get("Variant") == "Chess960"
        board = _KnownSanBoard(self.headers.get("FEN", chess.STARTING_FEN), chess960=chess960)
        board.known = self.known
        return board


def game_pgn(game: HumanGame, engine_name: str = "plies") -> str:
    """The game's record as PGN text (python-chess's writer, lines of at most 80 columns),
    the computer's side named ``engine_name`` and the person's "Player"."""
    names = {chess.WHITE: "Player", chess.BLACK: "Player"}
    if game.computer is not None:
        names[game.computer] = engine_name
    record = _PlayedGame()
    game.record({"Event": "plies serve", "White": names[chess.WHITE],
                 "Black": names[chess.BLACK]}, record)
    record.known = (list(game.board.move_stack), list(game.sans))
    exporter = chess.pgn.StringExporter(columns=PGN_LINE, headers=True, variations=False)
    return record.accept(exporter) + "\n"


def _start_board(choice: Any) -> Board:
    """The start of a new game: standard chess (``None``), Chess960 position ``choice``
    (0-959) or a random one (``"random"``); ``ApiError`` for anything else."""
    from plies.board.chess960 import POSITIONS

    if choice is None:
        return Board()
    if choice == "random":
        return Board.from_chess960_pos(secrets.randbelow(POSITIONS))
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < POSITIONS:
        raise ApiError(f"'chess960' must be a start position 0-{POSITIONS - 1} or \"random\", "
                       f"got {choice!r}")
    return Board.from_chess960_pos(choice)


def castling_aliases(board: Board) -> dict[str, str]:
    """Other ways to write each legal castling move that the board accepts (the king two
    squares over, or onto its rook), each to the move in the board's own notation."""
    aliases: dict[str, str] = {}
    legal = board.legal_moves
    names = {m.uci() for m in legal}
    for move in legal:
        if not board.is_castling(move):
            continue
        king, rank = move.from_square, move.from_square & 56
        kingside = move.to_square > king
        for target in (rank + 6, rank + 7) if kingside else (rank + 2, rank):
            alias = Move(king, target)
            text = alias.uci()
            if text in names or alias == move:
                continue
            try:
                if board.parse_uci(text) == move:
                    aliases[text] = move.uci()
            except ValueError:  # not legal here (IllegalMoveError is a ValueError)
                continue
    return aliases


class WebPlaySession(RunnerSession):
    """One tab's game: the board, which side the engine plays, and its search."""

    def __init__(self, emit: Emit, post: Post, runner: SearchRunner | None = None,
                 opponents: Sequence[tuple[str, PlayerSpec]] = ()) -> None:
        """Start a new game, the engine playing Black; ``emit`` sends JSON to the tab.

        ``opponents`` (name, spec) are the server's configured players the tab may play
        instead of the plies engine.
        """
        super().__init__(emit, post, runner)
        self.opponents = list(opponents)
        self.opponent: Opponent | None = None
        """The configured player playing the engine's side (None: the plies engine)."""
        self._opponent_index: int | None = None
        self._game = 0
        """Counts new games, so a configured player hears when one begins."""
        self.game = HumanGame(chess.Board(), chess.BLACK)
        """The game: its python-chess board, moves, sides and record (as the terminal's)."""
        self.board = Board()
        """The same position on a plies board: what the engine searches and the page draws."""
        self.movetime_ms: int | None = DEFAULT_MOVETIME_MS
        self.depth: int | None = None
        self.flipped = False

    # -- the messages a tab may send ----------------------------------------------

    def handle(self, message: dict[str, Any]) -> None:
        """Act on one message from the tab; ``ApiError`` if it is bad (nothing changes)."""
        kind = get_str(message, "type", max_len=32)
        handler = self._HANDLERS.get(kind)
        if handler is None:
            raise ApiError(f"unknown message type {kind!r}")
        handler(self, message)

    def _state_request(self, message: dict[str, Any]) -> None:
        """Send the current state."""
        self.send_state()

    def _new(self, message: dict[str, Any]) -> None:
        """A new game from the start; ``engine`` names the side the engine plays, ``chess960``
        (optional) a Chess960 start position 0-959 or ``"random"``."""
        side = get_choice(message, "engine", SIDES, "black")
        board = _start_board(message.get("chess960"))
        self._cancel()
        self._restart(board, _side_color(side))
        self.flipped = self.engine_color == WHITE
        self.send_state()
        self._maybe_think()

    def _move(self, message: dict[str, Any]) -> None:
        """The player's move in UCI (``e2e4``, ``e7e8q``)."""
        text = get_str(message, "uci", max_len=8)
        if self.searching:
            raise ApiError("the engine is thinking: wait, or press Move now")
        try:
            move = Move.from_uci(text)
        except ValueError:  # InvalidMoveError
            raise ApiError(f"not a move in UCI notation: {text!r}") from None
        if self.game.over():
            raise ApiError("the game is over: undo, or start a new game")
        if len(self.sans) >= MAX_GAME_PLIES:
            raise ApiError(f"the game has reached {MAX_GAME_PLIES} plies: start a new one")
        if not move:
            raise ApiError(f"illegal move {text}: a null move is not a move here")
        try:
            # Castling also as python-chess reads it: king two squares or onto its rook.
            move = self.board.parse_uci(text)
        except ValueError:  # IllegalMoveError
            raise ApiError(f"illegal move {text}: {self.board.why_illegal(move)}") from None
        self._push(move)
        self.send_state()
        self._maybe_think()

    def _undo(self, message: dict[str, Any]) -> None:
        """Take back the last move, and the engine's reply before it, back to the player."""
        count = self.game.undo_plies()
        if not count:
            raise ApiError("nothing to undo")
        self._cancel()
        for _ in range(count):
            self._pop()
        self.send_state()

    def _fen(self, message: dict[str, Any]) -> None:
        """Set up a position from FEN; the engine waits until asked (Engine move)."""
        text = get_str(message, "fen", max_len=200).strip()
        chess960 = get_bool(message, "chess960", False)
        try:
            board = Board(text, chess960=chess960)
            board.check_playable()  # a kingless or otherwise unplayable position is refused
        except InvalidFenError as exc:
            raise ApiError(f"bad FEN: {exc}") from None
        self._cancel()
        self._restart(board, self.engine_color)
        self.send_state()

    def _settings(self, message: dict[str, Any]) -> None:
        """Think time per move (ms), depth, or until Move now; applies from the next search."""
        movetime = get_optional_int(message, "movetime", 10, MAX_MOVETIME_MS)
        depth = get_optional_int(message, "depth", 1, MAX_DEPTH)
        if get_bool(message, "infinite"):
            movetime, depth = None, None
        elif movetime is None and depth is None:
            raise ApiError("give a movetime (ms), a depth or infinite: true")
        self.movetime_ms, self.depth = movetime, depth
        self.send_state()

    def _flip(self, message: dict[str, Any]) -> None:
        """Turn the board around."""
        self.flipped = not self.flipped
        self.send_state()

    def _go(self, message: dict[str, Any]) -> None:
        """The engine takes the side to move and plays now."""
        if self.searching:
            raise ApiError("the engine is already thinking")
        if self.game.over():
            raise ApiError("the game is over")
        if len(self.sans) >= MAX_GAME_PLIES:
            raise ApiError(f"the game has reached {MAX_GAME_PLIES} plies: start a new one")
        self.engine_color = self.board.turn
        self._think()

    def _stop(self, message: dict[str, Any]) -> None:
        """Make the engine play its best move so far."""
        if self.opponent is not None and self.opponent.busy:
            raise ApiError(f"{self.opponent.name} plays in its own time: wait for its move")
        if not self._runner.searching:
            raise ApiError("the engine is not thinking")
        self._runner.stop()

    def _choose_opponent(self, message: dict[str, Any]) -> None:
        """Play the plies engine (``index`` null) or configured player number ``index``."""
        index = message.get("index")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)
                                  or not 0 <= index < len(self.opponents)):
            raise ApiError(f"'index' must be null (the plies engine) or a configured player "
                           f"0-{len(self.opponents) - 1}, got {index!r}"
                           if self.opponents else
                           "no players are configured (plies serve --player SPEC)")
        self._cancel()
        if self.opponent is not None:
            self.opponent.close()
        self._opponent_index = index
        if index is None:
            self.opponent = None
        else:
            name, spec = self.opponents[index]
            self.opponent = Opponent(spec, name, self._post)
        self.send_state()
        self._maybe_think()

    _HANDLERS: ClassVar[dict[str, Callable[[WebPlaySession, dict[str, Any]], None]]] = {
        "state": _state_request,
        "new": _new,
        "move": _move,
        "undo": _undo,
        "fen": _fen,
        "settings": _settings,
        "flip": _flip,
        "go": _go,
        "stop": _stop,
        "opponent": _choose_opponent,
    }

    # -- the engine ----------------------------------------------------------------

    @property
    def until_stopped(self) -> bool:
        """Whether the engine thinks until Move now (or the server's cap), not to a limit."""
        return self.movetime_ms is None and self.depth is None

    def limit(self) -> Limit:
        """The limit each engine move gets."""
        return Limit(movetime=self.movetime_ms, depth=self.depth, infinite=self.until_stopped)

    def _maybe_think(self) -> None:
        """Start the engine if it is its turn and the game goes on."""
        if (
            self.board.turn == self.engine_color
            and not self.game.over()
            and len(self.sans) < MAX_GAME_PLIES
        ):
            self._think()

    def _think(self) -> None:
        """Start searching the current position (or ask the configured opponent)."""
        if self.opponent is not None:
            # A configured player cannot be told to move now: it gets the default time instead.
            movetime = DEFAULT_MOVETIME_MS if self.until_stopped else self.movetime_ms
            self.opponent.ask(self.board.copy(), movetime, self.depth,
                              self._game, self._on_reply)
            self._emit({"type": "thinking", "thinking": True})
            return
        self._runner.start(self.board, self.limit(), info_json, self._on_info, self._on_done)
        self._emit({"type": "thinking", "thinking": True})

    def _on_info(self, payload: dict[str, Any]) -> None:
        """One finished iteration: show it."""
        self._emit({"type": "info", **payload})

    def _on_done(self, result: Info) -> None:
        """The engine has chosen: play the move."""
        move = result.move
        if move is not None and self.board.is_legal(move):
            self._push(move)
            self._emit({"type": "engine_move", "uci": move.uci(), "san": self.sans[-1]})
        self.send_state()

    def _on_reply(self, reply: Info | None, reason: str) -> None:
        """The configured opponent answered: play its move if legal, else say why not."""
        move = None
        if reply is not None and reply.move:
            if self.board.is_legal(reply.move):
                move = reply.move
            else:
                reason = f"{self.opponent_name} answered an illegal move: {reply.move.uci()}"
        elif reply is not None and reply.resigned:
            reason = f"{self.opponent_name} resigns"
        elif not reason:
            reason = f"{self.opponent_name} offered no move"
        if move is not None:
            self._push(move)
            self._emit({"type": "engine_move", "uci": move.uci(), "san": self.sans[-1]})
        else:
            self._emit({"type": "error", "message": reason})
        self.send_state()

    @property
    def opponent_name(self) -> str:
        """Who plays the engine's side."""
        return "plies" if self.opponent is None else self.opponent.name

    def _cancel(self) -> None:
        """Stop whatever is thinking for the engine's side."""
        self._runner.cancel()
        if self.opponent is not None:
            self.opponent.cancel()

    def _restart(self, board: Board, engine_color: Color | None) -> None:
        """A new game from ``board``'s position, the engine playing ``engine_color``."""
        self._game += 1
        self.board = board
        self.game.restart(chess.Board(board.fen(), chess960=board.chess960), engine_color)

    @property
    def engine_color(self) -> Color | None:
        """The side the engine plays (``WHITE`` is True), None for nobody."""
        return self.game.computer

    @engine_color.setter
    def engine_color(self, color: Color | None) -> None:
        """Let the engine play ``color`` (None: nobody)."""
        self.game.computer = color

    @property
    def sans(self) -> list[str]:
        """The moves played since the start, in SAN."""
        return self.game.sans

    def _push(self, move: Move) -> None:
        """Play a legal ``move`` in the game and on the engine's board."""
        self.game.push(move)
        self.board.push(move)

    def _pop(self) -> None:
        """Take back the last move."""
        self.game.pop()
        self.board.pop()

    @property
    def searching(self) -> bool:
        """Whether this game's engine is searching (or waiting for a slot to)."""
        return self._runner.searching or (self.opponent is not None and self.opponent.busy)

    def close(self) -> None:
        """The tab has gone: stop any search, close a configured opponent."""
        super().close()
        if self.opponent is not None:
            self.opponent.close()

    # -- what the tab shows ---------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the page draws: board SVG, legal moves, moves, PGN, status."""
        board = self.board
        last = board.move_stack[-1] if board.move_stack else None
        over = self.game.over()
        root = board.root()
        return {
            "type": "state",
            "fen": board.fen(),
            "svg": render_board(board, self.flipped, last),
            "turn": COLOR_NAMES[board.turn],
            "legal": [] if over else [m.uci() for m in board.legal_moves],
            "castling_aliases": {} if over else castling_aliases(board),
            "chess960": board.chess960,
            "moves": list(self.sans),
            "start_fen": root.fen(),
            "last_move": last.uci() if last else None,
            "check": board.is_check(),
            "outcome": f"{self.game.result()} ({self.game.reason()})" if over else None,
            "pgn": game_pgn(self.game, self.opponent_name),
            "thinking": self.searching,
            "opponents": [name for name, _ in self.opponents],
            "opponent": self._opponent_index,
            "engine": "none" if self.engine_color is None else COLOR_NAMES[self.engine_color],
            "flipped": self.flipped,
            "movetime": self.movetime_ms,
            "depth": self.depth,
        }

    def send_state(self) -> None:
        """Send the state to the tab."""
        self._emit(self.state())
