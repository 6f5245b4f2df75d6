"""The messages between server processes: one type per kind, written and read in one place; what is
not understood is dropped, never raised."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.cluster.messages import (
    WIRE,
    ActionStored,
    AskCovering,
    ChatWordsChanged,
    ConfigChanged,
    MuteChanged,
    Notice,
    PeerMessage,
    PresenceChanged,
    SeatMoved,
    SessionsEnded,
    TableEnded,
    decode,
    encode,
)

EVERY_KIND: list[PeerMessage] = [
    ActionStored(7, "9-4@9-9", 1_700_000_000.25),
    ConfigChanged(3, [{"kind": "renamed", "seat": 1, "move": None}]),
    PresenceChanged(4, [{"kind": "connected", "seat": 0, "move": None}], [1], [(1, 1_700_000_012.0)]),
    PresenceChanged(None, []),
    Notice(5, {"type": "chat", "line": {"n": 1, "seat": 0, "spectator": False, "text": "hi"}}),
    SeatMoved(6, 2, "digest"),
    AskCovering(8),
    TableEnded(9),
    SessionsEnded(("digest-1", "digest-2")),
    ChatWordsChanged(),
    MuteChanged(42, "2026-12-08T06:00+00:00"),
    MuteChanged(42, None),
]


@pytest.mark.parametrize("message", EVERY_KIND, ids=lambda message: type(message).__name__)
def test_every_kind_is_read_back_as_it_was_written(message: PeerMessage) -> None:
    wire = encode(message, sender="process-a")
    assert wire["v"] == WIRE and wire["from"] == "process-a"
    assert decode(wire) == ("process-a", message)


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ({"version": 7, "from": "b", "action": ["9-4@9-9", 1.5]}, ActionStored(7, "9-4@9-9", 1.5)),
        ({"version": 3, "from": "b", "config": True, "events": []}, ConfigChanged(3, [])),
        ({"from": "b", "presence": True, "events": []}, PresenceChanged(None, [])),
        (
            {"version": 2, "from": "b", "presence": True, "events": [], "grace": [[1, 9.0]]},
            PresenceChanged(2, [], None, [(1, 9.0)]),
        ),
        ({"version": 2, "from": "b", "ask": "covering"}, AskCovering(2)),
        ({"version": 2, "from": "b", "moved": {"seat": 1, "to": "d"}}, SeatMoved(2, 1, "d")),
        ({"from": "b", "config": True}, ConfigChanged(None, [])),  # a name erased outside the table
    ],
)
def test_messages_written_before_the_format_had_a_version_are_read(wire: dict[str, Any], expected: PeerMessage) -> None:
    """A process of the release before (no ``v``) and one of this release serve the same tables during
    a rolling upgrade: each reads the other's messages."""
    assert decode(wire) == ("b", expected)
    written = encode(expected, "b")
    assert all(written[key] == value for key, value in wire.items() if key != "grace")  # the old names, kept


def test_sessions_ended_by_a_process_of_the_release_before_are_read_and_it_reads_ours() -> None:
    """The ended sessions were ``{"ended": [digests]}`` without a sender: still read (what is not a digest
    left out), and this release's message keeps that field, which the release before reads."""
    assert decode({"ended": ["d1", 5, "d2"]}) == ("", SessionsEnded(("d1", "d2")))
    assert encode(SessionsEnded(("d1",)), "")["ended"] == ["d1"]


@pytest.mark.parametrize(
    "wire",
    [
        {"v": WIRE + 1, "kind": "action", "from": "b", "version": 7, "action": ["draw", 1.0]},  # a later format
        {"v": WIRE, "kind": "dance", "from": "b", "version": 7},  # a kind this release does not know
        {"v": WIRE, "kind": "action", "from": "b", "version": "7", "action": ["draw", 1.0]},
        {"v": WIRE, "kind": "action", "from": "b", "version": 7, "action": ["draw", "soon"]},
        {"v": WIRE, "kind": "action", "from": "b", "version": 7, "action": ["draw", float("inf")]},
        {"v": WIRE, "kind": "moved", "from": "b", "version": 7, "moved": {"seat": "1", "to": "d"}},
        {"v": WIRE, "kind": "moved", "from": "b", "version": 7, "moved": {"seat": 1, "from": "d"}},  # no new device
        {"v": WIRE, "kind": "notice", "from": "b", "version": 7, "notice": "hello"},
        {"v": WIRE, "kind": "config", "from": "b", "version": 7, "events": "none"},
        {"v": WIRE, "kind": "ask", "version": 7, "ask": "covering"},  # no sender
        {"v": WIRE, "kind": "mute", "from": "b", "version": None, "account": "42", "until": None},
        {"v": WIRE, "kind": "mute", "from": "b", "version": None, "account": 42, "until": "9" * 41},
        {"version": 7, "from": "b"},  # no kind at all
        ["not", "an", "object"],
    ],
)
def test_a_message_not_understood_is_dropped_and_logged(wire: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="chickenfoot.server.cluster.messages"):
        assert decode(wire) is None
    assert caplog.records and all(record.levelno == logging.DEBUG for record in caplog.records)


def test_fields_added_within_a_format_are_ignored() -> None:
    wire = encode(SeatMoved(6, 2, "digest"), "b") | {"reason": "a field a later release adds"}
    assert decode(wire) == ("b", SeatMoved(6, 2, "digest"))


def test_what_one_message_lists_is_bounded() -> None:
    wire = encode(PresenceChanged(1, [{"kind": "connected", "seat": 0, "move": None}] * 1000, list(range(1000))), "b")
    heard = decode(wire)
    assert heard is not None and isinstance(heard[1], PresenceChanged)
    assert len(heard[1].events) <= 16 and heard[1].covered is not None and len(heard[1].covered) <= 16


json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)
shaped = st.fixed_dictionaries(
    {"from": json | st.just("b")},
    optional={
        "v": st.sampled_from([0, 1, 2]) | json,
        "kind": st.sampled_from(["action", "config", "presence", "notice", "moved", "ask"]) | json,
        "version": st.integers() | json,
        "action": json,
        "events": json,
        "covered": json,
        "grace": json,
        "notice": json,
        "moved": json,
        "ask": json,
        "presence": json,
        "config": json,
    },
)


@given(json | shaped)
def test_no_message_raises(wire: Any) -> None:
    decode(wire)  # a message of any shape: read, or dropped
