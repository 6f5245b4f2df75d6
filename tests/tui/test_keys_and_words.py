"""The terminal game at the table: the board follows the chosen target, quitting offers to save, the
key bar offers only what can be done, a resumed match keeps its log, and the player is "you"."""

from __future__ import annotations

import re
import string
from itertools import pairwise
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Static

from chickenfoot.i18n import render
from chickenfoot.messages import Code, Said
from chickenfoot.rules import Rules
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.board import board_lines
from chickenfoot.tui.keys import KeyBar
from chickenfoot.tui.screens.game import GameScreen, chosen_region
from chickenfoot.tui.screens.howto import HowTo
from chickenfoot.tui.screens.quit import QuitPrompt
from chickenfoot.tui.screens.round_end import RoundEnd
from chickenfoot.tui.screens.save import SavePrompt
from chickenfoot.tui.session import YOU_WORDING, Session

from .helpers import advance, log_text, settle, shown, small_session

pytestmark = pytest.mark.timeout(120)

BIG_SEED, BIG_PLY = 0, 42
"""Double-9, four seats: at move 42 the human has 14 legal moves, several drawn below a 70×20 screen's board."""

BLOCKED_SEED = 2
"""Double-6, the human against greedy: the round blocks, the human with the fewest points (10 against 11)."""


def big_board() -> Session:
    session = Session.new(Rules().replace(rounds=1), ["human", "greedy", "greedy", "greedy"], BIG_SEED)
    advance(session, until_ply=BIG_PLY)
    assert session.round.to_move == 0 and not session.round.is_over()
    return session


def footer_actions(app: ChickenFootApp) -> set[str]:
    return {key.action for key in app.screen.query_one(KeyBar).shown_keys()}


@pytest.mark.asyncio
async def test_the_board_scrolls_to_every_chosen_target() -> None:
    session = big_board()
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        box = game.query_one("#board-box")
        drawn = shown(game.query_one("#board", Static)).splitlines()
        assert len(drawn) > box.scrollable_content_region.height  # the board does not fit
        hidden_at_first = 0
        for _ in range(len(game.hand())):
            for _ in range(len(game.moves_of_selected())):
                move = game.aimed_move()
                assert move is not None and move.target is not None
                view = game.shown_view()
                targets = [m.target for m in game.moves_of_selected()]
                region = chosen_region(board_lines(view, targets, move.target))
                assert region is not None
                tile = move.target
                row = drawn[region.y]
                assert f"[{tile.high}|{tile.low}]" in row or f"[{tile.low}|{tile.high}]" in row or "▸" in row
                if region.bottom > box.scrollable_content_region.height:
                    hidden_at_first += 1
                await pilot.pause()
                await pilot.pause()
                window = box.scrollable_content_region.at_offset(box.scroll_offset)
                assert window.contains_region(region), (str(move), region, window)
                await pilot.press("down")
            await pilot.press("right")
        assert hidden_at_first > 0  # some target was out of sight before the board scrolled to it
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y > 0
        await pilot.press("pageup", "pageup", "pageup")
        await pilot.pause()
        assert box.scroll_y == 0


@pytest.mark.asyncio
async def test_q_asks_to_save_and_the_saved_match_resumes_with_its_log(tmp_path: Path) -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    target = tmp_path / "quit.json"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(2):
            await pilot.press("enter")
            await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        before = log_text(game)
        await pilot.press("q")
        assert isinstance(app.screen, QuitPrompt)
        assert render(Code.TUI_QUIT_QUESTION, "en") in shown(app.screen.query_one("Label", Static))
        assert {str(b.label) for b in app.screen.query(Button)} == {
            "Save and quit",
            "Quit without saving",
            "Keep playing",
        }
        await pilot.press("s")
        assert isinstance(app.screen, SavePrompt)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0 and target.exists()
    assert Session.load(target).match.record() == session.match.record()

    resumed = ChickenFootApp(session=Session.load(target), pace=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(pilot, resumed)
        game = resumed.screen
        assert isinstance(game, GameScreen)
        assert log_text(game) == before
        assert "You played" in before and "Player 2" in before


@pytest.mark.asyncio
async def test_q_then_escape_plays_on_and_q_twice_quits_without_saving(tmp_path: Path) -> None:
    app = ChickenFootApp(session=small_session(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitPrompt)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q", "q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.asyncio
async def test_ctrl_q_and_ctrl_c_ask_like_q_even_from_a_dialog_over_the_game() -> None:
    app = ChickenFootApp(session=small_session(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+c")  # what many press to quit: as Ctrl+Q, with no notice in English
        await pilot.pause()
        assert isinstance(app.screen, QuitPrompt) and app.is_running
        await pilot.press("escape", "ctrl+q")
        assert isinstance(app.screen, QuitPrompt) and app.is_running
        await pilot.press("ctrl+q")  # asking already: one prompt, still running
        assert sum(isinstance(s, QuitPrompt) for s in app.screen_stack) == 1 and app.is_running
        await pilot.press("escape", "question_mark")  # How to play over the game
        assert isinstance(app.screen, HowTo)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitPrompt) and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.asyncio
async def test_a_finished_match_quits_at_once_and_offers_no_next_round() -> None:
    session = Session.new(Rules.preset("double-6").replace(rounds=2), ["human", "greedy"], 1)
    advance(session)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, RoundEnd)
        assert "next" in footer_actions(app)
        await pilot.press("enter")
        await settle(pilot, app)
        while not session.round.is_over():
            advance(session)
            game = app.screen
            assert isinstance(game, GameScreen)
            game.advance()
            await settle(pilot, app)
        assert isinstance(app.screen, RoundEnd) and session.match.is_over()
        await pilot.pause()
        assert "next" not in footer_actions(app) and {"save", "quit"} <= footer_actions(app)
        await pilot.press("enter")  # no next round: nothing happens
        assert isinstance(app.screen, RoundEnd)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.asyncio
async def test_the_narrow_log_breaks_lines_between_phrases() -> None:
    session = Session.new(Rules().replace(rounds=1), ["human", "greedy", "greedy", "greedy"], BIG_SEED)
    advance(session)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(60, 40)) as pilot:
        await settle(pilot, app)
        game = app.screen_stack[-2]
        assert isinstance(game, GameScreen)
        log = game.query_one("#log")
        width = log.scrollable_content_region.width
        lines = [strip.text.rstrip() for strip in log.lines]  # type: ignore[attr-defined]
        written = log_text(game).splitlines()
    entries: list[list[str]] = []
    for line in lines:
        assert len(line) <= width
        if line.startswith("  "):
            entries[-1].append(line.strip())
        else:
            entries.append([line])
    assert any(len(entry) > 1 for entry in entries)  # the log is narrow: some entries take two lines
    assert [" ".join(entry) for entry in entries] == written
    tile = re.compile(r"^\d-\d")
    for entry in entries:
        for line, after in pairwise(entry):
            # A name ("Seat 2") or a tile with its "on" stays whole: no line ends before one.
            assert not line.endswith(("Seat", " on", " played", " placed the hub")), entry
            assert not tile.match(after) or line.endswith(("!", ":")), entry


@pytest.mark.asyncio
async def test_the_player_at_the_keyboard_is_you() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        assert str(game.query_one("#hand", Static).border_title).startswith("Your hand · ")
        assert "Your turn" in shown(game.query_one("#status", Static))
        await pilot.press("d" if any(m.kind == "play" for m in game.shown_view().legal_moves) else "p")
        said = shown(game.query_one("#announce", Static))
        assert said.strip() and "seat 0" not in said.lower() and "you" in said.lower()


@pytest.mark.asyncio
async def test_a_blocked_round_says_who_won_it() -> None:
    session = Session.new(Rules.preset("double-6").replace(rounds=1), ["human", "greedy"], BLOCKED_SEED)
    advance(session)
    assert session.round.end_reason == "blocked"
    points = session.round.points()
    assert points[0] < points[1]
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, RoundEnd)
        summary = shown(app.screen.query_one(Static))
    assert f"You win the round with the fewest points left ({points[0]} points)" in summary
    assert "Seat 0" not in summary


@pytest.mark.asyncio
async def test_the_game_waits_while_the_quit_question_is_open() -> None:
    session = small_session()
    app = ChickenFootApp(session=session, pace=0.2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # the bot thinks for at least 0.2 s
        await pilot.press("q")
        assert isinstance(app.screen, QuitPrompt)
        plies = session.round.ply
        await pilot.pause(0.8)
        assert session.round.ply == plies and isinstance(app.screen, QuitPrompt)
        await pilot.press("escape")
        await settle(pilot, app)
        assert session.round.ply > plies


def test_every_message_about_you_is_worded_to_you() -> None:
    """Alone against bots, a message about seat 0 takes its second-person wording, with no name or
    seat number in it; about anyone else, or with several humans, it keeps its own."""
    alone, together = small_session(), small_session(seats=("human", "human"))
    fields = string.Formatter()
    for code, you in YOU_WORDING.items():
        english = code.value.plural or code.value.english
        said = {f for _, f, _, _ in fields.parse(you.value.plural or you.value.english) if f is not None}
        assert said <= {f for _, f, _, _ in fields.parse(english) if f is not None} - {"name", "seat"}, you.id
        about = "names" if "{names}" in english else "seat"
        for seat, session, expected in [(0, alone, you), (1, alone, code), (0, together, code)]:
            params = {about: (seat,) if about == "names" else seat, "count": 1}
            assert session.addressed(Said.of(code, **params)).code is expected, (code.id, seat)
