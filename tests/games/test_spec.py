"""Game specs: every form loads the game it names, and every failure is one line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from plies.games.chessgame import ChessGame
from plies.games.connect4 import Connect4
from plies.games.rootsearch import root_values
from plies.games.spec import GAMES, CompletedGame, load_game, play_line
from plies.games.tictactoe import TicTacToe
from plies.loader import LoadError

DATA = Path(__file__).parent / "data"
NIM = DATA / "nim.py"


def test_builtin_names_and_parameters() -> None:
    """The three built-in names, and keyword parameters in brackets."""
    assert isinstance(load_game("tictactoe"), TicTacToe)
    assert isinstance(load_game("connect4"), Connect4)
    assert isinstance(load_game(" chess "), ChessGame)
    game = load_game("tictactoe(width=4, height=3, k=3)")
    assert isinstance(game, TicTacToe)
    assert (game.width, game.height, game.k) == (4, 3, 3)
    assert GAMES.builtin_names() == ("tictactoe", "connect4", "chess")
    assert load_game("chess(claim_draw=true)").claim_draw


def test_every_failure_is_the_loaders_error(tmp_path: Path) -> None:
    """A bad spec, a bad option and a file that fails all raise the one LoadError."""
    from plies.registry import RegistryError

    with pytest.raises(LoadError) as info:
        load_game("connect4(width=x)")
    assert str(info.value) == ("game 'connect4(width=x)': option width of connect4 must be "
                               "an integer, not 'x'")
    assert issubclass(RegistryError, LoadError)


def test_file_without_name_finds_its_only_game_class() -> None:
    """``FILE.py``: the one class the file defines, instantiated, its gaps filled in."""
    game = load_game(str(NIM))
    assert isinstance(game, CompletedGame)
    assert game.initial_state() == ((1, 3, 5), 0)
    assert game.key(game.initial_state()) == ((1, 3, 5), 0)
    assert game.evaluate(game.initial_state(), 0) == 0.0
    assert game.action_text((2, 3)) == "(2, 3)"


def test_file_with_name_takes_a_class_or_an_instance() -> None:
    """``FILE.py:NAME`` names a class (called without arguments) or an instance."""
    assert load_game(f"{NIM}:Nim").initial_state() == ((1, 3, 5), 0)
    assert load_game(f"{NIM}:small").initial_state() == ((1, 2), 0)


def test_module_and_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``package.module:NAME`` imports the module from the path."""
    package = tmp_path / "mygames"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "nim.py").write_text(NIM.read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    game = load_game("mygames.nim:Nim")
    assert game.initial_state() == ((1, 3, 5), 0)


def test_entry_point_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name registered in the ``plies.games`` group loads like a built-in."""
    (tmp_path / "nimpkg.py").write_text(NIM.read_text())
    info = tmp_path / "nimpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nimpkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[plies.games]\nnim = nimpkg:Nim\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_game("nim").initial_state() == ((1, 3, 5), 0)
    with pytest.raises(LoadError, match=r"unknown game 'mim'.*nim"):
        load_game("mim")


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("", "empty game spec"),
        ("go", "unknown game 'go': use one of tictactoe, connect4, chess, FILE.py"),
        ("tictactoe(k=9)", "tictactoe() failed: ValueError: k must be between 1 and 3"),
        ("tictactoe(size)", "bad option 'size': expected key=value"),
        ("tictactoe(depth=3)", "unknown option 'depth' for tictactoe (known: height, k, width)"),
        ("missing.py", "no such file: missing.py"),
        ("no_such_module_here:Game", "no module named 'no_such_module_here'"),
        ("plies.games.tictactoe:Nothing", "plies.games.tictactoe defines no Nothing"),
        ("plies.games.tictactoe:MARKS", "tuple is not a game: it has no initial_state"),
        ("x y z", "not a game spec"),
    ],
)
def test_bad_specs_are_one_line(spec: str, reason: str) -> None:
    """Each failure names the spec and says why, on one line."""
    with pytest.raises(LoadError) as info:
        load_game(spec)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"game {spec!r}: ")
    assert reason in message


def test_files_that_cannot_serve(tmp_path: Path) -> None:
    """A file that raises, defines no game, or several: each one line."""
    raises = tmp_path / "raises.py"
    raises.write_text("raise RuntimeError('broken\\non purpose')\n")
    with pytest.raises(LoadError, match="failed to run: RuntimeError: broken on purpose"):
        load_game(str(raises))
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    with pytest.raises(LoadError, match="defines no game"):
        load_game(str(empty))
    two = tmp_path / "two.py"
    two.write_text(NIM.read_text() + textwrap.dedent("""
        class Nim2(Nim):
            pass
    """))
    with pytest.raises(LoadError, match=r"several games \(Nim, Nim2\)"):
        load_game(str(two))


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("openspiel:kuhn_poker", "imperfect information, chance moves"),
        ("openspiel:no_such_game", "OpenSpiel cannot load it"),
        ("openspiel:", "needs a game name"),
    ],
)
def test_openspiel_spec_refusals(spec: str, reason: str) -> None:
    """OpenSpiel games the protocol cannot express are refused in one line."""
    pytest.importorskip("pyspiel")
    with pytest.raises(LoadError, match=reason):
        load_game(spec)


def test_play_line_reads_the_games_own_notation() -> None:
    """``--state`` text: each action as the game writes it, else its own reader."""
    game = load_game("tictactoe")
    state = play_line(game, "b2 a1, c3")
    assert state.cells == (0, 0, 1, 0, 1, 0, 2, 0, 0)
    with pytest.raises(ValueError, match="action 2: not a legal action here: 'b2'"):
        play_line(game, "b2 b2")


def test_a_loaded_reader_game_is_searchable() -> None:
    """The reader's Nim solves to the known value: a first-player win by taking 3 from 5."""
    game = load_game(f"{NIM}:Nim")
    found = root_values(game, game.initial_state())
    assert found.value == 1.0
    assert found.best_actions == ((2, 3),)
    assert found.exact
