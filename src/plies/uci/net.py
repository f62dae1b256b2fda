"""The UCI side of the learnt evaluation: what ``EvalFile`` and ``UseNet`` answer.

``EvalFile`` names a ``.npz`` net (empty: the net installed with plies, if
any) and ``UseNet`` switches the search to it. Each change clears the hash and
is answered with one ``info string`` naming the evaluation now in use; a net
file that cannot be read is refused with its reason and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.engine import Engine


def net_status(engine: Engine) -> str:
    """One line: the evaluation the engine now searches with, or why not the net."""
    notice = engine.net_notice
    if notice is not None:
        return notice
    return f"evaluation: {engine.evaluation_name()}"
