"""``plies spsa``: real game pairs between two plies engines, the values, the history file."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from plies.arena.cluster import JobLost
from plies.arena.openings import Opening
from plies.arena.referee import GameRecord
from plies.cli.main import main
from plies.learn.spsa import Proposal, Spsa, Tunable
from plies.learn.spsa_pairs import ATTEMPTS, PairWorker, pair_result, pair_with_replays


def _game(result: str) -> GameRecord:
    """A finished game with ``result``."""
    return GameRecord("a", "b", Opening(), result=result, termination="normal")


@pytest.mark.parametrize(("first", "second", "expected"), [
    ("1-0", "0-1", 2.0), ("0-1", "1-0", -2.0), ("1-0", "1-0", 0.0),
    ("1/2-1/2", "0-1", 1.0), ("1/2-1/2", "1/2-1/2", 0.0), ("1-0", "*", None),
])  # fmt: skip
def test_pair_result(first: str, second: str, expected: float | None) -> None:
    """Wins minus losses of the side with White first and Black second."""
    assert pair_result(_game(first), _game(second)) == expected


def test_spsa_plays_pairs_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two workers play four short pairs; the values stay in range and the history has
    one row per pair."""
    history = tmp_path / "spsa.csv"
    code = main(["spsa", "--params", "RfpMargin", "LmrDivisor", "--start", "RfpMargin=100",
                 "--iterations", "4", "--concurrency", "2", "--nodes", "300", "--max-moves", "12",
                 "--history", str(history), "--seed", "3", "-q"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "after 4 of 4 iterations" in out
    options = out.split("options: ")[1].split()[0]
    values = dict(item.split("=") for item in options.split(","))
    assert set(values) == {"RfpMargin", "LmrDivisor"}
    assert 30 <= int(values["RfpMargin"]) <= 150 and 140 <= int(values["LmrDivisor"]) <= 360
    rows = list(csv.reader(history.open(encoding="utf-8")))
    assert rows[0] == ["iteration", "result", "RfpMargin", "LmrDivisor"]
    assert sorted(int(r[0]) for r in rows[1:]) == [1, 2, 3, 4]
    assert all(-2 <= float(r[1]) <= 2 for r in rows[1:])


@pytest.mark.parametrize(("argv", "message"), [
    (["--params", "Nope"], "no search parameter 'Nope'"),
    (["--start", "RfpMargin=1"], "between 30 and 150"),
    (["--iterations", "0"], "at least 1"),
    (["--r-end", "2"], "--r-end"),
    (["--nodes", "0"], "--nodes must be at least 1"),
])  # fmt: skip
def test_bad_arguments_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each mistake stops before any engine starts, with one line naming it."""
    assert main(["spsa", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


class _Flaky(PairWorker):
    """A worker whose engines die ``losses`` times before a pair completes."""

    def __init__(self, losses: int) -> None:
        """No engines: ``run`` is replaced."""
        self.losses = losses
        self.calls = 0

    def run(self, proposal: Proposal) -> float | None:
        """Lose the first ``losses`` attempts, then win the pair."""
        self.calls += 1
        if self.calls <= self.losses:
            raise JobLost("engine crashed")
        return 2.0


def test_a_pair_lost_with_an_engine_is_replayed_then_given_up() -> None:
    """Two lost attempts are replayed; a third loss ends the run with the reason."""
    spsa = Spsa([Tunable("RfpMargin", 75.0, 30, 150, 8.0)], 1, seed=1)
    proposal = spsa.propose()
    assert proposal is not None
    flaky = _Flaky(ATTEMPTS - 1)
    assert pair_with_replays(flaky, proposal) == 2.0 and flaky.calls == ATTEMPTS
    with pytest.raises(RuntimeError, match="engine crashed"):
        pair_with_replays(_Flaky(ATTEMPTS), proposal)
