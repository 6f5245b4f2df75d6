"""The terminal games take their table facts from the core: bot levels, the largest table, forced moves."""

from __future__ import annotations

import subprocess
import sys

import pytest
from textual.widgets import Select

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.screens.start import StartOptions
from chickenfoot.tui.session import HUMAN, parse_seats

from .helpers import small_session


@pytest.mark.asyncio
async def test_the_start_screen_offers_the_bots_packages_levels_and_largest_table() -> None:
    app = ChickenFootApp(StartOptions(seats=["human", "greedy"]), pace=0)
    async with app.run_test(size=(100, 30)):
        seat = app.screen.query_one("#seat-1", Select)
        offered = [value for _, value in seat._options if value != Select.BLANK]
        assert offered == [HUMAN, *LEVELS, "greedy"]  # a bot named on the command line stays chosen
        assert seat.value == "greedy"
        assert app.screen.query_one("#seat-2", Select).value == DEFAULT_LEVEL
        counts = [value for _, value in app.screen.query_one("#seat-count", Select)._options]
        assert counts[-1] == MAX_PLAYERS


def test_missing_seats_get_the_default_level_and_unknown_ones_one_line() -> None:
    assert parse_seats("human", 3) == [HUMAN, DEFAULT_LEVEL, DEFAULT_LEVEL]
    with pytest.raises(ValueError, match=r"^unknown seat kind 'wizard' \(choose from human, easy, medium"):
        parse_seats("human,wizard", 2)


def test_more_players_than_the_largest_table_are_refused() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", "--plain", "--players", str(MAX_PLAYERS + 1)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert "--players" in result.stderr and str(MAX_PLAYERS) in result.stderr


def test_a_human_places_the_hub_and_only_draws_and_passes_are_made_for_them() -> None:
    session = small_session(seed=2, seats=("human", "human"))
    round_ = session.round
    assert [m.kind for m in round_.legal_moves()] == ["hub"] and session.forced_move() is None
    while not round_.is_over():
        assert session.forced_move() == round_.view(round_.to_move).forced == round_.forced_move()
        session.play(round_.legal_moves()[0])
