"""Player specs: the one text every front end reads to seat a player at the board.

:func:`parse_player` turns a spec into a :class:`PlayerSpec`, whose
:meth:`~PlayerSpec.create` makes a fresh :class:`~plies.agents.player.Player`:

=================================  ====================================================
``random``, ``alphabeta:depth=3``   a ladder agent with its options (also ``seed=``,
                                    ``name=``), thinking in this process
``FILE.py[:NAME]``                  a user's Python mind in a file: a function
                                    ``NAME(board) -> move`` or a class with
                                    ``choose(board)``; NAME defaults to ``choose``
``package.module[:NAME]``           the same, from an importable module
``mind:COMMAND``                    a program in any language speaking the mind
                                    protocol (a FEN line in, a ``from,to`` line out)
``mind+http://HOST:PORT/PATH``      a mind served over HTTP (the FEN POSTed as text)
``uci:COMMAND[:Opt=value,...]``     an outside UCI engine
``xboard:COMMAND[:Opt=value,...]``  an outside xboard/CECP engine
``NAME``                            a player an installed package registers in the
                                    ``plies.players`` entry-point group
=================================  ====================================================

Every player running a user's program (a Python mind, a ``mind:`` program and, on
request, an engine) starts in the spec's :class:`~plies.sandbox.Sandbox`:
:func:`confine` gives a league's specs one policy and hides each mind's files from the
others.

Everything that can be checked without running the player is checked here
(the file exists and compiles and defines NAME, the module is installed, the
program is executable, the URL is well formed): a spec that fails raises
:class:`SpecError`, whose message names the spec and the reason in one line.
Running user code (importing the file) happens in the player's own process,
when :meth:`PlayerSpec.create` starts it: a failure there is a
:class:`~plies.agents.player.PlayerError` of kind 'start'; :func:`load_player`
does both steps and turns either failure into a :class:`SpecError`.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from plies.agents.registry import PLAYERS, builtin_forms
from plies.agents.user_code import (
    DEFAULT_NAME,
    check_file,
    check_module,
    is_dotted,
    is_identifier,
    module_location,
)
from plies.registry import parse_options
from plies.sandbox import Jail, Sandbox, named_paths, own_folders, unavailable

if TYPE_CHECKING:
    from plies.agents.player import Player

SPEC_FORMS = (
    (" | ".join(PLAYERS.builtin_names()) + "[:opt=value,...]", "a built-in player"),
    ("FILE.py[:NAME]", f"a Python mind in a file (NAME defaults to {DEFAULT_NAME})"),
    ("package.module[:NAME]", "a Python mind in an importable module"),
    ("mind:COMMAND", "a program speaking the mind protocol (FEN in, from,to out)"),
    ("mind+http://HOST:PORT/PATH", "a mind served over HTTP (FEN POSTed, action answered)"),
    ("uci:COMMAND[:Option=value,...]", "an outside UCI engine"),
    ("xboard:COMMAND[:Option=value,...]", "an outside xboard/CECP engine"),
)
"""Every form a spec can take, with what it is (for help texts and ``plies players``)."""


def spec_help() -> str:
    """Every spec form in one sentence, for the help of an option taking a player."""
    return (", ".join(builtin_forms()) + ", FILE.py[:NAME], package.module:NAME, mind:COMMAND, "
            "mind+http://HOST:PORT/PATH, uci:COMMAND, xboard:COMMAND or an installed player "
            "(see plies players)")


class SpecError(ValueError):
    """A player spec that cannot be loaded; the message names the spec and the reason."""

    def __init__(self, spec: str, reason: str) -> None:
        """Remember the spec text and why it failed."""
        super().__init__(f"player {spec!r}: {reason}")
        self.spec = spec
        self.reason = reason


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: what kind of player, its display name and how to start it.

    ``kind`` is 'agent', 'file', 'module', 'mind', 'http', 'uci' or 'xboard'.
    """

    text: str
    kind: str
    name: str
    agent: str | None = None
    command: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    #: file: the mind's path; module: its dotted name; http: the URL (``http://...``).
    target: str = ""
    #: file and module: the name of the function or class in it.
    attr: str = ""
    #: file and module: directories searched for imports before the usual ones.
    search_path: tuple[str, ...] = ()
    #: How the player's process is confined (the default sandboxes minds, not engines).
    sandbox: Sandbox = field(default_factory=Sandbox)

    def entries(self) -> tuple[str, ...]:
        """The paths that make up this player (hidden from the other minds of a league):
        a mind's file or package, the program and the paths its command names."""
        if self.kind == "file":
            return (self.target,)
        if self.kind == "module":
            where = module_location(self.target, self.search_path)
            return () if where is None else (where,)
        if self.kind in ("mind", "uci", "xboard"):
            return tuple(named_paths(self.command))
        return ()

    def jail(self) -> Jail | None:
        """The sandbox this player starts in: its own folders and nothing of the others;
        None when it runs with the caller's rights (a built-in agent, an engine not asked
        for, the sandbox lifted)."""
        if not self.sandbox.covers(self.kind):
            return None
        return self.sandbox.jail(own_folders(self.entries()))

    def sandbox_state(self) -> str:
        """``yes`` (sandboxed), ``no`` (a program with the caller's rights), ``built-in``
        (plies's own agents, in its process) or ``remote`` (an HTTP mind)."""
        if self.kind == "agent":
            return "built-in"
        if self.kind == "http":
            return "remote"
        confined = self.sandbox.covers(self.kind) and unavailable() is None
        return "yes" if confined else "no"

    def create(self, warm: bool = True) -> Player:
        """Make a fresh player (starting its process); PlayerError('start') if it cannot.

        A built-in player is made with its options (they win over a game's limits) and,
        with ``warm``, compiled now rather than on its first move.
        """
        if self.kind == "uci":
            from plies.agents.uci_engine import UciEngine

            return UciEngine(self.name, list(self.command), dict(self.options), self.jail())
        if self.kind == "xboard":
            from plies.agents.xboard_player import XboardPlayer

            return XboardPlayer(self.name, list(self.command), dict(self.options), self.jail())
        if self.kind == "mind":
            from plies.agents.mind_program import MindProgramPlayer

            return MindProgramPlayer(self.name, list(self.command), self.jail())
        if self.kind == "http":
            from plies.agents.mind_http import HttpMindPlayer

            return HttpMindPlayer(self.name, self.target)
        if self.kind in ("file", "module"):
            from plies.agents.python_player import PythonMindPlayer

            return PythonMindPlayer(self.name, self.kind, self.target, self.attr,
                                    self.search_path, self.jail())
        from plies.agents.ladder import warm_up
        from plies.agents.registry import make_player

        assert self.agent is not None
        player = make_player(self.agent, dict(self.options))
        player.name = self.name
        if warm:
            warm_up(player)
        return player


def confine(specs: Sequence[PlayerSpec], sandbox: Sandbox,
            private: Sequence[str] = ()) -> list[PlayerSpec]:
    """``specs`` under ``sandbox``, each with the other players' files hidden from it (their
    folders, or only their own files where it shares a folder with them) and the paths in
    ``private`` (the league file, the PGN) too."""
    folders = [own_folders(spec.entries()) for spec in specs]
    out = []
    for i, spec in enumerate(specs):
        hidden = list(private)
        for j, other in enumerate(specs):
            if j == i:
                continue
            shared = any(_within(mine, theirs) for mine in folders[i] for theirs in folders[j])
            hidden += [*other.entries(), *([] if shared else folders[j])]
        out.append(dataclasses.replace(
            spec, sandbox=dataclasses.replace(sandbox, hidden=tuple(dict.fromkeys(hidden)))))
    return out


def _within(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` or inside it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def parse_player(text: str) -> PlayerSpec:
    """Parse a player spec (see the module); SpecError naming the spec and the reason."""
    spec = text.strip()
    if not spec:
        raise SpecError(text, "empty player spec")
    low = spec.lower()
    try:
        if low.startswith(("uci:", "xboard:")):
            return _parse_engine(spec)
        if low.startswith("mind+"):
            return _parse_http(spec)
        if low.startswith("mind:"):
            return _parse_program(spec)
        head, sep, rest = spec.partition(":")
        if head.strip().lower() in PLAYERS.builtin_names():
            return _parse_agent(spec)
        if head.endswith(".py"):
            return _parse_file(spec, head, rest if sep else DEFAULT_NAME)
        plugins = PLAYERS.installed()
        if not sep and head in plugins:
            return _parse_plugin(spec, plugins[head])
        if is_dotted(head) and ("." in head or sep) and (not sep or is_identifier(rest)):
            return _parse_module(spec, head, rest if sep else DEFAULT_NAME, head)
    except SpecError:
        raise
    except ValueError as exc:
        raise SpecError(spec, str(exc)) from None
    raise SpecError(spec, "unknown player: use a built-in player ("
                    + ", ".join(PLAYERS.builtin_names()) + "), FILE.py, package.module:NAME, "
                    "mind:, mind+http://, uci:, xboard: or an installed player (see plies "
                    "players)")


def load_player(text: str) -> PlayerSpec:
    """Parse ``text`` and start the player once (then close it), so that everything that can
    fail before a game (the code, the program, the engine's options) has: SpecError if so."""
    from plies.agents.player import PlayerError

    spec = parse_player(text)
    try:
        player = spec.create()
    except PlayerError as exc:
        raise SpecError(spec.text, exc.detail) from None
    except ValueError as exc:
        raise SpecError(spec.text, str(exc)) from None
    player.close()
    return spec


def start_player(text: str, seed: int | None = None, sandbox: Sandbox | None = None,
                 warm: bool = True) -> Player:
    """The player ``text`` names, started and told of a new game with ``seed`` (SpecError if
    it cannot load), under ``sandbox`` (default: the default policy); for the terminal game
    and ``plies mind``.  Without ``warm`` a built-in player compiles on its first move (or
    when the caller warms it up)."""
    from plies.agents.player import PlayerError

    spec = parse_player(text)
    if sandbox is not None:
        spec = dataclasses.replace(spec, sandbox=sandbox)
    try:
        player = spec.create(warm)
        player.new_game(seed)
    except PlayerError as exc:
        raise SpecError(spec.text, exc.detail) from None
    except ValueError as exc:
        raise SpecError(spec.text, str(exc)) from None
    return player


def _parse_agent(text: str) -> PlayerSpec:
    """``NAME[:k=v,...]``: a ladder agent."""
    name, _, rest = text.partition(":")
    agent = name.strip().lower()
    options = parse_options(rest)
    display = options.pop("name", "") or text
    PLAYERS.get(agent).arguments(options)  # unknown options and bad values fail here
    return PlayerSpec(text, "agent", display, agent, (), tuple(options.items()))


_EXAMPLES = {"uci": "/usr/games/stockfish", "xboard": "/usr/games/fairymax",
             "mind": "./mymind"}


def _executable(command_text: str, kind: str) -> tuple[str, ...]:
    """The command split into words, its program checked to exist and be executable."""
    try:
        command = shlex.split(command_text)
    except ValueError as exc:
        raise ValueError(f"bad command {command_text!r}: {exc}") from None
    if not command:
        what = "a program" if kind == "mind" else "an engine command"
        raise ValueError(f"{kind}: needs {what}, e.g. {kind}:{_EXAMPLES[kind]}")
    exe = command[0]
    if shutil.which(exe) is None and not (Path(exe).is_file() and os.access(exe, os.X_OK)):
        what = "program" if kind == "mind" else "engine"
        raise ValueError(f"{what} not found or not executable: {exe}")
    return tuple(command)


def _parse_engine(text: str) -> PlayerSpec:
    """``uci:COMMAND[:opts]`` or ``xboard:COMMAND[:opts]``, opts being ``Option=value,...``."""
    kind, _, rest = text.partition(":")
    kind = kind.lower()
    command_text, sep, opts = rest.rpartition(":")
    if not sep or "=" not in opts or not command_text:
        command_text, opts = rest, ""
    options = parse_options(opts)
    command = _executable(command_text, kind)
    display = options.pop("name", "")
    if not display:
        display = Path(command[0]).name
        if options:
            display += "(" + ",".join(f"{k}={v}" for k, v in options.items()) + ")"
    return PlayerSpec(text, kind, display, None, command, tuple(options.items()))


def _parse_program(text: str) -> PlayerSpec:
    """``mind:COMMAND``: a program speaking the mind protocol."""
    command = _executable(text[5:], "mind")
    shown = command[-1] if len(command) > 1 else command[0]
    return PlayerSpec(text, "mind", Path(shown).name or shown, None, command)


def _parse_http(text: str) -> PlayerSpec:
    """``mind+http://HOST:PORT/PATH`` (or ``mind+https://``)."""
    url = text[5:]
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("bad URL: use mind+http://HOST:PORT/PATH")
    if not parts.hostname:
        raise ValueError(f"bad URL {url!r}: no host")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad URL {url!r}: the port is not a number from 0 to 65535") from None
    display = parts.hostname + (f":{port}" if port else "") + (parts.path.rstrip("/") or "")
    return PlayerSpec(text, "http", display, target=url)


def _search_path() -> tuple[str, ...]:
    """Where a mind's modules are looked for: the current directory, then our own path."""
    return (os.getcwd(),)


def _parse_file(text: str, file: str, attr: str) -> PlayerSpec:
    """``FILE.py[:NAME]``."""
    if not is_identifier(attr):
        raise ValueError(f"{attr!r} is not a Python name")
    path = Path(file).expanduser()
    problem = check_file(path, attr)
    if problem is not None:
        raise ValueError(problem)
    display = path.stem if attr == DEFAULT_NAME else f"{path.stem}:{attr}"
    return PlayerSpec(text, "file", display, target=str(path.resolve()), attr=attr,
                      search_path=_search_path())


def _parse_module(text: str, module: str, attr: str, display: str) -> PlayerSpec:
    """``package.module[:NAME]``."""
    search = _search_path()
    problem = check_module(module, [*search, *sys.path])
    if problem is not None:
        raise ValueError(problem)
    if attr != DEFAULT_NAME and display == module:
        display = f"{module}:{attr}"
    return PlayerSpec(text, "module", display, target=module, attr=attr, search_path=search)


def _parse_plugin(text: str, entry: EntryPoint) -> PlayerSpec:
    """A name from the ``plies.players`` group: its value is ``package.module[:NAME]``."""
    module, _, attr = entry.value.partition(":")
    module, attr = module.strip(), attr.strip() or DEFAULT_NAME
    if not is_dotted(module) or not is_identifier(attr):
        raise ValueError(f"the installed player's entry point {entry.value!r} is not "
                         "package.module:NAME")
    return _parse_module(text, module, attr, entry.name)
