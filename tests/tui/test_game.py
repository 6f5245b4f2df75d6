"""The terminal game driven by key presses through Textual's pilot."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from chickenfoot.match import Match
from chickenfoot.move import Move
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.hand_over import HandOver
from chickenfoot.tui.screens.round_end import RoundEnd
from chickenfoot.tui.screens.save import SavePrompt
from chickenfoot.tui.screens.start import StartOptions, StartScreen
from chickenfoot.tui.session import Session

from .helpers import ROUND_SEED, advance, human_choice, log_text, settle, shown, small_session

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(120)]


async def test_whole_round_with_keys_draws_passes_and_a_chicken_foot() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    presses = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        while isinstance(app.screen, GameScreen):
            screen = app.screen
            assert screen.my_turn()
            wanted = human_choice(list(screen.shown_view().legal_moves))
            await pilot.press("p" if wanted.kind == "pass" else "enter")
            presses += 1
            assert wanted in [step.move for step in session.round.history if step.seat == 0]
            await settle(pilot, app)
        assert isinstance(app.screen, RoundEnd)
        game = app.screen_stack[-2]
        assert isinstance(game, GameScreen)
        log = log_text(game)
        summary = shown(app.screen.query_one(Static))
    history = session.round.history
    human = [step.move.kind for step in history if step.seat == 0]
    assert "draw" in human and "pass" in human
    assert any(step.move.tile is not None and step.move.tile.is_double and step.move.kind == "play" for step in history)
    assert "Chicken foot!" in log and "You drew" in log and "You passed" in log
    assert len(session.choices) == presses
    assert session.match.is_over() and "You win the match!" in summary


async def test_hot_seat_hides_the_hand_until_the_next_player_takes_over() -> None:
    # Seed 2: the first player's move hands the turn to the other, who then has a choice (no forced draw).
    session = small_session(seed=2, seats=("human", "human"))
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        while isinstance(app.screen, HandOver):
            await pilot.press("x")
            await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        first = session.round.to_move
        assert game.viewer == first and game.hand() == tuple(session.round.hand(first))
        await pilot.press("enter")
        await settle(pilot, app)
        second = 1 - first
        assert isinstance(app.screen, HandOver) and app.screen.seat == second
        assert game.viewer is None
        assert "hidden" in shown(game.query_one("#hand", Static))
        await pilot.press("space")
        await settle(pilot, app)
        assert app.screen is game and game.viewer == second
        assert game.hand() == tuple(session.round.hand(second))


async def test_undo_takes_back_the_last_own_move_against_bots() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        before = [str(step.move) for step in session.round.history]
        hand = session.round.hand(0)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        log_before = log_text(screen)
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(session.round.history) > len(before)
        await pilot.press("u")
        await settle(pilot, app)
        assert [str(step.move) for step in session.round.history] == before
        taken_back = len(log_text(screen).splitlines()) - len(log_before.splitlines())
        assert log_text(screen).startswith(log_before) and taken_back == 1  # only "Took back N moves" added
        assert session.round.hand(0) == hand and session.round.to_move == 0


async def test_hint_selects_the_suggested_move() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("h")
        # The hint thinks for up to a second, off the interface's thread.
        for _ in range(1000):
            said = shown(screen.query_one("#announce", Static))
            if "Hint: " in said:
                break
            await pilot.pause(0.01)
        suggested = Move.parse(said.split("Hint: ")[1].split(" ")[0])
        assert suggested in session.view(0).legal_moves
        if suggested.tile is not None:  # a draw or a pass has no tile to select
            assert screen.aimed_move() == suggested
        assert "points" in said or "only legal move" in said


async def test_save_then_resume_gives_the_same_position(tmp_path: Path) -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    target = tmp_path / "saved.json"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(3):
            await pilot.press("enter")
            await settle(pilot, app)
        await pilot.press("s")
        assert isinstance(app.screen, SavePrompt)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot, app)
    saved = Session.load(target)
    assert saved.seats == ["human", "greedy"]
    assert saved.match.record() == session.match.record()

    resumed = ChickenFootApp(StartOptions(), pace=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        assert isinstance(resumed.screen, StartScreen)
        resumed.screen.query_one("#resume-path", Input).value = str(target)
        await pilot.click("#resume-button")
        await settle(pilot, resumed)
        game = resumed.screen
        assert isinstance(game, GameScreen)
        assert game.shown_view() == session.view(0)


async def test_start_screen_starts_the_chosen_match() -> None:
    app = ChickenFootApp(StartOptions(seed=7, players=3), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#rounds", Input).value = "2"
        await pilot.click("#start-button")
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        assert game.session.match.players == 3 and game.session.match.rules.round_count == 2
        assert (
            game.session.match.record()["rounds"][0]["hands"]
            == Match(game.session.match.rules, 3, 7).record()["rounds"][0]["hands"]
        )


async def test_start_screen_reports_bad_input_on_one_line() -> None:
    app = ChickenFootApp(StartOptions(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#seed", Input).value = "abc"
        await pilot.click("#start-button")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        error = shown(app.screen.query_one("#start-error", Static))
        assert "Seed must be a whole number (got 'abc')" in error and "\n" not in error.strip()


async def test_round_end_then_enter_deals_the_next_round() -> None:
    session = Session.new(small_session().match.rules.replace(rounds=2), ["human", "greedy"], ROUND_SEED)
    advance(session)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, RoundEnd)
        assert "Press Enter for the next round" in shown(app.screen.query_one(Static))
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen | HandOver)
        assert session.match.round_number == 2 and session.round.start_double == 5


async def test_a_click_on_a_highlighted_target_plays_there() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        move = screen.aimed_move()
        assert move is not None
        before = len(session.round.history)
        await pilot.click("#actions", offset=(len(f"{move.tile} on: ") + 2, 0))
        await settle(pilot, app)
        assert session.round.history[before].move == move
