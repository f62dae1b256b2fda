"""An in-process UCI loop writing to a string buffer, for tests that read its exact output."""

from __future__ import annotations

import io
import time

import chess
from tests.waiting import HANG_S

from plies.uci.channel import Output
from plies.uci.loop import UciLoop


class Harness:
    """A loop writing to a string buffer, fed one line at a time."""

    def __init__(self, start_engine: bool = True) -> None:
        """A fresh loop; ``start_engine``: begin its engine compile in the background now."""
        self.stream = io.StringIO()
        self.loop = UciLoop(Output(self.stream))
        if start_engine:
            self.loop.start_engine()
        self.read = 0

    def send(self, *lines: str) -> None:
        """Handle each line; none may end the loop."""
        for line in lines:
            assert self.loop.handle(line)

    def new_output(self) -> list[str]:
        """Lines written since the last call."""
        text = self.stream.getvalue()
        lines = text[self.read :].splitlines()
        self.read = len(text)
        return lines

    def until(self, prefix: str) -> list[str]:
        """Lines up to the first one starting with ``prefix`` (waiting for the search thread)."""
        got: list[str] = []
        deadline = time.monotonic() + HANG_S
        while time.monotonic() < deadline:
            text = self.stream.getvalue()
            end = text.rfind("\n") + 1
            for line in text[self.read : end].splitlines():
                got.append(line)
                self.read += len(line) + 1
                if line.startswith(prefix):
                    return got
            time.sleep(0.01)
        raise AssertionError(f"no {prefix!r}; got {got[-10:]}")

    def fen(self) -> str:
        """The loop's current position as python-chess reads it (checks the FEN is sane)."""
        return chess.Board(self.loop.board.fen()).fen()
