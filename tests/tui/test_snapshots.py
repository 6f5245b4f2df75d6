"""Snapshots of the screens at 80×24 (update with ``pytest tests/tui --snapshot-update``)."""

from __future__ import annotations

from typing import Any

from chickenfoot.layout import Phase
from chickenfoot.rules import Rules
from chickenfoot.tui.app import ChickenFootApp, StartOptions
from chickenfoot.tui.session import Session

from .helpers import advance

FOOT_SEED = 5
"""Double-9, four seats: the human's turn comes with a chicken foot open and 17 tiles down."""

SIZE = (80, 24)


def four_seats() -> Session:
    return Session.new(Rules().replace(rounds=2), ["human", "greedy", "greedy", "greedy"], FOOT_SEED)


def test_start_screen(snap_compare: Any) -> None:
    assert snap_compare(ChickenFootApp(StartOptions(seed=3), pace=0), terminal_size=SIZE)


def test_board_with_an_open_chicken_foot(snap_compare: Any) -> None:
    session = four_seats()
    advance(session, until_foot=True)
    assert session.round.phase == Phase.FOOT and session.round.to_move == 0
    assert snap_compare(ChickenFootApp(session=session, pace=0), terminal_size=SIZE)


def test_round_end_screen(snap_compare: Any) -> None:
    session = four_seats()
    advance(session)
    assert session.round.is_over() and not session.match.is_over()
    assert snap_compare(ChickenFootApp(session=session, pace=0), terminal_size=SIZE)
