"""The user documentation against the program: commands, UCI options, examples, variables."""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from plies.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ENGINE_PAGE = ROOT / "docs" / "engine.md"
SRC = ROOT / "src" / "plies"
README_MAX_LINES = 250


def _readme() -> str:
    """The README's text."""
    return README.read_text(encoding="utf-8")


def _table(text: str, header: str) -> list[list[str]]:
    """The body rows of the first Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header):
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append([cell.strip() for cell in row.strip()[1:-1].split("|")])
            return rows
    raise AssertionError(f"no table with the header {header!r}")


def _unquote(cell: str) -> str:
    """A table cell without its code backticks."""
    return cell.strip().strip("`")


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand of the ``plies`` command by its name (aliases left out)."""
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = {pseudo.dest for pseudo in action._choices_actions}
    return {name: action.choices[name] for name in names}


def _command_table() -> dict[str, str]:
    """The README's command table: subcommand name -> its example command line."""
    return {
        _unquote(row[0]): _unquote(row[2])
        for row in _table(_readme(), "| command | what it does | example |")
    }


def test_the_readme_is_short() -> None:
    """The README stays a starting point; the details live in the docs site."""
    assert len(_readme().splitlines()) <= README_MAX_LINES


def test_the_command_table_names_every_subcommand_and_no_other() -> None:
    """Each subcommand has a row, and each row is a subcommand."""
    assert sorted(_command_table()) == sorted(_subcommands())


@pytest.mark.parametrize("name", sorted(_command_table()))
def test_each_command_in_the_table_answers_help(name: str) -> None:
    """``plies NAME --help`` prints that command's usage and exits 0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    assert out.getvalue().startswith(f"usage: plies {name}")


@pytest.mark.parametrize("name", sorted(_command_table()))
def test_each_example_in_the_table_parses(name: str) -> None:
    """The example command line uses only options the subcommand accepts."""
    example = _command_table()[name].split("<")[0]
    words = shlex.split(example)
    assert words[:2] == ["plies", name]
    args = build_parser().parse_args(words[1:])
    assert args.command == name


def test_version_is_printed() -> None:
    """``plies --version`` names the package's version."""
    import plies

    out = subprocess.run(
        [sys.executable, "-m", "plies", "--version"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert out.strip() == f"plies {plies.__version__}"


@dataclass(frozen=True)
class Option:
    """One UCI option as declared: name, type, default, min/max and combo values."""

    name: str
    type: str
    default: str
    low: str
    high: str
    values: tuple[str, ...]


_OPTION = re.compile(
    r"option name (?P<name>.+?) type (?P<type>\w+)"
    r"(?: default (?P<default>.*?))?(?: min (?P<low>-?\d+) max (?P<high>-?\d+))?"
    r"(?P<vars>(?: var \S+)*)$"
)


def _declared_options() -> dict[str, Option]:
    """The options the engine declares in its answer to ``uci``."""
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "uci"],
        input="uci\nquit\n", capture_output=True, text=True, timeout=300, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    options = {}
    for line in proc.stdout.splitlines():
        if not line.startswith("option name "):
            continue
        match = _OPTION.match(line)
        assert match is not None, line
        default = match["default"] or ""
        options[match["name"]] = Option(
            name=match["name"],
            type=match["type"],
            default="" if default == "<empty>" else default,
            low=match["low"] or "",
            high=match["high"] or "",
            values=tuple(match["vars"].split(" var ")[1:]) if match["vars"] else (),
        )
    assert "uciok" in proc.stdout
    return options


def _documented_options(text: str) -> dict[str, Option]:
    """The options a page's UCI option table documents."""
    options = {}
    for row in _table(text, "| option | type | default | range |"):
        name, kind, default, span = (_unquote(cell) for cell in row[:4])
        low = high = ""
        values: tuple[str, ...] = ()
        if kind == "spin":
            low, high = span.split("-")
        elif kind == "combo":
            values = tuple(v.strip() for v in span.split(","))
        options[name] = Option(
            name=name,
            type=kind,
            default="" if default == "empty" else default,
            low=low,
            high=high,
            values=values,
        )
    return options


@pytest.fixture(scope="module")
def declared() -> dict[str, Option]:
    """The engine's own option declarations (one ``plies uci`` process per module)."""
    return _declared_options()


@pytest.mark.parametrize("page", [README, ENGINE_PAGE], ids=["README", "docs-engine"])
def test_the_uci_option_table_agrees_with_the_engine(
    page: Path, declared: dict[str, Option]
) -> None:
    """Every declared option is documented with its type, default and range, and no other."""
    documented = _documented_options(page.read_text(encoding="utf-8"))
    assert sorted(documented) == sorted(declared)
    for name, option in declared.items():
        assert documented[name] == option, name


def _python_blocks(text: str) -> list[str]:
    """The fenced ``python`` code blocks of a Markdown text."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def _run_example(block: str, filename: Path) -> str:
    """Run one example as a module of its own (dataclasses need one); return what it printed."""
    module = types.ModuleType("plies_docs_example")
    sys.modules[module.__name__] = module
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(filename), "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return out.getvalue()


def test_the_readme_python_examples_run() -> None:
    """Each Python example of the README runs and prints what its comments promise."""
    blocks = _python_blocks(_readme())
    assert len(blocks) == 3
    board, engine, paths = (_run_example(block, README) for block in blocks)
    assert "197281" in board and "Nf3" in board
    assert engine.splitlines()[0] == "Qxf7# 1"
    costs = {line.split()[2] for line in paths.splitlines()}
    assert len(paths.splitlines()) == 3 and len(costs) == 1  # all three find the optimal cost


def test_every_plies_environment_variable_is_documented() -> None:
    """Each ``PLIES_*`` variable the package reads is named in the README."""
    names = set()
    for path in SRC.rglob("*.py"):
        names.update(re.findall(r"\bPLIES_[A-Z_]+\b", path.read_text(encoding="utf-8")))
    readme = _readme()
    assert names, "the package reads no PLIES_ variable?"
    assert sorted(n for n in names if f"`{n}" not in readme) == []


DOC_PAGES = sorted((ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("page", DOC_PAGES, ids=[p.stem for p in DOC_PAGES])
def test_the_python_examples_of_each_docs_page_run(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every fenced Python block of the docs runs, from the repository root, as shown."""
    monkeypatch.chdir(ROOT)
    for block in _python_blocks(page.read_text(encoding="utf-8")):
        _run_example(block, page)


def _shell_commands(text: str) -> list[str]:
    """Each ``plies ...`` command of the fenced ``sh`` blocks, without pipes or redirects
    (a line ending in a backslash goes on on the next, as in the shell)."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|\||;", line):
                words = shlex.split(part.split("<")[0], comments=True)
                if words[:1] == ["plies"]:
                    commands.append(shlex.join(words))
    return commands


_SHOWN = [README, *DOC_PAGES]


@pytest.mark.parametrize("page", _SHOWN, ids=[p.stem for p in _SHOWN])
def test_every_shown_command_parses(page: Path) -> None:
    """Each ``plies`` command shown in a shell block names a subcommand and its real options."""
    parser = build_parser()
    for command in _shell_commands(page.read_text(encoding="utf-8")):
        try:
            parser.parse_args(shlex.split(command)[1:])
        except SystemExit as exc:
            raise AssertionError(f"{page.name}: {command}") from exc


DOCS = ROOT / "docs"
_INCLUDE = re.compile(r'^\s*--8<--\s+"([^"]+)"', flags=re.M)
LINK_REACH = 4  # lines either side of an include: the link sits just above its code block
_INCLUDING = [p for p in sorted(DOCS.rglob("*.md")) if "--8<--" in p.read_text("utf-8")]


@pytest.mark.parametrize("page", _INCLUDING, ids=[p.stem for p in _INCLUDING])
def test_every_snippet_include_links_to_its_file(page: Path) -> None:
    """Beside each ``--8<--`` include is a Markdown link to the same file, relative to the
    page, so the page reads in the repository, where the include is only a placeholder."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if "--8<--" not in line:
            continue
        match = _INCLUDE.match(line)
        assert match is not None, f"{page.name} line {i + 1}: not the one include form checked"
        target = Path(os.path.relpath(ROOT / match[1], page.parent)).as_posix()
        near = "\n".join(lines[max(0, i - LINK_REACH) : i + LINK_REACH + 1])
        assert f"]({target})" in near, f"{page.name} line {i + 1}: no link to {target}"


API_PAGES = sorted(p for p in (DOCS / "api").glob("*.md") if p.name != "index.md")
_DIRECTIVE = re.compile(r"^::: (\S+)", flags=re.M)


def _top_names(module: str) -> set[str]:
    """What ``module`` defines, imports or lists in ``__all__`` at top level, and, for a
    package, its submodules' names (read from the source: nothing is imported)."""
    path = SRC.parent / module.replace(".", "/")
    file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    if not file.is_file():
        return set()
    names = set()
    if path.is_dir():
        names = {p.stem for p in path.iterdir() if p.suffix == ".py" or p.is_dir()}
    for node in ast.parse(file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                names.update(ast.literal_eval(node.value))
    return names


def _resolves(name: str, modules: list[str]) -> bool:
    """Whether ``name`` (``plies.x.y``, or relative to one of the page's modules) exists."""
    bases = [""] if name.startswith("plies.") else [f"{m}." for m in modules]
    for base in bases:
        *module, last = f"{base}{name}".split(".")
        if last in _top_names(".".join(module)):
            return True
    return False


@pytest.mark.parametrize("page", API_PAGES, ids=[p.stem for p in API_PAGES])
def test_each_api_page_opens_with_a_table_of_real_names(page: Path) -> None:
    """Before its first ``:::`` directive an API page has a table of what the module offers,
    each name one the module's source defines, and says how to read the full reference."""
    text = page.read_text(encoding="utf-8")
    modules = _DIRECTIVE.findall(text)
    assert modules, f"{page.name} documents no module"
    intro = text[: text.index("\n::: ")]
    assert any(f"python -m pydoc {m}" in intro for m in modules), page.name
    rows = _table(intro, "| name |")
    assert rows, f"{page.name}: no table before the reference"
    for row in rows:
        for name in re.findall(r"`([\w.]+)(?:\(\))?`", row[0]):
            assert _resolves(name, modules), f"{page.name}: no {name} in {modules}"
