"""What the long commands (arena, sprt, datagen, tune, train) show of their progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console
    from rich.progress import Progress


def progress_bar(
    console: Console,
    label: str,
    extra: str | None = None,
    *,
    quiet: bool = False,
    transient: bool = False,
) -> Progress:
    """A bar: ``label``, the bar, done/total, ``extra`` (a column template), time elapsed.

    It draws nothing when ``quiet`` or when ``console`` is not a terminal (a log file)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.progress import Progress as Bar

    columns: list[ProgressColumn] = [TextColumn(label), BarColumn(), MofNCompleteColumn()]
    if extra is not None:
        columns.append(TextColumn(extra))
    columns.append(TimeElapsedColumn())
    return Bar(*columns, console=console, transient=transient,
               disable=quiet or not console.is_terminal)  # fmt: skip


def progress_lines(
    console: Console, *, quiet: bool, highlight: bool = True
) -> Callable[[str], None]:
    """A function printing one progress line on ``console``, or nothing when ``quiet``."""

    def say(text: str) -> None:
        """Print ``text`` unless quiet."""
        if not quiet:
            console.print(text, highlight=highlight)

    return say
