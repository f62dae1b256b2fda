"""Game pairs of a paired-opening match: which games belong together and what each pair scored."""

from __future__ import annotations

from collections.abc import Sequence

from plies.arena.game import GameRecord
from plies.arena.pentanomial import Pentanomial


def pair_points(records: Sequence[GameRecord], player: int = 0) -> list[float]:
    """Points ``player`` scored in each complete pair of a two-player match, in pair order.

    The match schedule gives games ``2k + 1`` and ``2k + 2`` (rounds, counted
    from 1) the same opening with colours swapped; a pair counts once both
    games have finished.
    """
    by_round = {r.round: r for r in records if r.finished}
    points: list[float] = []
    for first in sorted(by_round):
        if first % 2 == 1 and first + 1 in by_round:
            points.append(
                by_round[first].points_for(player) + by_round[first + 1].points_for(player)
            )
    return points


def pentanomial(records: Sequence[GameRecord], player: int = 0) -> Pentanomial:
    """The pentanomial of ``player``'s complete pairs."""
    return Pentanomial.from_pair_points(pair_points(records, player))
