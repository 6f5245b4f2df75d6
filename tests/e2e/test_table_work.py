"""The table page draws only what a state changed: a state sent again (a presence update) writes
nothing, a move adds its tile without drawing the board again, and every element a state does not
take away stays the same element: a button pressed while a state arrives is not replaced between
the press and the release (the browser would drop the click). ``benchmarks/page_work.py`` counts the
same over whole rounds."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for

from .helpers import no_such_table

PRESENCE = Presence(("Ann", "Bo", "Cy"), ("human", "human", "bot"), (True,) * 3, (False,) * 3, (None, None, "easy"))

# What one STATE changed on the page: mutation records, and the elements added and removed.
WRITES = """(state) => {
  const observer = new MutationObserver(() => {});
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  window.chickenfoot.onState(state, []);
  const records = observer.takeRecords();
  observer.disconnect();
  const size = (node) => 1 + (node.querySelectorAll ? node.querySelectorAll("*").length : 0);
  return {
    records: records.length,
    added: records.flatMap((r) => [...r.addedNodes]).reduce((n, node) => n + size(node), 0),
    removed: records.flatMap((r) => [...r.removedNodes]).reduce((n, node) => n + size(node), 0),
  };
}"""

# Every element a player may press or that a slide starts from, marked: the marks show which are
# still the same elements after more states.
MARK = """() => {
  const marked = [...document.querySelectorAll(
    "#hand .hand-tile, #players .player, .player .rename, #draw, #pass, #copy, #leave, #zoom-in, #board .world > .tile"
  )];
  marked.forEach((node, i) => { node.dataset.mark = String(i); });
  return marked.length;
}"""
STILL_MARKED = """() => [...document.querySelectorAll("[data-mark]")]
  .filter((node) => node.isConnected).map((node) => node.dataset.mark)"""


def seen(match: Match, connected: tuple[bool, ...] = (True,) * 3) -> dict[str, Any]:
    """The STATE seat 0 (Ann, the table's creator) is sent of ``match``, as JSON makes it."""
    presence = Presence(PRESENCE.names, PRESENCE.kinds, connected, PRESENCE.covered, PRESENCE.bots)
    state = state_for("DEMO42", "playing", match, match.round.view(0), presence) | {"creator": 0}
    return dict(json.loads(json.dumps(state)))


def writes(page: Page, state: dict[str, Any]) -> dict[str, int]:
    result: dict[str, int] = page.evaluate(WRITES, state)
    return result


def test_a_state_sent_again_writes_nothing_and_a_move_only_its_part(page: Page, server: str) -> None:
    page.add_init_script("localStorage.setItem('cf-drag-hint', 'seen')")
    page.emulate_media(reduced_motion="reduce")  # no slide: the tile lands in its place at once
    no_such_table(page, server)
    match = Match(Rules(), players=3, seed=2)
    while len(match.round.view(0).layout) < 3:
        match.push(match.round.legal_moves()[0])
    writes(page, seen(match))
    # A presence update resends the state as it was: nothing on the page changes, not one attribute.
    assert writes(page, seen(match)) == {"records": 0, "added": 0, "removed": 0}
    # Bo's connection drops: his card says so (and offers Ann, who made the table, his seat to hand
    # on), and nothing else is written.
    away = writes(page, seen(match, (True, False, True)))
    assert 0 < away["records"] <= 6 and away["removed"] <= 12 and away["added"] <= 14, away
    writes(page, seen(match))
    tiles = page.locator("#board .world > .tile").count()
    assert tiles == 3
    page.evaluate(MARK)
    marked_tiles = page.eval_on_selector_all("#board .world > .tile", "tiles => tiles.map((t) => t.dataset.mark)")
    # A move: its tile is added to the board, which is not drawn again; the tiles already down stay.
    while True:
        placing = match.round.legal_moves()[0]
        match.push(placing)
        if str(placing) not in ("draw", "pass"):
            break
        writes(page, seen(match))
    moved = writes(page, seen(match))
    assert page.locator("#board .world > .tile").count() == tiles + 1
    assert set(marked_tiles) <= set(page.evaluate(STILL_MARKED))
    # The tile's elements, the open ends' marks, the two seats whose turn ended and began, the log's
    # line and the layout's words: far from the whole page (about 540 elements per state before).
    assert moved["added"] < 200, moved


def test_buttons_stay_the_same_elements_from_state_to_state(page: Page, server: str) -> None:
    no_such_table(page, server)
    match = Match(Rules(), players=3, seed=2)
    while match.round.to_move != 0:
        match.push(match.round.legal_moves()[0])
    writes(page, seen(match, (True, False, True)))  # Bo is away: Ann, who made the table, may hand his seat on
    assert page.locator(".player .replace").count() == 1
    replace = page.locator(".player .replace")
    replace.evaluate("(node) => { node.dataset.mark = 'replace'; }")
    count = page.evaluate(MARK)
    hand = page.eval_on_selector_all("#hand .hand-tile", "tiles => tiles.map((t) => [t.dataset.tile, t.dataset.mark])")
    assert count > 10 and len(hand) > 1
    # Other seats play on (Bo's bot, then Cy), Bo still away: Ann's tiles, the seats' cards and
    # every button are the elements they were.
    match.push(match.round.legal_moves()[0])
    writes(page, seen(match, (True, False, True)))
    while match.round.to_move != 0:
        match.push(match.round.legal_moves()[0])
        writes(page, seen(match, (True, False, True)))
    still = set(page.evaluate(STILL_MARKED))
    assert {mark for tile, mark in hand if tile in seen(match)["hand"]} <= still
    assert "replace" in still
    for selector in ("#players .player", ".player .rename", "#draw", "#pass", "#copy", "#leave", "#zoom-in"):
        marks = page.eval_on_selector_all(selector, "nodes => nodes.map((n) => n.dataset.mark)")
        assert marks and all(mark in still for mark in marks), selector
