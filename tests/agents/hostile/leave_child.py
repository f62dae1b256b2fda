"""Starts a detached process in a session of its own, plays on, then fails a move."""

import subprocess

MARK = "3141.5926"  # the test looks for a process sleeping this long


def choose(board):
    if len(board.move_stack) < 2:
        subprocess.Popen(["sleep", MARK], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        return board.legal_moves[0]
    raise RuntimeError("refused: gives up, leaving its child behind")
