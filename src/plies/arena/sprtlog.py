"""The SPRT log: a Markdown table with one row per tested change (``benchmarks/sprt-log.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

COLUMNS = (
    "date (UTC)", "change", "new", "base", "control", "bounds", "games",
    "pentanomial 0/½/1/1½/2", "W-D-L (new)", "Elo ± 95%", "LLR [lower, upper]", "result",
)
"""The log table's columns, in order."""

HEADER = (
    "# SPRT log\n\n"
    "Every change tested with `plies sprt`, accepted or rejected, one row each (appended by\n"
    "`plies sprt ... --log benchmarks/sprt-log.md --change \"what changed\"`). Bounds are in\n"
    "normalized Elo unless the row says logistic; alpha = beta = 0.05. Games are played in\n"
    "paired-opening pairs; the pentanomial counts pairs that scored 0, 0.5, 1, 1.5 and 2\n"
    "points for the new build. \"no verdict\" rows stopped at the game cap before a bound.\n\n"
    + "| " + " | ".join(COLUMNS) + " |\n"
    + "|" + "---|" * len(COLUMNS) + "\n"
)
"""What a new log starts with."""


@dataclass(frozen=True)
class LogEntry:
    """One tested change and its SPRT outcome, as the log's columns show it."""

    date: str
    change: str
    new: str
    base: str
    control: str
    bounds: str
    games: int
    pentanomial: tuple[int, int, int, int, int]
    wdl: tuple[int, int, int]
    elo: str
    llr: str
    result: str

    def row(self) -> str:
        """The Markdown table row (pipes in free text escaped)."""
        cells = [
            self.date,
            self.change,
            self.new,
            self.base,
            self.control,
            self.bounds,
            str(self.games),
            "/".join(str(c) for c in self.pentanomial),
            "-".join(str(c) for c in self.wdl),
            self.elo,
            self.llr,
            self.result,
        ]
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def append_entry(path: str | Path, entry: LogEntry) -> None:
    """Append ``entry`` to the log at ``path``, creating it with its header if needed."""
    p = Path(path)
    text = "" if not p.exists() else p.read_text(encoding="utf-8")
    if not text.strip():
        text = HEADER
    elif not text.endswith("\n"):
        text += "\n"
    p.write_text(text + entry.row() + "\n", encoding="utf-8")
