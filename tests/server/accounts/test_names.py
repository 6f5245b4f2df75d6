"""Usernames: the rules, and skeletons that make look-alikes one name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.accounts.names import MAX_LENGTH, keys, look_alike, normalised, problem, skeleton

LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=3, max_size=20)
CYRILLIC_LOOK_ALIKES = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у"})


@given(LATIN)
def test_case_and_cyrillic_look_alikes_share_a_skeleton(name: str) -> None:
    assert skeleton(name.upper()) == skeleton(name) == skeleton(name.lower().translate(CYRILLIC_LOOK_ALIKES))


@given(LATIN)
def test_plain_names_are_allowed_unless_reserved(name: str) -> None:
    assert problem(name) in (None, "reserved")


@pytest.mark.parametrize(
    ("first", "second"),
    [("anna", "аnnа"), ("bob", "ВОВ"), ("ola", "o1a"), ("paypal", "ｐａｙｐａｌ"), ("Ėglė", "Ėglė")],
)
def test_look_alikes(first: str, second: str) -> None:
    assert look_alike(keys(normalised(first)), keys(normalised(second)))


@pytest.mark.parametrize(("first", "second"), [("anna", "anne"), ("bob", "rob"), ("eglė", "egle2")])
def test_different_names(first: str, second: str) -> None:
    assert not look_alike(keys(first), keys(second))


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ab", "length"),
        ("a" * (MAX_LENGTH + 1), "length"),
        ("_lead", "characters"),
        ("with space", "characters"),
        ("zero\u200bwidth", "characters"),
        ("emoji🐔", "characters"),
        ("ADMIN", "reserved"),
        ("аdmin", "reserved"),
        ("ЕХРЕRТ", "reserved"),
        ("medium", "reserved"),
        ("Jūratė", None),
        ("Þórr_9", None),
        ("fry.sk-1", None),
    ],
)
def test_problems(name: str, why: str | None) -> None:
    assert problem(normalised(name)) == why
