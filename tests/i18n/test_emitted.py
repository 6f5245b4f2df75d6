"""Every message the engine and the server emit renders in every language, with all its parameters.

Whole matches are played through the protocol's own message builders; every ``code`` found on the
wire (log entries, events, the winner, hints, refusals of illegal moves) is rendered in each
language: a missing placeholder, an unknown code or an untranslated text fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from chickenfoot.bots import hint_reason
from chickenfoot.bots.evaluate import MoveValue
from chickenfoot.i18n import LANGUAGES, render_wire, translations
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import (
    Presence,
    events_for,
    hint_message,
    match_over_event,
    raw_events,
    round_start_events,
    state_for,
)
from chickenfoot.tiles import TILES

NAMES = ("Ann", "Bo", "Cy")
CANDIDATES = [
    Move.parse("draw"),
    Move.parse("pass"),
    Move.parse("6-6"),
    *(Move.parse(f"{tile}@6-6") for tile in TILES[:28] if str(tile) != "6-6"),
]
"""Moves to try when they may be wrong: a draw, a pass, the hub, any tile of a double-six set on it."""
PRESENCE = Presence(NAMES, ("human",) * 3, (True,) * 3, (False,) * 3, (None,) * 3)


def messages(data: Any) -> Iterator[dict[str, Any]]:
    """Every object with a ``code`` of a message within ``data`` (a STATE's table code is no message)."""
    if isinstance(data, dict):
        if (isinstance(data.get("code"), str) and "." in data["code"]) or data.get("code") in ("hint",):
            yield data
        for value in data.values():
            yield from messages(value)
    elif isinstance(data, list):
        for value in data:
            yield from messages(value)


def wire_of_matches(seed: int) -> list[dict[str, Any]]:
    """The messages of a three-seat match played by random legal moves, as each seat is sent them."""
    rng = random.Random(seed)
    match = Match(Rules(max_pip=6).replace(rounds=3), players=3, seed=seed)
    out: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = round_start_events(match)
    while True:
        round_ = match.round
        while not round_.is_over():
            move = rng.choice(round_.legal_moves())
            wrong = [m for m in CANDIDATES if not round_.is_legal(m)][:2] if rng.random() < 0.1 else []
            for bad in wrong:
                reason = round_.illegal_reason(bad)
                out.append(Said.of(Code.ILLEGAL_MOVE, move=str(bad), reason=reason).wire())
            match.push(move)
            events += raw_events(round_.events_of_last(), match.round_number)
        for seat in (0, 1, 2, None):
            out += events_for(events, seat)
            out.append(state_for("T", "playing", match, round_.view(seat), PRESENCE))
        if match.is_over():
            out.append(match_over_event(match))
            return out
        match.next_round()
        events = round_start_events(match)


def test_every_emitted_message_renders_in_every_language() -> None:
    wire = [m for seed in range(4) for m in messages(wire_of_matches(seed))]
    best = MoveValue(Move.parse("draw"), (6.0, 4.5), seat=0, samples=10)
    second = MoveValue(Move.parse("1-0@1-1"), (9.0, 11.0), seat=0, samples=10)
    hints = [
        hint_message(Move.parse("draw"), hint_reason(best, second)),
        hint_message(Move.parse("pass"), Said.of(Code.HINT_ONLY_MOVE)),
    ]
    wire += [m for h in hints for m in messages(h)]
    codes = {m["code"] for m in wire}
    # The matches reached the kinds of message there are: moves, feet, round ends, winners, refusals.
    assert {"event.play", "event.draw", "event.draw_hidden", "event.chicken_foot", "event.round_start"} <= codes
    assert any(c.startswith("event.round_over") for c in codes) and any(c.startswith("match.win") for c in codes)
    assert any(c.startswith("illegal.") for c in codes) and "hint.search" in codes
    for lang in LANGUAGES:
        catalog = translations(lang)
        for message in wire:
            text = render_wire(message, lang, NAMES)
            assert text and "{" not in text, (lang, message, text)
            if lang != "en":
                english = Code.parse(message["code"]).value.english
                assert catalog.pgettext(message["code"], english) != english or "{" not in english, message


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_library_english_is_the_catalog_english(lang: str) -> None:
    """The English the library's errors and logs show is the catalog's message, not a second copy."""
    match = Match(Rules(), players=2, seed=1)
    round_ = match.round
    move = next(m for m in CANDIDATES if not round_.is_legal(m))
    said = round_.illegal_reason(move)
    assert round_.why_illegal(move) == render_wire(said.wire(), "en", ["seat 0", "seat 1"])
    assert render_wire(said.wire(), lang, NAMES)
