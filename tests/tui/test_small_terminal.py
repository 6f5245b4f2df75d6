"""At 80×24, in every language: every key in sight on the key bar, the whole hint, whole score headers,
the whole save question."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Label, Static

from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.keys import KeyBar
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.howto import HowTo
from chickenfoot.tui.screens.quit import QuitPrompt
from chickenfoot.tui.screens.save import SavePrompt
from chickenfoot.tui.session import Session

from .helpers import HINT_PLY, HINT_SEED, a_long_hint, advance, settle, shown

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(120)]

SIZE = (80, 24)
GAME_KEYS = {"pick(1)", "aim(1)", "play", "draw", "pass", "hint", "undo", "save", "howto", "quit"}


def four_seats(lang: str, seed: int = 5) -> Session:
    return Session.new(Rules().replace(rounds=2), ["human", "medium", "medium", "medium"], seed, lang=lang)


def bar_lines(bar: KeyBar) -> list[str]:
    return [line.plain for line in bar.lines(bar.content_size.width)]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_key_of_the_game_is_in_sight(lang: str) -> None:
    session = four_seats(lang)
    advance(session, until_foot=True)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        bar = app.screen.query_one(KeyBar)
        keys = bar.shown_keys()
        lines = bar_lines(bar)
        assert {key.action for key in keys} == GAME_KEYS  # and no English "palette"
        text = "\n".join(lines)
        assert all(f"{key.shown} {key.description}" in text for key in keys)
        assert all(cell_len(line) <= bar.content_size.width for line in lines)
        assert bar.size.height == len(lines) and bar.region.bottom <= SIZE[1]
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitPrompt)
        bar = app.screen.query_one(KeyBar)
        said = "\n".join(bar_lines(bar))
        for code in (Code.TUI_SAVE_AND_QUIT, Code.TUI_QUIT_WITHOUT_SAVING, Code.TUI_KEEP_PLAYING):
            assert render(code, lang) in said


async def test_a_click_on_a_key_presses_it() -> None:
    session = four_seats("en")
    advance(session, until_foot=True)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        bar = app.screen.query_one(KeyBar)
        row, line = next((y, line) for y, line in enumerate(bar_lines(bar)) if "? How to play" in line)
        offset = (bar.styles.padding.left + line.index("? How to play") + 3, row)
        assert await pilot.click(KeyBar, offset=offset)
        await pilot.pause()
        assert isinstance(app.screen, HowTo)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_whole_hint_and_the_score_headers_are_shown(lang: str) -> None:
    session = four_seats(lang, HINT_SEED)
    advance(session, until_ply=HINT_PLY)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        advice = a_long_hint(session)
        game.show_hint(game.shown_view(), advice, game.generation)
        await pilot.pause()
        announce = game.query_one("#announce", Static)
        whole = game.t(Code.HINT, move=session.say(advice.move.advice()), reason=session.say(advice.why))
        assert announce.size.height > 1 and " ".join(shown(announce).split()) == " ".join(whole.split())
        players = shown(game.query_one("#players", Static)).splitlines()
        headers = [render(code, lang) for code in (Code.PLAYER, Code.TUI_COLUMN_TILES, Code.TUI_COLUMN_POINTS)]
        assert players[0].split() == headers


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_save_question_is_shown_whole(lang: str) -> None:
    session = four_seats(lang)
    advance(session, until_foot=True)
    app = ChickenFootApp(session=session, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SavePrompt)
        box = app.screen.query_one("#save-box")
        label = box.query_one(Label)
        assert box.content_region.contains_region(label.region)
        assert cell_len(render(Code.TUI_SAVE_PROMPT, lang)) <= label.size.width * label.size.height
