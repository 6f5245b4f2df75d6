"""The log's phrases and their wrapping: every message of every language, and any width."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.i18n import LANGUAGES, phrases, say, template
from chickenfoot.messages import Code, Param, Said
from chickenfoot.tui.log import INDENT, wrap

NAME = "Ann Lee"
"""A name with a space in it: it must never be cut."""


def sample(code: Code) -> Said:
    """``code`` with every placeholder filled: names with spaces, tiles, numbers."""
    texts = (code.value.english, code.value.plural or "")
    fields = {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    params: dict[str, Param] = {field: "9-4" for field in fields}
    if "count" in fields or code.value.plural is not None:
        params["count"] = 3
    if "name" in params:
        params["name"] = NAME
    for seats in ("names", "tied"):
        if seats in params:
            params[seats] = (0, 1)
    return Said.of(code, **params)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_phrases_of_every_message_make_its_text(lang: str) -> None:
    names = [NAME, "Bo Ek"]
    for code in Code:
        said = sample(code)
        cut = phrases(said, lang, names)
        assert " ".join(cut) == say(said, lang, names), code.id
        text = template(code, lang, 3 if code.value.plural is not None else None)
        if "{name}" in text:
            assert any(NAME in phrase for phrase in cut), (code.id, cut)
        if "{tile}" in text:
            assert any("9-4" in phrase for phrase in cut), (code.id, cut)


def test_a_value_keeps_the_word_before_it_and_a_count_the_word_after_it() -> None:
    play = Said.of(Code.EVENT_PLAY, seat=1, tile="9-4", target="9-9")
    assert phrases(play, "en", ["You", "Ann Lee"]) == ["Ann Lee", "played 9-4", "on 9-9"]
    assert phrases(play, "lt") == ["Žaidėjas 2", "padėjo 9-4", "prie 9-9"]
    foot = Said.of(Code.EVENT_CHICKEN_FOOT, seat=1, tile="4-4", count=3)
    assert phrases(foot, "en")[-1] == "needs 3 toes"
    assert phrases(Said.of(Code.EVENT_ROUND_START, round=2, tile="8-8"), "lv")[0] == "2. kārta:"


words = st.text(alphabet="abcdeėšž-|", min_size=1, max_size=12)
phrase_lists = st.lists(st.lists(words, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=8)


@given(phrase_lists, st.integers(min_value=4, max_value=40))
def test_wrapped_lines_fit_keep_every_word_and_cut_no_phrase_that_fits(phrases_: list[str], width: int) -> None:
    lines = wrap(phrases_, width)
    assert all(len(line) <= width for line in lines)
    assert lines[0] == lines[0].lstrip() and all(line.startswith(INDENT) for line in lines[1:])
    assert "".join("".join(line.split()) for line in lines) == "".join("".join(p.split()) for p in phrases_)
    room = width - len(INDENT)
    for phrase in phrases_:
        if len(phrase) <= room:
            assert any(phrase in line for line in lines), (phrase, lines)
