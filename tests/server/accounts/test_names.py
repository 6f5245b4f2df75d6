"""Usernames: the rules, and skeletons that make look-alikes one name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.accounts.names import (
    MAX_LENGTH,
    _look,
    _prototypes,
    keys,
    look_alike,
    normalised,
    problem,
    skeleton,
)

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


# --- look-alikes of several characters (Unicode's prototypes such as ``rn`` for ``m``) ---------------

PAIRS = [("m", "rn"), ("w", "vv"), ("d", "cl")]
LOWER_LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)


@given(LOWER_LATIN, st.sampled_from(PAIRS), st.data())
def test_a_letter_written_as_two_looks_alike(name: str, pair: tuple[str, str], data: st.DataObject) -> None:
    """Any occurrence of ``m`` written ``rn`` (``w`` as ``vv``, ``d`` as ``cl``), in any case, is the same name."""
    letter, pair_of_letters = pair
    written = name.replace(letter, pair_of_letters)
    shout = data.draw(st.booleans())
    assert skeleton(written.upper() if shout else written) == skeleton(name)
    assert look_alike(keys(written), keys(name))


@given(st.text(min_size=1, max_size=12))
def test_a_skeleton_is_a_fixed_point_of_the_prototypes(text: str) -> None:
    assert _look(_look(text)) == _look(text)


def test_every_prototype_is_its_own() -> None:
    prototypes = _prototypes()
    assert prototypes["m"] == "rn" and prototypes["w"] == "vv" and prototypes["d"] == "cl"
    assert all(_look(target) == target for target in prototypes.values())


@pytest.mark.parametrize(("first", "second"), [("mary", "rnary"), ("walter", "vvalter"), ("clave", "dave")])
def test_look_alikes_of_several_characters(first: str, second: str) -> None:
    assert skeleton(first) == skeleton(second)


@given(LOWER_LATIN.filter(lambda n: not any(p in n for _, p in PAIRS) and not set(n) & set("mwd01il")))
def test_names_without_look_alike_letters_keep_their_skeleton(name: str) -> None:
    assert skeleton(name) == name
