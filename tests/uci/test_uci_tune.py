"""``plies uci --tune``: the search parameters as options, through python-chess."""

from __future__ import annotations

import sys

import chess
import chess.engine
import pytest
from tests.uci.conftest import START_TIMEOUT_S, UCI_COMMAND

from plies.arena.builds import CURRENT_SRC, Build
from plies.params import LMR_BASE, PARAMS


def test_tune_declares_and_applies_the_parameters() -> None:
    """Each parameter is a spin with its range; a set value changes the search."""
    with chess.engine.SimpleEngine.popen_uci([*UCI_COMMAND, "--tune"],
                                             timeout=START_TIMEOUT_S) as engine:  # fmt: skip
        for p in PARAMS:
            o = engine.options[p.name]
            assert (o.type, o.default, o.min, o.max) == ("spin", p.default, p.minimum, p.maximum)
        board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1")

        def nodes() -> int:
            """Nodes of a fresh depth-7 search."""
            engine.configure({"Clear Hash": None})
            info = engine.analyse(board, chess.engine.Limit(depth=7), game=object())
            return int(info["nodes"])

        before = nodes()
        engine.configure({"LmrBase": 150})
        assert nodes() != before
        engine.configure({"LmrBase": PARAMS[LMR_BASE].default})
        assert nodes() == before


def test_without_tune_the_parameters_are_not_options() -> None:
    """A GUI sees only the engine's options."""
    with chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=START_TIMEOUT_S) as engine:
        assert all(p.name not in engine.options for p in PARAMS)


@pytest.mark.parametrize(("options", "tuned"), [((), False), ((("RfpMargin", "80"),), True),
                                                ((("Hash", "16"),), False)])  # fmt: skip
def test_a_build_setting_a_parameter_runs_with_tune(
    options: tuple[tuple[str, str], ...], tuned: bool
) -> None:
    """``plies sprt --new-options RfpMargin=80`` starts its engine with ``--tune``."""
    command = Build("new", CURRENT_SRC, options).command()
    assert command[-3:] == ("plies", "uci", "--tune") if tuned else command[-2:] == ("plies", "uci")
    assert sys.executable in command
