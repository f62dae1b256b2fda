"""``plies tune``: K fit, loss going down, the weights module round trip, bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plies.cli.main import main
from plies.core import weights
from plies.core.layout import OFFSET
from plies.learn.split import split_rows
from plies.learn.tune.dataset import build_features, read_positions
from plies.learn.tune.fit import (
    Settings,
    Weights,
    evaluations,
    feature_support,
    fit_k,
    fit_score_k,
    mirror_groups,
    mse,
    sigmoid,
    train,
    tuned_mask,
)
from plies.learn.tune.weights_file import (
    WeightsFileError,
    format_weights,
    module_weights,
    read_weights,
)

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "tune" / "selfplay-sample.txt"
WEIGHTS_FILE = Path(weights.__file__)


def test_fit_k_recovers_a_known_k() -> None:
    """Results drawn with P(win) = sigmoid(K0 * eval) give back K0 within a few percent."""
    rng = np.random.default_rng(1)
    evals = rng.normal(0.0, 300.0, 200_000)
    for k0 in (0.004, 0.012):
        results = (rng.random(len(evals)) < sigmoid(k0 * evals)).astype(np.float64)
        assert fit_k(evals, results) == pytest.approx(k0, rel=0.05)


def test_scores_get_their_own_scale() -> None:
    """Scores on another engine's scale (here 3x ours) get their own K for the blend."""
    data, _ = build_features(read_positions([SAMPLE]))
    rng = np.random.default_rng(2)
    ours = rng.normal(0.0, 300.0, len(data))
    k0 = 0.006
    data.results = (rng.random(len(data)) < sigmoid(k0 * ours)).astype(np.float64)
    data.scores = 3.0 * ours
    score_k = fit_score_k(data)
    assert score_k == pytest.approx(k0 / 3.0, rel=0.25)
    data.scores[: len(data) // 2] = np.nan  # rows without a score do not count
    assert fit_score_k(data) == pytest.approx(k0 / 3.0, rel=0.35)
    data.scores[:] = np.nan
    assert fit_score_k(data) is None


@pytest.mark.parametrize(
    ("optimizer", "batch", "lr"), [("adam", 256, 2.0), ("newton", 1 << 62, 0.2)]
)
def test_tuner_finds_its_way_back_to_known_weights(optimizer: str, batch: int, lr: float) -> None:
    """Targets made by the shipped weights; started from spoilt material, both optimisers
    return."""
    data, _ = build_features(read_positions([SAMPLE]))
    mg, eg, tempo = module_weights(weights)
    truth = Weights(mg.astype(float), eg.astype(float), float(tempo))
    k = 0.005
    data.results = sigmoid(k * evaluations(data, truth))
    start = truth.copy()
    at = OFFSET["MATERIAL"]
    start.mg[at : at + 5] += [40, -60, 60, -80, 100]
    start.eg[at : at + 5] += [-40, 60, -60, 80, -100]
    valid, rows = split_rows(data.games, 0.2, seed=3)
    before = mse(evaluations(data, start), data.results, k)
    best, history = train(data.take(rows), data.take(valid), start, k, 0.0,
                          Settings(epochs=60, batch=batch, lr=lr, patience=20,
                                   optimizer=optimizer))  # fmt: skip
    after = mse(evaluations(data, best), data.results, k)
    assert after < before / 4
    assert history[-1].validation < history[0].validation
    # Material and the piece-square tables can trade a constant, so the check is on the
    # evaluations the weights give, not on the material numbers themselves.
    truth_evals = evaluations(data, truth)
    error_before = np.abs(evaluations(data, start) - truth_evals).mean()
    error_after = np.abs(evaluations(data, best) - truth_evals).mean()
    assert error_after < error_before / 2


def test_only_the_chosen_tables_move() -> None:
    """With a mask (``--only``), every other weight keeps its start value exactly."""
    data, _ = build_features(read_positions([SAMPLE]))
    mg, eg, tempo = module_weights(weights)
    start = Weights(mg.astype(float), eg.astype(float), float(tempo))
    mask = tuned_mask(["passed*", "TEMPO"])
    at, size = OFFSET["PASSED"], 4 * 8
    assert mask[at : at + size].all() and mask[-1] and mask.sum() == 2 * size + 1
    best, _ = train(data, data.take(np.arange(200)), start, 0.005, 0.0,
                    Settings(epochs=2, batch=128, lr=5.0, patience=9, tuned=mask))  # fmt: skip
    moved = np.concatenate([best.mg - start.mg, best.eg - start.eg, [best.tempo - start.tempo]])
    assert np.all(moved[~mask] == 0.0) and np.any(moved[mask] != 0.0)
    with pytest.raises(ValueError, match="matches no weight table"):
        tuned_mask(["NOPE*"])


def test_support_counts_evidence_per_phase() -> None:
    """Support sums each feature's count times the row's phase share, by brute force."""
    data, _ = build_features(read_positions([SAMPLE]))
    support = feature_support(data)
    n_features = len(module_weights(weights)[0])
    mg = np.zeros(n_features)
    eg = np.zeros(n_features)
    for i in range(len(data)):
        for j in range(data.indptr[i], data.indptr[i + 1]):
            mg[data.cols[j]] += abs(int(data.vals[j])) * data.mg_factor[i]
            eg[data.cols[j]] += abs(int(data.vals[j])) * data.eg_factor[i]
    assert np.allclose(support[:n_features], mg) and np.allclose(support[n_features:-1], eg)
    assert support[-1] == len(data)
    # The pawn material weight is seen in nearly every row; a pawn on the first rank never.
    at = OFFSET["MATERIAL"]
    assert support[at] > 0.3 * len(data) and support[OFFSET["PSQT_PAWN"]] == 0.0


def test_mirrored_tables_take_one_step_per_pair() -> None:
    """With ``--mirror``, a1/h1-style pairs move by the same amount; other tables do not tie."""
    data, _ = build_features(read_positions([SAMPLE]))
    mg, eg, tempo = module_weights(weights)
    start = Weights(mg.astype(float), eg.astype(float), float(tempo))
    groups = mirror_groups(["psqt_kn*"])
    at = OFFSET["PSQT_KNIGHT"]
    assert groups[at + 0] == groups[at + 7] and groups[at + 9] == groups[at + 14]
    assert groups[at + 0] != groups[at + 1]
    assert np.array_equal(groups[: OFFSET["PSQT_KNIGHT"]], np.arange(at))
    best, _ = train(data, data.take(np.arange(200)), start, 0.005, 0.0,
                    Settings(epochs=3, lr=0.2, patience=9, groups=groups,
                             optimizer="newton"))  # fmt: skip
    moved = best.mg[at : at + 64] - start.mg[at : at + 64]
    mirrored = moved.reshape(8, 8)[:, ::-1].reshape(64)
    assert np.allclose(moved, mirrored) and np.any(moved != 0.0)
    other = OFFSET["PSQT_BISHOP"]
    bishop = (best.mg - start.mg)[other : other + 64].reshape(8, 8)
    assert not np.allclose(bishop, bishop[:, ::-1])
    with pytest.raises(ValueError, match="matches no piece-square table"):
        mirror_groups(["MATERIAL"])


def test_weights_module_round_trip() -> None:
    """Writing the shipped weights gives the shipped file; reading it gives the same numbers."""
    mg, eg, tempo = module_weights(weights)
    text = WEIGHTS_FILE.read_text(encoding="utf-8")
    written = text.split("Written by ``plies tune``: ", 1)[1].split(".\nThe layout", 1)[0]
    note = " ".join(written.split())
    assert format_weights(mg, eg, tempo, note) == text
    again = read_weights(WEIGHTS_FILE)
    assert np.array_equal(again[0], mg) and np.array_equal(again[1], eg) and again[2] == tempo
    namespace: dict[str, object] = {}
    exec(compile(text, str(WEIGHTS_FILE), "exec"), namespace)  # the module runs as written
    assert namespace["MATERIAL_MG"] == tuple(int(v) for v in mg[:5])


def test_cli_tunes_and_writes_a_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A small run writes a readable module, reports K and the epochs, counts bad lines."""
    data = tmp_path / "d.txt"
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    data.write_text("\n".join([*lines[:800], "not a position", "x | 2.0"]) + "\n")
    epd = tmp_path / "e.epd"
    epd.write_text('4k3/8/8/8/8/8/4P3/4K3 w - - c9 "1-0";\n')
    out = tmp_path / "w.py"
    assert main(["tune", str(data), str(epd), "--out", str(out), "--epochs", "2"]) == 0
    err = capsys.readouterr().err
    assert "skipped 2 bad lines" in err and "K = " in err and "epoch   2" in err
    assert "801 positions" in err
    rare = tmp_path / "rare.py"
    assert main(["tune", str(data), "--out", str(rare), "--epochs", "2", "--lr", "5",
                 "--min-support", "1e9"]) == 0  # fmt: skip
    assert "held fixed for lack of evidence" in capsys.readouterr().err
    still = read_weights(rare)
    shipped = module_weights(weights)
    # Only the tempo (support = every row) may move when nothing else has the evidence.
    assert np.array_equal(still[0], shipped[0]) and np.array_equal(still[1], shipped[1])
    mg, _, _ = read_weights(out)
    assert len(mg) == len(module_weights(weights)[0])


def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Missing files, files without positions and bad options: one line, exit 2, nothing written."""
    out = tmp_path / "w.py"
    assert main(["tune", str(tmp_path / "missing.txt"), "--out", str(out)]) == 2
    assert "cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\nworld | 0.7\n")
    assert main(["tune", str(junk), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "skipped 2 bad lines" in err and "no usable positions" in err
    assert main(["tune", str(SAMPLE), "--out", str(out), "--validation", "1.5"]) == 2
    assert "--validation" in capsys.readouterr().err
    bad_init = tmp_path / "init.py"
    bad_init.write_text("TEMPO = 1\n")
    assert main(["tune", str(SAMPLE), "--out", str(out), "--init", str(bad_init)]) == 2
    assert "MATERIAL_MG" in capsys.readouterr().err
    assert main(["tune", str(SAMPLE), "--out", str(out), "--only", "PAWNZ"]) == 2
    assert "--only" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(WeightsFileError):
        read_weights(tmp_path / "nope.py")
