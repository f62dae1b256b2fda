"""The terminal game: a human against a player, with commands, hints and takebacks.

The terminal game reads one line at a time (a move in SAN or UCI, or a command), so
it works the same at a keyboard and with piped input; end of input quits.
The game itself is kept on a python-chess board: drawing it and checking the
human's moves need no compiled code, so on a first run the board is up at once
while the player (the engine) compiles in a background thread; only the player
sees a plies board, rebuilt from the game for each of its moves.
Bad input never costs anything: one line says what was wrong and the prompt
comes back.  While the player thinks, its depth, score and expected line are
shown (live on a terminal, as one summary line otherwise); every score, the player's
and a hint's, is from White's side and says so (``+0.34``, a mate in 3 ``#3``).
Any :class:`~plies.agents.player.Player` can sit opposite: a ladder player, a user's
mind, a program or an engine; one that fails or resigns loses the game.
"""

from __future__ import annotations

import datetime
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import chess
from rich.console import Console
from rich.live import Live
from rich.text import Text

from plies.agents.book_agent import BookPlayer
from plies.agents.ladder import bounded, warm_up
from plies.agents.player import Player, PlayerError
from plies.compile_notice import FIRST_RUN_COMPILE_S, quiet, watching_compiles
from plies.engine.limits import Info, Limit
from plies.engine.score import score_text
from plies.play.human_game import HumanGame, colour_name
from plies.play.render import render_board

if TYPE_CHECKING:
    from plies.board import Board

# How long the first prompt waits to learn whether the player compiles (a first run
# starts compiling at once) or has loaded (a warm start takes about a second).
WARM_UP_NOTICE_S = 2.0

HELP = """\
Enter a move in SAN (e4, Nf3, O-O, exd5, e8=Q) or UCI (e2e4, e7e8q), or a command
(in Chess960 castle with O-O / O-O-O or, in UCI, the king taking its own rook: b1a1):
  undo        take back your last move (and the reply)
  hint        ask the engine for a move
  flip        turn the board around
  fen         show the position as FEN
  pgn [FILE]  show the game as PGN, or save it to FILE
  resign      give up this game
  new         start a new game
  help        this list
  quit        leave (end of input does the same)"""

def illegal_reason(board: chess.Board, text: str) -> str:
    """Why the move ``text`` (UCI or SAN) is not legal on ``board``, in a few words."""
    from plies.board import Board  # the rules' words live with the board

    ours = Board(board.fen())
    if _UCI_RE.match(text.lower()):
        return ours.why_illegal(chess.Move.from_uci(text.lower())) or "not legal here"
    if text.startswith(("O-O", "0-0")):
        return "castling is not possible here (rights, pieces between, or check)"
    match = _SAN_TARGET.match(text)
    if match is None:
        return "not legal here"
    letter, target = match.group(1), chess.parse_square(match.group(2))
    kind = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
    name = chess.piece_name(kind)
    movers = [m for m in board.pseudo_legal_moves
              if m.to_square == target and board.piece_type_at(m.from_square) == kind]  # fmt: skip
    if not movers:
        return f"no {name} of yours can reach {chess.square_name(target)}"
    return ours.why_illegal(movers[0]) or "not legal here"


_SAN_TARGET = re.compile(r"^([NBRQK])?[a-h]?[1-8]?x?([a-h][1-8])")
_UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_SAN_RE = re.compile(
    r"^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQnbrq])?|O-O(-O)?|0-0(-0)?)[+#]?[!?]*$"
)

def format_score(info: Info) -> str:
    """The score of a search, from White's side whoever searched: ``+0.34 (White's view)``,
    ``#3 (White mates in 3)``, ``#-2 (Black mates in 2)``; ``?`` without one."""
    if info.score is None:
        return "?"
    white = info.score.white()
    text = score_text(white)
    mate = white.mate()
    if mate is not None:
        mating = chess.BLACK if text.startswith("#-") else chess.WHITE
        return f"{text} ({colour_name(mating)} mates in {abs(mate)})"
    return f"{text} (White's view)"


def thought_line(board: chess.Board, info: Info, max_moves: int = 8) -> str:
    """``depth 6  score +0.34 (White's view)  line: Nf3 Nc6 Bb5`` for the side to move in
    ``board`` (the line in SAN, legal part only)."""
    line = []
    b = board.copy()
    for move in info.pv[:max_moves]:
        if not b.is_legal(move):
            break
        line.append(b.san(move))
        b.push(move)
    text = f"depth {info.depth}  score {format_score(info)}"
    if info.nodes:
        text += f"  nodes {info.nodes}"
    if line:
        text += "  line: " + " ".join(line)
    return text


@dataclass
class Settings:
    """What the game was started with (kept for ``new``)."""

    human: str = "white"
    fen: str | None = None
    ascii_only: bool = False
    movetime_ms: int | None = None
    seed: int | None = None
    # Chess960 rules; each game from start position ``chess960_pos`` (None: a seeded random
    # one per game) unless ``fen`` is given.
    chess960: bool = False
    chess960_pos: int | None = None


class TerminalSession:
    """One sitting at the terminal: possibly several games, until ``quit`` or end of input."""

    def __init__(
        self,
        agent: Player,
        settings: Settings,
        console: Console | None = None,
        read_line: Callable[[], str] | None = None,
        hint_agent: Callable[[], Player] | None = None,
    ) -> None:
        """Set up the first game; ``read_line`` returns '' at end of input."""
        self.agent = agent
        self.settings = settings
        self.console = console or Console(highlight=False)
        self.read_line = read_line or _stdin_line
        self._hint_factory = hint_agent
        self._hint_agent: Player | None = None
        self.rng = random.Random(settings.seed)
        self.start_fen = settings.fen or chess.STARTING_FEN
        self.game = HumanGame(chess.Board(self.start_fen, chess960=settings.chess960))
        """The game itself: board, sides, resignation, record."""
        self.human: chess.Color = chess.WHITE
        self.white_at_bottom = True
        self.colour = self.console.is_terminal and not settings.ascii_only
        self._warm_thread: threading.Thread | None = None
        self._warm_error: BaseException | None = None
        self._warm_started = 0.0
        self.chess960_pos: int | None = None
        self._new_game()

    # -- game state --------------------------------------------------------------

    def _new_game(self) -> None:
        """Reset the board and pick the human's colour."""
        choice = self.settings.human
        if choice == "random":
            choice = self.rng.choice(["white", "black"])
        self.human = chess.WHITE if choice == "white" else chess.BLACK
        self.white_at_bottom = self.human == chess.WHITE
        self.start_fen = self._start_fen()
        self.game.restart(chess.Board(self.start_fen, chess960=self.settings.chess960),
                          not self.human)
        self.agent.new_game(self.settings.seed)

    def _start_fen(self) -> str:
        """Where a new game starts: ``--fen``, the Chess960 position asked for (or a random
        one), or the usual start."""
        s = self.settings
        if s.fen or not s.chess960:
            return s.fen or chess.STARTING_FEN
        from plies.board.chess960 import POSITIONS, chess960_fen

        n = s.chess960_pos if s.chess960_pos is not None else self.rng.randrange(POSITIONS)
        self.chess960_pos = n
        return chess960_fen(n)

    def start_note(self) -> str:
        """``Chess960 start position #N.`` for a Chess960 game, else nothing."""
        if not self.settings.chess960:
            return ""
        n = None if self.settings.fen else self.chess960_pos
        return "Chess960 rules." if n is None else f"Chess960 start position #{n}."

    @property
    def board(self) -> chess.Board:
        """The game's board."""
        return self.game.board

    @property
    def resigned(self) -> chess.Color | None:
        """The side that resigned, if one did."""
        return self.game.resigned

    def ending(self) -> str | None:
        """Why the game is over (with the result), or None while it goes on."""
        return self.game.ending()

    def result(self) -> str:
        """PGN result of the game so far."""
        return self.game.result()

    # -- output ------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        """Print one line."""
        self.console.print(Text(text, style=style if self.colour else ""))

    def show(self) -> None:
        """Draw the board with the last move and check status."""
        self.console.print(
            render_board(self.board, self.white_at_bottom, self.settings.ascii_only, self.colour)
        )
        notes = []
        if self.board.move_stack:
            b = self.board.copy()
            last = b.pop()
            mover = "You" if b.turn == self.human else "plies"
            notes.append(f"Last move: {b.san(last)} ({mover})")
        if self.board.is_check():
            notes.append("Check!")
        if notes:
            self.say("   ".join(notes), "bold")

    # -- the loop ----------------------------------------------------------------

    def run(self) -> int:
        """Play until ``quit`` or end of input; return the exit status (0)."""
        note = f" {self.start_note()}" if self.settings.chess960 else ""
        self.say(f"You play {colour_name(self.human)} against {self.agent.name}.{note} "
                 "Type 'help' for commands.")
        shown = False
        while True:
            ending = self.ending()
            if not shown:
                self.show()
                shown = True
                # Load (on a first run: compile) the agent in the background while
                # the human thinks. Started only now: the board is drawn first, not
                # sharing the interpreter with the loading of numba.
                self._start_warm_up()
            if ending is None and self.board.turn != self.human:
                self._agent_move()
                shown = False
                continue
            if ending is not None:
                self.say(f"Game over: {ending}", "bold")
                self.say("Type 'new' to play again, 'undo', 'pgn [FILE]' or 'quit'.")
            prompt = "> " if ending is not None else f"Your move ({colour_name(self.human)}): "
            self.console.print(prompt, end="")
            line = self.read_line()
            if line == "":
                self.console.print()
                self.say("Bye.")
                return 0
            if not self.console.is_terminal:
                self.console.print(line.rstrip("\n"))  # echo piped input so a log reads well
            outcome = self._handle(line.strip(), ending is not None)
            if outcome == "quit":
                self.say("Bye.")
                return 0
            if outcome == "redraw":
                shown = False

    def _handle(self, text: str, over: bool) -> str:
        """Act on one input line; return 'quit', 'redraw' or '' (prompt again)."""
        if not text:
            return ""
        word, _, arg = text.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            return "quit"
        if command == "help":
            self.say(HELP)
            return ""
        if command == "flip":
            self.white_at_bottom = not self.white_at_bottom
            return "redraw"
        if command == "fen":
            self.say(self.board.fen())
            return ""
        if command == "pgn":
            return self._pgn(arg.strip())
        if command == "new":
            self._new_game()
            note = f" {self.start_note()}" if self.settings.chess960 else ""
            self.say(f"New game: you play {colour_name(self.human)}.{note}")
            return "redraw"
        if command == "undo":
            return self._undo()
        if command == "resign":
            if over:
                self.say("The game is already over.")
                return ""
            self.game.resigned = self.human
            return "redraw"
        if command == "hint":
            if over:
                self.say("The game is over; no hint needed.")
                return ""
            self._hint()
            return ""
        if over:
            self.say(f"The game is over; '{text}' is not a command here. Try 'new' or 'help'.")
            return ""
        return self._human_move(text)

    def _human_move(self, text: str) -> str:
        """Parse and play the human's move, or explain in one line why not."""
        looks_uci = bool(_UCI_RE.match(text.lower()))
        try:
            move = self.board.parse_uci(text.lower()) if looks_uci else self.board.parse_san(text)
            if not move:  # python-chess reads "--" and "0000" as a null move: not a move here
                raise chess.InvalidMoveError(f"null move: {text}")
        except ValueError as exc:  # python-chess's Illegal/Invalid/AmbiguousMoveError
            if isinstance(exc, chess.AmbiguousMoveError):
                self.say(f"Ambiguous move: {text} (say which piece, e.g. Nbd2 or R1e2).")
            elif looks_uci or _SAN_RE.match(text):
                self.say(f"Illegal move: {text} ({illegal_reason(self.board, text)}).")
            else:
                self.say(f"Not a move or command: {text!r} (type 'help').")
            return ""
        self.game.push(move)
        return "redraw"

    def _undo(self) -> str:
        """Take back the human's last move and the agent's reply to it."""
        if self.game.resigned is not None:
            self.game.take_back()
            self.say("Resignation withdrawn.")
            return "redraw"
        count = self.game.take_back()
        if not count:
            self.say("Nothing to undo.")
            return ""
        self.say(f"Took back {count} move{'s' if count != 1 else ''}.")
        return "redraw"

    def _start_warm_up(self) -> None:
        """Load the agent in a background thread (once); say so if it takes a while."""
        if self._warm_started:
            return

        compiling = threading.Event()  # numba compiles in the warm-up
        woke = threading.Event()  # a compile began, or the warm-up ended

        def began() -> None:
            """A compile began in the warm-up."""
            compiling.set()
            woke.set()

        def warm() -> None:
            """Thread body: warm the agent up, keeping any error for the game loop."""
            try:
                # The game tells the user itself: no second notice from below.
                with quiet(), watching_compiles(began):
                    warm_up(self.agent)
            except BaseException as exc:  # re-raised where the agent is needed
                self._warm_error = exc
            finally:
                woke.set()

        self._warm_started = time.perf_counter()
        thread = threading.Thread(target=warm, name="play-warm-up", daemon=True)
        self._warm_thread = thread
        thread.start()
        if self.board.turn != self.human:
            return  # the agent moves first: ``_await_agent`` tells what it waits for
        woke.wait(WARM_UP_NOTICE_S)
        if compiling.is_set() and thread.is_alive():
            self.say("Loading the engine in the background (a first run compiles it: about "
                     f"{FIRST_RUN_COMPILE_S} s on 2 cores, more on a busy machine); you can "
                     "move meanwhile.", "dim")  # fmt: skip

    def _await_agent(self) -> None:
        """Wait until the background warm-up is done (saying so, and how long, if not yet)."""
        self._start_warm_up()
        thread = self._warm_thread
        if thread is not None:
            if thread.is_alive():
                so_far = time.perf_counter() - self._warm_started
                self.say(f"Waiting for the engine to load ({so_far:.0f} s so far)...", "dim")
                thread.join()
                total = time.perf_counter() - self._warm_started
                self.say(f"Engine ready after {total:.0f} s.", "dim")
            thread.join()
            self._warm_thread = None
        if self._warm_error is not None:
            error, self._warm_error = self._warm_error, None
            raise error

    def _hint(self) -> None:
        """Suggest a move (from the engine if it is available)."""
        self._await_agent()
        if self._hint_agent is None:
            self._hint_agent = self._hint_factory() if self._hint_factory else self.agent
        hinter = self._hint_agent
        try:
            info = hinter.play(self._agent_board(), Limit(movetime=self.settings.movetime_ms
                                                          or 1000))
        except PlayerError as exc:
            self.say(f"No hint: {exc.detail}")
            return
        if not info.move or not self.board.is_legal(info.move):
            self.say("No hint.")
            return
        extra = f"   {thought_line(self.board, info, 4)}" if info.depth or info.score else ""
        self.say(f"Hint: {self.board.san(info.move)}{extra}")

    def _agent_board(self) -> Board:
        """The game as a plies board (what players search), history included."""
        from plies.board import Board

        return Board.from_chess(self.board)

    def _agent_move(self) -> None:
        """Let the player think (showing its progress) and play its move; a player that
        fails, resigns or answers an illegal move loses the game."""
        self._await_agent()
        board = self._agent_board()
        shown = self.board.copy()
        ms = self.settings.movetime_ms
        limit = bounded(self.agent, Limit(movetime=ms))
        try:
            if self.console.is_terminal:
                live = Live(Text("thinking..."), console=self.console, transient=True,
                            refresh_per_second=8)

                def update(info: Info) -> None:
                    """Show the latest iteration."""
                    live.update(Text("thinking: " + thought_line(shown, info), style="dim"))

                self.agent.on_info = update
                try:
                    with live:
                        info = self.agent.play(board, limit)
                finally:
                    self.agent.on_info = None
            else:
                info = self.agent.play(board, limit)
        except PlayerError as exc:
            self.say(f"{self.agent.name} failed ({exc.kind}): {exc.detail}", "bold")
            self.game.resigned = not self.human
            return
        move = info.move
        if info.resigned or not move or not self.board.is_legal(move):
            why = "resigns" if info.resigned or not move else f"answered {move.uci()}, illegal"
            self.say(f"{self.agent.name} {why}.", "bold")
            self.game.resigned = not self.human
            return
        if info.depth or info.score is not None:
            self.say(thought_line(self.board, info), "dim")
        elif isinstance(self.agent, BookPlayer) and self.agent.from_book:
            self.say("book move", "dim")
        self.say(f"plies plays {self.game.push(move)}", "bold")

    def _pgn(self, path: str) -> str:
        """Print the game as PGN, or write it to ``path``."""
        text = self.pgn_text()
        if not path:
            self.say(text)
            return ""
        try:
            Path(path).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            self.say(f"Cannot write {path}: {exc.strerror or exc}")
            return ""
        self.say(f"Saved the game to {path}.")
        return ""

    def pgn_text(self) -> str:
        """The game so far in PGN, with headers (written by python-chess, as the arena's)."""
        you, them = "You", f"plies ({self.agent.name})"
        white, black = (you, them) if self.human == chess.WHITE else (them, you)
        game = self.game.record({
            "Event": "plies play",
            "Site": "terminal",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "Round": "-",
            "White": white,
            "Black": black,
        })
        return str(game)


def _stdin_line() -> str:
    """Read one line from standard input ('' at end of input)."""
    import sys

    sys.stdout.flush()
    return sys.stdin.readline()
