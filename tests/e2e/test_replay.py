"""The replay page of a finished match: stepping, keys, shared links, and the review's marks."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from chickenfoot.i18n import render_wire
from chickenfoot.match import Match
from chickenfoot.move import Move
from chickenfoot.round import Round

from .helpers import shot


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def finished_match(base: str, names: tuple[str, str | None] = ("Ann", None)) -> str:
    """A one-round match of a scripted player (its first legal move, a little slower than the
    server's rate limit) against the easy bot; returns the table code once the match is over."""
    human, bot = names
    body = {"rounds": 1, "seats": [{"kind": "human", "name": human}, {"kind": "bot", "bot": "easy", "name": bot}]}
    request = urllib.request.Request(
        f"{base}/api/tables", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table = json.load(response)
    return play_to_the_end(base, table["code"], table["token"])


def play_to_the_end(base: str, code: str, token: str) -> str:
    """Play a seat of a table (its first legal move each turn) until the match is over; the table's code."""
    answered = -1
    with connect(f"{base.replace('http', 'ws', 1)}/ws/{code}?token={token}", open_timeout=10) as ws:
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] != "state":
                continue
            state = message["state"]
            if state["match_over"]:
                return str(code)
            mine = state["to_move"] == state["seat"] and state["legal"] and not state["round_over"]
            if mine and message["version"] > answered:
                answered = message["version"]
                time.sleep(0.12)
                ws.send(json.dumps({"type": "move", "move": state["legal"][0], "version": answered}))


def board_tiles(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("#board .world [data-tile]", "nodes => nodes.map(n => n.dataset.tile)"))


def test_replay_steps_through_every_move_follows_links_and_shows_the_review(page: Page, server: str) -> None:
    code = finished_match(server)
    record = get(f"{server}/api/tables/{code}/record")
    moves = record["rounds"][0]["moves"]
    match = Match.from_record(record)
    r = Round(match.rules, *match.deals[0], start_double=match.rounds[0].start_double)

    # The finished table links to its replay (the match-end dialog and the room card).
    page.goto(f"{server}/t/{code}")
    expect(page.locator("#share a.replay-link")).to_have_attribute("href", f"/r/{code}")
    page.locator("#ro-body a.replay-link").click()
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-move", "0")
    assert board_tiles(page) == set()
    checks = {len(moves) // 4, len(moves) // 2, len(moves)}
    for ply, move in enumerate(moves, start=1):
        page.keyboard.press("ArrowRight")
        r.push(Move.parse(move))
        expect(replay).to_have_attribute("data-move", str(ply))
        if ply in checks:
            assert board_tiles(page) == {str(tile) for tile, _ in r.placed()}
            for seat in range(2):
                assert page.locator(f"[data-hand='{seat}'] .tile-svg").count() == len(r.hand(seat))
            assert page.locator("#log li").count() == ply
    assert r.is_over()
    expect(page.locator("#status")).to_contain_text("Round 1 is over")

    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-move", "0")
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-move", str(len(moves)))
    page.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-move", str(len(moves) - 1))

    # A shared link to a move opens the board after that move.
    middle = len(moves) // 2
    page.goto(f"{server}/r/{code}#r1m{middle}")
    expect(replay).to_have_attribute("data-move", str(middle))
    expect(page.locator("#log li.current")).to_contain_text(f"{middle}. ")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_attribute("aria-label", "Pause")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_attribute("aria-label", "Play")

    # The review's marks appear once the server's background review is done.
    expect(page.locator("#review[data-done]")).to_have_count(1, timeout=90_000)
    review = get(f"{server}/api/tables/{code}/review")["review"]
    marked = [m for m in review["rounds"][0]["moves"] if m.get("mark") not in (None, "good")]
    assert {m["seat"] for m in review["rounds"][0]["moves"] if "mark" in m} == {0}
    page.keyboard.press("End")
    expect(page.locator("#log .mark")).to_have_count(len(marked))
    expect(page.locator("#chart polyline")).to_have_count(2)
    expect(page.locator(".review-table")).to_contain_text("Ann")
    if marked:
        worst = marked[0]
        page.goto(f"{server}/r/{code}#r1m{worst['ply'] + 1}")
        expect(page.locator(".verdict")).to_have_text(render_wire(worst["verdict"], "en"))
        better = render_wire(Move.parse(worst["best"]).advice().wire(), "en")
        expect(page.locator(".verdict")).to_contain_text(f"Better: {better}.")
    shot(page, "replay")
