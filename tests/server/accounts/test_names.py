"""Usernames: the rules, and skeletons that make look-alikes one name."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.accounts.names import (
    MAX_LENGTH,
    MIN_LENGTH,
    RESERVED,
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


# --- compatibility forms, and reserved words in other clothes ------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("tester2", "tester２"),  # a full-width digit
        ("tester2", "ｔｅｓｔｅｒ２"),  # full-width letters, some of which the confusables data does not list
        ("ruta1", "ruta１"),
        ("Tester", "ＴＥＳＴＥＲ"),
        ("x2y", "x²y"),  # a superscript
    ],
)
def test_compatibility_forms_are_one_name(first: str, second: str) -> None:
    assert skeleton(normalised(first)) == skeleton(normalised(second))
    assert look_alike(keys(normalised(first)), keys(normalised(second)))


@pytest.mark.parametrize(
    "name",
    [
        "admin1",
        "admin_2",
        "a.d.m.i.n",
        "deleted.player",
        "Deleted_Player",
        "ištrintas.žaidėjas",  # what the pages call a deleted account, in Lithuanian
        "Support.Team",
        "SupportTeam",
        "AdminJoe",
        "admin2joe",
        "the-moderator",
        "easy_bot",
        "Expert2",
        "guest42",
        "ｒｏｏｔ",
        "ｇｕｅｓｔ",
    ],
)
def test_reserved_words_with_digits_separators_or_other_words(name: str) -> None:
    assert problem(normalised(name)) == "reserved"


@pytest.mark.parametrize("name", ["Richard", "Mediumwell", "hardy", "robot_bob", "Easy.Rider", "me2you", "rooted"])
def test_a_reserved_word_inside_another_word_is_no_reason(name: str) -> None:
    assert problem(normalised(name)) is None


FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}
BOLD = {c: chr(0x1D41A + ord(c) - ord("a")) for c in "abcdefghijklmnopqrstuvwxyz"} | {
    c: chr(0x1D400 + ord(c) - ord("A")) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
}
CYRILLIC = dict(zip("aeopcxy", "аеорсху", strict=True))
SAME_CASE = [FULL_WIDTH.get, BOLD.get, CYRILLIC.get]
"""Ways to write a character that keep its case (a capital may start a word: ``AdminX`` is ``Admin X``)."""


def written(name: str, ways: list[Callable[[str], str | None]], data: st.DataObject) -> str:
    return "".join(data.draw(st.sampled_from(ways))(c) or c for c in name)


@given(LATIN, st.data())
def test_any_mix_of_case_compatibility_forms_and_confusables_is_the_same_name(name: str, data: st.DataObject) -> None:
    """Each character in either case, full width, mathematical bold or a Cyrillic look-alike."""
    variant = written(name, [str.upper, str.lower, *SAME_CASE], data)
    assert look_alike(keys(normalised(variant)), keys(normalised(name)))


RESERVED_OR_NOT = st.one_of(
    LATIN, st.builds(str.__add__, st.sampled_from(sorted(RESERVED)), st.text("0123456789", min_size=1, max_size=3))
).filter(lambda name: len(name) >= MIN_LENGTH)


@given(RESERVED_OR_NOT, st.data())
def test_a_look_alike_of_a_reserved_name_is_reserved(name: str, data: st.DataObject) -> None:
    variant = written(name, SAME_CASE, data)
    assert (problem(normalised(variant)) == "reserved") == (problem(name) == "reserved")


@given(st.sampled_from(sorted(RESERVED)), st.text(alphabet="0123456789-_.", max_size=4), st.data())
def test_a_reserved_word_with_digits_and_separators_is_reserved(word: str, extra: str, data: st.DataObject) -> None:
    at = data.draw(st.integers(min_value=0, max_value=len(word)))
    name = word[:at] + extra + word[at:]
    if MIN_LENGTH <= len(name) <= MAX_LENGTH and name[0].isalnum():
        assert problem(normalised(name)) == "reserved"
