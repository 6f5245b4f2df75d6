"""A saved match resumed against bots: the moves its human chose are known again, so undo works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.widgets import Static

from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.session import Session

from .helpers import advance, settle, shown, small_session


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=40))
def test_a_resumed_match_knows_which_moves_its_human_chose(seed: int, ply: int) -> None:
    session = small_session(seed)
    advance(session, until_ply=ply)
    resumed = Session.loads(json.dumps(session.record()))
    assert resumed.choices == session.choices
    assert resumed.can_undo() == session.can_undo()


def test_hot_seat_choices_are_both_players() -> None:
    session = small_session(seed=2, seats=("human", "human"))
    advance(session, until_ply=6)
    assert session.choices and Session.loads(json.dumps(session.record())).choices == session.choices


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_undo_after_resuming_a_saved_match_against_bots(tmp_path: Path) -> None:
    session = small_session()
    advance(session, until_ply=8)  # the human has chosen twice: at plies 4 and 6
    assert session.choices == [4, 6]
    last_choice = session.choices[-1]
    saved = session.save(tmp_path / "match.json")
    resumed = Session.load(saved)
    app = ChickenFootApp(session=resumed, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.my_turn()
        await pilot.press("u")
        await settle(pilot, app)
        assert resumed.round.ply == last_choice and resumed.round.to_move == 0
        assert "Your last move was taken back." in shown(screen.query_one("#announce", Static))
