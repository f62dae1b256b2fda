"""What the toy engines and the toy mind share: reading commands and misbehaving on cue.

The toys run as scripts (their directory first on the import path), so they import
this module by its bare name.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping


def cue() -> tuple[str, int]:
    """MODE and AFTER from the command line: how to misbehave, after how many good moves."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "none"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    return mode, after


def commands() -> Iterator[list[str]]:
    """The words of every non-empty line on standard input, until it ends."""
    for line in sys.stdin:
        words = line.split()
        if words:
            yield words


def misbehave(mode: str, replies: Mapping[str, str], exit_code: int) -> None:
    """Act out ``mode``: exit at once (die, crash), never answer again without using the CPU
    (hang), or print the reply ``replies`` gives for it."""
    if mode in ("die", "crash"):
        os._exit(exit_code)
    if mode == "hang":
        threading.Event().wait()
    print(replies[mode], flush=True)
