"""An outside engine whose process died between games fails the next start cleanly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.waiting import wait_until

from plies.agents.player import PlayerError
from plies.agents.uci_player import UciPlayer

TOY = Path(__file__).with_name("toy_uci.py")


def test_engine_killed_between_games_is_a_start_failure() -> None:
    player = UciPlayer("toy", [sys.executable, str(TOY)], {})
    try:
        player.new_game(None)
        assert player.engine is not None
        transport = player.engine.transport
        player.engine.protocol.loop.call_soon_threadsafe(transport.kill)
        wait_until(lambda: transport.get_returncode() is not None, "the engine died")
        with pytest.raises(PlayerError) as info:
            player.new_game(None)
        assert info.value.kind == "start"
        assert not player.healthy
        player.new_game(None)  # a fresh process replaces the dead one
        assert player.healthy
    finally:
        player.close()
