"""Snapshots of the screens at 80×24 (update with ``pytest tests/tui --snapshot-update``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from chickenfoot.i18n import LANGUAGES
from chickenfoot.layout import Phase
from chickenfoot.rules import Rules
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.replay import ReplayApp
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.start import StartOptions
from chickenfoot.tui.session import Session

from .helpers import HINT_PLY, HINT_SEED, a_long_hint, advance, played

FOOT_SEED = 5
"""Double-9, four seats: the human's turn comes with a chicken foot open and 17 tiles down."""

SIZE = (80, 24)


TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def four_seats(lang: str = "en") -> Session:
    return Session.new(Rules().replace(rounds=2), ["human", "greedy", "greedy", "greedy"], FOOT_SEED, lang=lang)


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


@pytest.mark.parametrize("lang", TRANSLATED)
def test_start_screen_in_each_language(snap_compare: Any, lang: str) -> None:
    assert snap_compare(ChickenFootApp(StartOptions(seed=3, lang=lang), pace=0), terminal_size=SIZE)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_board_in_each_language(snap_compare: Any, lang: str) -> None:
    session = four_seats(lang)
    advance(session, until_foot=True)
    assert session.round.phase == Phase.FOOT
    assert snap_compare(ChickenFootApp(session=session, pace=0), terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_how_to_play_key(snap_compare: Any, lang: str) -> None:
    session = four_seats(lang)
    advance(session, until_foot=True)
    app = ChickenFootApp(session=session, pace=0)
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_hint_in_each_language(snap_compare: Any, lang: str) -> None:
    session = Session.new(Rules().replace(rounds=2), ["human", "medium", "medium", "medium"], HINT_SEED, lang=lang)
    advance(session, until_ply=HINT_PLY)

    async def show_a_hint(pilot: Pilot[None]) -> None:
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        game.show_hint(game.shown_view(), a_long_hint(session), game.generation)

    assert snap_compare(ChickenFootApp(session=session, pace=0), run_before=show_a_hint, terminal_size=SIZE)


def test_terminal_game_in_lithuanian(snap_compare: Any) -> None:
    session = four_seats("lt")
    advance(session, until_foot=True)
    assert snap_compare(ChickenFootApp(session=session, pace=0), terminal_size=(100, 30))


def test_replay_in_latvian(snap_compare: Any) -> None:
    assert snap_compare(ReplayApp(played(), lang="lv"), press=["right"] * 14, terminal_size=(120, 32))


SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_snapshots"
DOCS = Path(__file__).parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize(
    ("shown", "snapshot"),
    [("terminal-lt.svg", "test_terminal_game_in_lithuanian.svg"), ("replay-lv.svg", "test_replay_in_latvian.svg")],
)
def test_the_screenshots_in_the_docs_are_the_snapshots(shown: str, snapshot: str) -> None:
    """docs/screenshots shows the screens as they are (copy the snapshot after updating it)."""
    assert (DOCS / shown).read_bytes() == (SNAPSHOTS / snapshot).read_bytes()
