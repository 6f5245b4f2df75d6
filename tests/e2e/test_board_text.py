"""The layout in words for screen readers: the hub, each arm and each toe as a line from the centre
out, ending in its open end or its chicken foot; every tile played in exactly one line, in the
order of play outwards. Checked against the engine's layout for random rounds of many rule sets;
a newly played tile is read out (politely) with its line; the SVG board is hidden from them."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.round import Round
from chickenfoot.rules import Rules

from .states import random_round, state_of

LINES = """() => {
  const walk = (list) => [...list.children].map((li) => {
    const sub = li.querySelector(':scope > ol');
    return { text: li.firstChild.textContent, sub: sub ? walk(sub) : [] };
  });
  return walk(document.querySelector('#board-text .lines'));
}"""
TILE = re.compile(r"(\d+)-(\d+)")


def show(page: Page, round_: Round) -> dict[str, Any]:
    """Draw ``round_`` as seat 0 sees it, through the page's own handling of a STATE."""
    state = state_of(round_, 0) | {"status": "playing"}
    page.evaluate("(state) => window.chickenfoot.onState(state, [])", state)
    return state


def check_lines(items: list[dict[str, Any]], state: dict[str, Any]) -> None:
    layout = dict(state["layout"])
    open_at = dict(state["open_ends"])
    rules = state["rules"]
    if not layout:
        assert [i["text"] for i in items] == [
            render(Code.OPEN_EMPTY, "en", tile=f"{state['start_double']}-{state['start_double']}")
        ]
        return
    hub = state["layout"][0][0]
    assert len(items) == 1 and items[0]["text"] == render(Code.A11Y_HUB, "en", tile=hub)
    seen: list[str] = []

    def line(item: dict[str, Any], label: str, n: int, start: str, inner: int) -> None:
        head, words = item["text"].split(": ", 1)
        assert head == label.format(n=n), item["text"]
        tiles = [(int(a), int(b)) for a, b in TILE.findall(words)]
        if not tiles:  # nothing played there yet: the line's open end is its start's number
            assert words == f"not started, open end {inner}", item["text"]
            return
        target = start
        for a, b in tiles:
            assert a == inner, item["text"]  # read from the centre out: the inner number first
            tile = f"{max(a, b)}-{min(a, b)}"
            assert layout[tile] == target, (item["text"], tile, target)
            seen.append(tile)
            target, inner = tile, b
        last = target
        if tiles[-1][0] == tiles[-1][1]:
            assert words.endswith(", chicken foot"), item["text"]
            assert len(item["sub"]) == rules["toes"]
            for k, toe in enumerate(item["sub"], start=1):
                line(toe, f"Toe {{n}} of the chicken foot {last}", k, last, inner)
        else:
            assert item["sub"] == []
            assert words.endswith(f"open end {open_at[last]}") if last in open_at else "open end" not in words

    arms = items[0]["sub"]
    assert len(arms) == rules["hub_arms"]
    for k, arm in enumerate(arms, start=1):
        line(arm, "Arm {n}", k, hub, int(hub.split("-")[0]))
    assert sorted(seen) == sorted(tile for tile, target in state["layout"] if target is not None)


def test_the_lines_describe_the_layout(page: Page, server: str) -> None:
    page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATEs given here
    page.wait_for_function("() => window.chickenfoot")
    assert page.get_attribute("#board", "aria-hidden") == "true"
    feet = 0
    for seed, (max_pip, arms, players, plies) in enumerate(
        [
            (9, 4, 4, 0),
            (9, 4, 4, 3),
            (9, 4, 4, 40),
            (6, 4, 2, 30),
            (12, 6, 5, 80),
            (12, 8, 8, 120),
            (15, 6, 3, 200),
            (9, 4, 6, 10_000),
        ]
    ):
        round_ = random_round(Rules(max_pip=max_pip, hub_arms=arms), players, seed=seed, plies=plies)
        state = show(page, round_)
        items = page.evaluate(LINES)
        check_lines(items, state)
        feet += str(items).count("chicken foot")
    assert feet >= 3  # the rounds reached chicken feet, their toes and feet on toes


def test_a_new_tile_is_read_out_with_its_line(page: Page, server: str) -> None:
    page.goto(f"{server}/t/DEMO42")
    page.wait_for_function("() => window.chickenfoot")
    round_ = random_round(Rules(), 4, seed=11, plies=0)
    show(page, round_)
    played = 0
    while played < 12 and not round_.is_over():
        move = round_.legal_moves()[0]
        round_.push(move)
        show(page, round_)
        if move.tile is None:
            continue
        played += 1
        live = page.inner_text("#board-text [aria-live]")
        texts = [item["text"] for item in page.evaluate(LINES)[0]["sub"]] + [
            toe["text"] for item in page.evaluate(LINES)[0]["sub"] for toe in item["sub"]
        ]
        tile = str(move.tile)
        said = render(Code.A11Y_CHANGED, "en", tile=tile, line="")
        assert live.startswith(said), live
        line = live.removeprefix(said)
        assert line in texts or line == render(Code.A11Y_HUB, "en", tile=tile), (live, texts)
        if line != render(Code.A11Y_HUB, "en", tile=tile):
            assert re.search(rf"(?<!\d)({tile}|{tile[::-1]})(?!\d)", line), line
    assert page.get_attribute("#board-text [aria-live]", "aria-live") == "polite"
