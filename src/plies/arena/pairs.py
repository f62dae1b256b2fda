"""Game pairs of a paired-opening match: which games belong together and what each pair scored."""

from __future__ import annotations

from collections.abc import Sequence

from plies.arena.pentanomial import Pentanomial
from plies.arena.referee import GameRecord


def pair_points(
    records: Sequence[GameRecord], player: int = 0, pairing: tuple[int, int] = (0, 1)
) -> list[float]:
    """Points ``player`` scored in each complete pair of ``pairing``'s games, in pair order.

    The match schedule plays an opening's two games of a pairing as consecutive
    rounds, the pairing's first player White in the first; a pair counts once
    both games have finished.
    """
    by_round = {r.round: r for r in records if r.finished and r.pairing == pairing}
    points: list[float] = []
    for first in sorted(by_round):
        second = by_round.get(first + 1)
        if by_round[first].white_index == pairing[0] and second is not None \
                and second.white_index == pairing[1]:
            points.append(by_round[first].points_for(player) + second.points_for(player))
    return points


def pentanomial(
    records: Sequence[GameRecord], player: int = 0, pairing: tuple[int, int] = (0, 1)
) -> Pentanomial:
    """The pentanomial of ``player``'s complete pairs of ``pairing``'s games."""
    return Pentanomial.from_pair_points(pair_points(records, player, pairing))
