"""The table feels alive: moves slide into place (not for a reader who asks for reduced motion), sounds
that wait for the player's first interaction and a mute that is remembered, a chat badge by the
board, a drag hint shown once, and dialogs and toasts that behave.

Slides are caught mid-flight by a stand-in installed before the page loads: it pauses every slide
the moment it starts (a mutation observer runs right after the script that started it), so a test
looks at a slide without racing its 450 ms. Screenshots of a move mid-slide and of the chat badge
are saved with the test artifacts (``artifacts/feel/``; those in ``docs/images/table-life/move-*``
and ``docs/screenshots/`` are copies of them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.match import Match
from chickenfoot.messages import Code
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for

from .conftest import watch_errors
from .helpers import ARTIFACTS, new_table, no_such_table, play_one, sit_down, state

SHOTS = ARTIFACTS / "feel"

# Every slide (a tile onto the board, a tile's back from the boneyard) is recorded as it starts;
# with window.freeze set, a tile placed is paused there, and the page takes no more states.
SLIDES = """
window.slides = [];
window.freeze = false;
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    const is = (name) => node.classList?.contains(name);
    const kind = is("arriving") ? "place" : is("flying-tile") ? "draw" : null;
    if (!kind) continue;
    window.slides.push(kind);
    if (!window.freeze || kind !== "place") continue;
    node.getAnimations().forEach((a) => a.pause());
    window.chickenfoot.onState = () => {}; // and the table with it: no later move redraws the board
  }
}).observe(document, { childList: true, subtree: true });
"""

# The page's AudioContexts counted, and the pitch of every tone started.
AUDIO = """
window.audioContexts = 0;
window.tones = [];
const RealAudioContext = window.AudioContext;
window.AudioContext = class extends RealAudioContext {
  constructor(...args) { super(...args); window.audioContexts += 1; }
};
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.tones.push(this.frequency.value);
  return start.apply(this, args);
};
"""

# A turn with a choice: it lasts until the player moves (a sole draw or pass the server makes).
TURN = "() => window.chickenfoot.myTurn && !window.chickenfoot.state.forced"
PLACED_PITCH = 180  # sound.js: the first tone of "placed"


@contextmanager
def opened(browser: Browser, width: int = 1280, height: int | None = None, **options: Any) -> Iterator[Page]:
    """A page in its own browser context (a phone below 600 px), failing on page errors and CSP violations."""
    size: ViewportSize = {"width": width, "height": height or (844 if width < 600 else 800)}
    context = browser.new_context(viewport=size, has_touch=width < 600, **options)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def move(page: Page) -> None:
    """This turn's move: a tile if one fits, else the draw; returns once the page has moved on."""
    if play_one(page) is None:
        page.click("#draw")
    page.wait_for_function("() => !window.chickenfoot.myTurn || window.slides.length")


def until_a_tile_is_placed(page: Page) -> None:
    """Play on (the player's turns: a tile, else a draw) until a tile is placed, by anyone."""
    tiles = len(state(page)["layout"])
    for _ in range(20):
        page.wait_for_function(f"n => window.chickenfoot.state.layout.length > n || ({TURN})()", arg=tiles)
        if len(state(page)["layout"]) > tiles:
            return
        if play_one(page) is None:
            page.click("#draw")
        page.wait_for_function(
            "([n, v]) => window.chickenfoot.state.layout.length > n || window.chickenfoot.socket.version !== v",
            arg=[tiles, page.evaluate("window.chickenfoot.socket.version")],
        )
    raise AssertionError("no tile placed in 20 turns")


def until_a_tile_slides(page: Page) -> None:
    """Play on (the bot's moves and the player's) until a placed tile slides."""
    for _ in range(20):
        page.wait_for_function(f"() => window.slides.includes('place') || ({TURN})()")
        if "place" in page.evaluate("window.slides"):
            return
        move(page)
    raise AssertionError("no tile slid in 20 turns")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_placed_tile_slides_from_its_seat_and_stays_marked(browser: Browser, server: str, width: int) -> None:
    with opened(browser, width) as page:
        page.add_init_script(SLIDES + "window.freeze = true;")
        sit_down(page, server, new_table(server, ["Ann", "Bo", "Cy"]))
        until_a_tile_slides(page)
        # Mid-slide: the tile just placed, on its way (not yet where the layout puts it), shown
        # 120 ms into its 450 (it starts outside the board, at the seat or in the hand; eased, it has
        # come about half way).
        flight = page.evaluate(
            """() => {
              const wrap = document.querySelector("#board .arriving");
              const [slide] = wrap.getAnimations();
              slide.currentTime = 120;
              return { last: !!wrap.querySelector(":scope > .tile.last"), paused: slide.playState,
                       at: slide.currentTime, offset: getComputedStyle(wrap).transform };
            }"""
        )
        assert flight["last"] and flight["paused"] == "paused" and flight["at"] < 450
        assert flight["offset"] not in ("none", "matrix(1, 0, 0, 1, 0, 0)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-move-{width}.png"))
        # Let it land: the tile sits in its place, still marked as the last one played.
        page.evaluate("document.getAnimations().forEach((a) => a.play())")
        page.wait_for_function("() => !document.querySelector('#board .arriving')")
        last = page.get_attribute("#board .world > .tile.last", "data-tile")
        assert last == state(page)["layout"][-1][0]


def test_reduced_motion_slides_nothing(browser: Browser, server: str) -> None:
    with opened(browser, reduced_motion="reduce") as page:
        page.add_init_script(SLIDES)
        sit_down(page, server, new_table(server, ["Ann", "Bo", "Cy"]))
        # Several moves, the bots' and the player's own (a tile from the hand, or a draw).
        for _ in range(3):
            page.wait_for_function(TURN)
            tiles = len(state(page)["layout"])
            if play_one(page) is None:
                page.click("#draw")
            page.wait_for_function(
                "n => window.chickenfoot.state.layout.length > n || !window.chickenfoot.myTurn", arg=tiles
            )
        page.wait_for_function("() => window.chickenfoot.state.layout.length >= 3")
        assert page.evaluate("window.slides") == []
        assert page.locator("#board .world > .tile.last").count() == 1  # the last move is marked all the same


def test_sounds_wait_for_the_player_and_the_mute_is_remembered(browser: Browser, server: str) -> None:
    with opened(browser) as page:
        page.add_init_script(AUDIO)
        sit_down(page, server, new_table(server, ["Ann", "Bo"]))
        page.wait_for_function(TURN)
        # The turn began (and perhaps a bot placed a tile) before any interaction: no AudioContext.
        assert page.evaluate("[window.audioContexts, window.tones.length]") == [0, 0]
        sound = page.locator("#sound")
        assert sound.is_visible() and sound.get_attribute("aria-pressed") == "true"  # on by default
        assert sound.get_attribute("aria-label") == render(Code.SOUND_TOGGLE, "en")
        # Once the player has clicked on the page, a tile placed is heard (theirs, or the bot's; a
        # plain tile or a chicken foot). The click is a real one: play_one clicks a target by a
        # script's event, which is no interaction.
        page.click("#zoom-fit")
        until_a_tile_is_placed(page)
        page.wait_for_function("() => window.tones.length > 0")
        assert page.evaluate("window.audioContexts") == 1
        # Muted: remembered in this browser, and after a reload nothing sounds, not even once the
        # player interacts and tiles are placed.
        sound.click()
        assert sound.get_attribute("aria-pressed") == "false"
        assert page.evaluate("localStorage.getItem('cf-sound')") == "off"
        page.reload()
        page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        page.click("#zoom-fit")  # an interaction
        until_a_tile_is_placed(page)
        assert page.evaluate("[window.audioContexts, window.tones.length]") == [0, 0]
        # Turned on again: it says so out loud.
        page.click("#sound")
        page.wait_for_function(f"() => window.tones.includes({PLACED_PITCH})")
        assert page.evaluate("localStorage.getItem('cf-sound')") == "on"


# On a phone the chat is below the board and the hand; in a short window at 1280 px, the side
# panel is scrolled down to a long log and the scores.
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 600)])
def test_the_chat_badge_counts_lines_that_came_out_of_sight(
    browser: Browser, server: str, width: int, height: int
) -> None:
    table = new_table(server, ["Ann", "Bo", "Cy"])
    with opened(browser, width, height) as page, opened(browser) as watcher:
        sit_down(page, server, table)
        for _ in range(30):
            if width < 600 or len(state(page)["log"]) >= 16:
                break
            until_a_tile_is_placed(page)
        page.evaluate("document.querySelector('.side').scrollTop = 1e6")
        assert page.evaluate(
            """() => { const r = document.querySelector('#chat-log').getBoundingClientRect();
                       const side = document.querySelector('.side').getBoundingClientRect();
                       return r.top >= innerHeight || r.bottom <= side.top; }"""
        ), "the chat is in view"
        watcher.goto(f"{server}/t/{table['code']}")  # a spectator, who may chat
        watcher.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
        for text in ("hello", "nice move"):
            watcher.fill("#chat-text", text)
            watcher.press("#chat-text", "Enter")
            watcher.wait_for_function("t => document.querySelector('#chat-log').textContent.includes(t)", arg=text)
        page.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('nice move')")
        badge = page.locator("#chat-badge")
        page.wait_for_function("() => document.querySelector('#chat-badge').textContent === '2'")
        assert badge.get_attribute("aria-label") == render(Code.CHAT_UNREAD, "en", count=2)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-chat-badge-{width}.png"))
        # The badge brings the chat into view, and the lines are read: it goes.
        badge.click()
        badge.wait_for(state="hidden")
        assert page.evaluate("document.activeElement.id") == "chat-text"


def test_leaving_asks_in_the_pages_own_dialog_and_the_hand_says_what_can_be_played(page: Page, server: str) -> None:
    browser_dialogs: list[str] = []
    page.on("dialog", lambda dialog: browser_dialogs.append(dialog.message))
    table = new_table(server, ["Ann", "Bo"])
    sit_down(page, server, table)
    page.wait_for_function(TURN)
    # The hand says which tiles can be played, to screen readers as to the eye.
    for tile in page.locator(".hand-tile").all():
        playable = "playable" in (tile.get_attribute("class") or "")
        said = (tile.get_attribute("aria-label") or "").endswith(", " + render(Code.TABLE_PLAYABLE, "en"))
        assert said == playable, tile.get_attribute("aria-label")
    # The drag hint: shown with the first tile there is to play, put away once and for all.
    hint = page.locator("#drag-hint")
    if page.locator(".hand-tile.playable").count():
        assert hint.is_visible()
        page.click("#drag-hint-close")
        assert hint.is_hidden() and page.evaluate("localStorage.getItem('cf-drag-hint')") == "seen"
    # Leave: the page's own dialog, the safe answer focused; Escape keeps the seat and gives focus back.
    page.click("#leave")
    dialog = page.locator("#confirm-dialog")
    dialog.wait_for()
    assert dialog.locator("#confirm-text").inner_text() == render(Code.TABLE_LEAVE_CONFIRM, "en")
    assert page.evaluate("document.activeElement.value") == "no"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.id") == "leave"
    assert page.evaluate("localStorage.getItem('cf-left')") is None
    page.click("#leave")
    page.click("#confirm-dialog button[value=yes]")
    page.wait_for_url(f"{server}/")
    assert json.loads(page.evaluate("localStorage.getItem('cf-left')")) == [table["code"]]
    assert browser_dialogs == []


def seen(match: Match, presence: Presence) -> dict[str, Any]:
    """The STATE seat 0 is sent of ``match`` (as JSON makes it)."""
    message = state_for("DEMO42", "playing", match, match.round.view(0), presence)
    return dict(json.loads(json.dumps(message)))


def round_over_state() -> dict[str, Any]:
    """A STATE at the end of a three-seat round, as seat 0 sees it."""
    match = Match(Rules(max_pip=6).replace(rounds=2), players=3, seed=3)
    while not match.round.is_over():
        match.push(match.round.legal_moves()[-1])
    presence = Presence(("Ann", "Bo", "Cy"), ("human", "bot", "bot"), (True,) * 3, (False,) * 3, (None, "easy", "easy"))
    return seen(match, presence)


# Words of the header cells of the results' tables split across lines ("Playe/r"): each word's
# text must sit on one line.
BROKEN_WORDS = """() => [...document.querySelectorAll('#ro-body th')].flatMap((th) => {
  const text = th.firstChild;
  if (!text) return [];
  const broken = [];
  for (const m of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) broken.push(m[0]);
  }
  return broken;
})"""


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_results_dialog_takes_focus_gives_it_back_and_never_breaks_a_word(
    browser: Browser, server: str, lang: str
) -> None:
    with opened(browser, 390) as page:
        page.add_init_script(f"localStorage.setItem('cf-lang', '{lang}')")
        page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATE given here
        page.wait_for_function("() => window.chickenfoot")
        page.focus("#zoom-in")
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", round_over_state())
        page.wait_for_selector("#round-over:not([hidden])")
        assert page.evaluate("document.activeElement.id") == "ro-title"
        assert page.evaluate(BROKEN_WORDS) == []
        page.click("#ro-close")
        assert page.locator("#round-over").is_hidden()
        assert page.evaluate("document.activeElement.id") == "zoom-in"


def test_a_toast_about_a_turn_goes_when_the_turn_moves_on(page: Page, server: str) -> None:
    no_such_table(page, server)  # the page draws the STATEs given here
    match = Match(Rules(max_pip=6), players=2, seed=1)
    presence = Presence(("Ann", "Bo"), ("human", "bot"), (True,) * 2, (False,) * 2, (None, "easy"))
    while match.round.to_move != 0:
        match.push(match.round.legal_moves()[0])
    mine = seen(match, presence)
    # The server draws for this seat: it says so in a toast, about this turn only.
    forced = mine | {"forced": "draw", "legal": ["draw"]}
    page.evaluate(
        """() => { window.statusWrites = 0; const status = document.querySelector('#status');
          new MutationObserver(() => (window.statusWrites += 1)).observe(status, { childList: true }); }"""
    )
    for _ in range(3):  # a presence update resends the same state: the status line is not said again
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", forced)
    toast = page.locator("#toast")
    assert toast.is_visible() and toast.inner_text() == render(Code.MOVE_AUTO_DRAW, "en")
    assert page.evaluate("window.statusWrites") == 1
    match.push(match.round.legal_moves()[0])
    moved_on = seen(match, presence)
    page.evaluate("(state) => window.chickenfoot.onState(state, [])", moved_on)
    assert toast.is_hidden()


# Each seat's name box, where it is not wholly inside its card, or where what is drawn past the box
# (marks piled on a letter) would show.
NAMES_OUTSIDE = """() => [...document.querySelectorAll('.player')].flatMap((card) => {
  const c = card.getBoundingClientRect();
  const name = card.querySelector('.name');
  const r = name.getBoundingClientRect();
  const inside = r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom;
  return inside && getComputedStyle(name).overflow === 'hidden' ? [] : [card.dataset.seat];
})"""


def test_names_of_piled_marks_or_wide_characters_stay_in_their_cards(browser: Browser, server: str) -> None:
    with opened(browser, 390) as page:
        page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATE given here
        page.wait_for_function("() => window.chickenfoot")
        names = ("A\u0301\u0302\u0303\u0304nn", "山" * 20, "Bo")  # four marks on one letter; forty cells
        presence = Presence(names, ("human", "human", "bot"), (True,) * 3, (False,) * 3, (None, None, "easy"))
        message = seen(Match(Rules(), players=3, seed=2), presence)
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", message)
        assert page.locator(".player").count() == 3
        assert page.evaluate(NAMES_OUTSIDE) == []


def test_a_draw_slides_from_the_boneyard_to_the_seat_that_drew(page: Page, server: str) -> None:
    page.add_init_script(SLIDES)
    page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATEs given here
    page.wait_for_function("() => window.chickenfoot")
    presence = Presence(("Ann", "Bo", "Cy"), ("human", "bot", "bot"), (True,) * 3, (False,) * 3, (None, "easy", "easy"))
    for seed in range(100):  # a deal where another seat has nothing to play but the draw
        match = Match(Rules(), players=3, seed=seed)
        while not match.round.is_over() and match.round.legal_moves() != [Move.parse("draw")]:
            match.push(match.round.legal_moves()[0])
        if not match.round.is_over() and match.round.to_move != 0:
            break
    else:
        raise AssertionError("no deal had another seat draw")
    seat = match.round.to_move
    page.evaluate("(state) => window.chickenfoot.onState(state, [])", seen(match, presence))
    match.push(Move.parse("draw"))
    page.evaluate(
        """(state) => { window.chickenfoot.onState(state, []);
          document.querySelector('.flying-tile').getAnimations().forEach((a) => a.pause()); }""",
        seen(match, presence),
    )
    assert page.evaluate("window.slides") == ["draw"]
    assert all(abs(d) < 2 for d in page.evaluate(FROM_CENTRE, "#boneyard")), "it starts at the boneyard"
    # It ends on the card of the seat that drew (a moment before the end: then it is gone).
    page.evaluate(
        """() => { const [slide] = document.querySelector('.flying-tile').getAnimations();
          slide.currentTime = slide.effect.getComputedTiming().duration - 1; }"""
    )
    end = page.evaluate(FROM_CENTRE, f'.player[data-seat="{seat}"]')
    assert all(abs(d) < 2 for d in end), end


# How far the flying tile's centre is from the centre of what `selector` finds.
FROM_CENTRE = """(selector) => {
  const centre = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const [x, y] = centre(document.querySelector('.flying-tile'));
  const [tx, ty] = centre(document.querySelector(selector));
  return [x - tx, y - ty];
}"""
