"""A real server SIGKILLed under a few tables of scripted players, restarted, and checked against storage.

The full-size run (100+ tables) is ``python benchmarks/load.py --chaos``; this is its small version.
"""

from __future__ import annotations

import asyncio
from contextlib import ExitStack

import pytest

from chickenfoot.testing.clients import crash_and_resume
from chickenfoot.testing.launch import free_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]  # real server processes


def test_every_acknowledged_move_survives_a_sigkill(database_url: str) -> None:
    with ExitStack() as stack:
        result = asyncio.run(
            crash_and_resume(
                database_url, free_port(), stack, tables=6, rounds=2, think=0.1, seconds=0, seed=7, played=10
            )
        )
    assert result["problems"] == []
    # Killed mid-match: once every seat has seen 10 versions, long before the end of two rounds.
    assert result["versions_seen_at_kill"] >= 6 * 4 * 10 and result["players_done_before_kill"] == 0
    assert result["reconnects"] >= 6 * 4  # everyone was cut off and came back
    assert result["moves_checked"] > 0
