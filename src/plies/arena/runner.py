"""Where a match runs: on this machine's worker threads, or on a Ray cluster.

The match itself knows only the local way; the cluster runner
(``plies.arena.remote``) builds on it, so the choice is made here, outside both.
"""

from __future__ import annotations

from plies.arena.match import Match, MatchResult


def run_match(match: Match) -> MatchResult:
    """Play ``match`` where its settings say (``MatchSettings.cluster``) and return the result."""
    if match.settings.cluster is None:
        return match.run()
    match.close_players()  # the cluster's workers start their own
    # Imported only here: the cluster runner loads Ray, which a local match never needs.
    from plies.arena.remote import run_on_cluster

    return run_on_cluster(match)
