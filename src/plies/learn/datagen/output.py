"""The datagen output file and its progress record, kept consistent across interruptions."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

PROGRESS_SUFFIX = ".progress.json"
"""Appended to the output file's name for its progress record."""

_FORMAT = 1


class DatagenFileError(ValueError):
    """The output file cannot be resumed (other settings, no progress record, unreadable)."""


class DatagenFile:
    """Lines appended one game at a time; the progress record says how far the file is good."""

    def __init__(self, path: str | Path, settings: dict[str, Any]) -> None:
        """Open ``path`` for a run with ``settings``, resuming a run of the same settings."""
        self.path = Path(path)
        self.progress_path = self.path.with_name(self.path.name + PROGRESS_SUFFIX)
        self.settings = settings
        self.games = 0
        self.positions = 0
        size = 0
        if self.progress_path.exists():
            record = self._read_progress()
            if record.get("settings") != settings:
                raise DatagenFileError(
                    f"{self.path} was written with other settings "
                    f"({self._difference(record.get('settings'))}); use another output file"
                )
            self.games = int(record["games"])
            self.positions = int(record["positions"])
            size = int(record["bytes"])
            actual = self.path.stat().st_size if self.path.exists() else 0
            if actual < size:
                raise DatagenFileError(
                    f"{self.path} is shorter than its progress record ({actual} < {size} bytes)"
                )
        elif self.path.exists() and self.path.stat().st_size > 0:
            raise DatagenFileError(
                f"{self.path} exists but has no {self.progress_path.name}; "
                "refusing to append to a file datagen did not write"
            )
        try:
            self._fh = self.path.open("r+b" if self.path.exists() else "w+b")
            # Drop a game that was cut off after its lines but before its record.
            self._fh.truncate(size)
            self._fh.seek(size)
        except OSError as exc:
            raise DatagenFileError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        if not self.progress_path.exists():
            self._write_progress()

    def _read_progress(self) -> dict[str, Any]:
        """The progress record as a dict; DatagenFileError if it is unreadable."""
        try:
            record = json.loads(self.progress_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DatagenFileError(
                f"unreadable progress record {self.progress_path}: {exc}"
            ) from None
        if not isinstance(record, dict) or record.get("format") != _FORMAT:
            raise DatagenFileError(f"{self.progress_path} is not a datagen progress record")
        for key in ("games", "positions", "bytes"):
            if not isinstance(record.get(key), int):
                raise DatagenFileError(f"{self.progress_path} has no valid {key!r}")
        return record

    def _difference(self, old: object) -> str:
        """Which settings differ, for the error message."""
        if not isinstance(old, dict):
            return "no settings recorded"
        keys = sorted(
            k for k in set(old) | set(self.settings) if old.get(k) != self.settings.get(k)
        )
        return ", ".join(f"{k}: {old.get(k)!r} then, {self.settings.get(k)!r} now" for k in keys)

    def commit(self, lines: list[str]) -> None:
        """Append one game's lines, flush them to disk, then move the progress record on."""
        # A Ctrl-C between the append and the record would leave a file longer
        # than its record says: hold it until both are written.
        with _interrupts_deferred():
            if lines:
                self._fh.write("".join(line + "\n" for line in lines).encode("utf-8"))
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self.games += 1
            self.positions += len(lines)
            self._write_progress()

    def _write_progress(self) -> None:
        """Replace the progress record atomically (write a temporary file, then rename)."""
        record = {
            "format": _FORMAT,
            "settings": self.settings,
            "games": self.games,
            "positions": self.positions,
            "bytes": self._fh.tell(),
        }
        tmp = self.progress_path.with_name(self.progress_path.name + ".tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, self.progress_path)

    def close(self) -> None:
        """Close the output file (everything committed is already on disk)."""
        self._fh.close()


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT for the duration of the block, then raise KeyboardInterrupt if one came."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread receives signals
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        """Remember the signal instead of interrupting."""
        received.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt
