"""Every message uses the glossary's word for each game term (docs/glossary.md), and none of the seeds' mistakes."""

from __future__ import annotations

import re

import pytest

from chickenfoot.i18n import template
from chickenfoot.messages import Code

# English term (as a pattern) -> the stem (a pattern) every translation of a message using it must contain.
TERMS = {
    r"\b(boneyard|chicken yard)\b": {"lt": "vištų kiem", "lv": "vistu pagalm", "fy": "pot"},
    r"\bchicken (foot|feet)\b": {"lt": "vištos koj", "lv": "vistas pēd", "fy": "hinnepoat"},
    r"\btoes?\b": {"lt": "piršt", "lv": "pirkst", "fy": "tean"},
    r"\bhub\b": {"lt": "centr", "lv": "centr", "fy": "middenstien"},
    r"\barms?\b": {"lt": "šak", "lv": "zar", "fy": "earm"},
    r"\bdoubles?\b(?!-)": {"lt": "dublet", "lv": "dubl", "fy": "dûbel"},
    r"\btiles?\b": {"lt": "kauliuk", "lv": "kauliņ", "fy": "stien"},
    r"\bpips\b": {"lt": "aku", "lv": "ac", "fy": "eagen"},
    r"\brounds?\b(?!-robin)": {"lt": "raund", "lv": "kārt", "fy": "rûn"},  # a round-robin is a format
    r"\btournaments?\b": {"lt": "turnyr", "lv": "turnīr", "fy": "toernoai"},
    r"\barenas?\b": {"lt": "aren", "lv": "arēn", "fy": "arena"},
    r"\breplay\b": {"lt": "peržiūr", "lv": "atkārtojum", "fy": "werhelling"},
    r"\breview\b": {"lt": "analiz", "lv": "analīz", "fy": "beoardiel"},
    r"\binaccurac(y|ies)\b": {"lt": "netiksl", "lv": "neprecizit", "fy": "net sekuer"},
    r"\bmistakes?\b": {"lt": "klaid", "lv": "kļūd", "fy": "flater"},
    r"\bblunders?\b": {"lt": r"grub\w* klaid", "lv": r"rupj\w* kļūd", "fy": "grouwe flater"},
    r"\broom code\b": {"lt": "stalo kod", "lv": "galda kod", "fy": "tafelkoade"},
}

# The machine translations of the rules article read chicken as meat, arms as weapons, tiles as
# floor tiles, the foot as a horse's or a dog's: words no player uses. A table is never a room
# (lt kambarys, lv istaba, fy keamer), and the Latvian foot is a pēda, never a kāja (a leg).
MISTAKES = {
    "lt": r"vištien|ginkl|plytel|kambar",
    "lv": r"flīz|tablo|ieroč|istab|vistas kāj",
    "fy": r"wapen|hynst|hynder|hûne|tegel|houtfuot|keamer",
}


def texts(code: Code, lang: str) -> list[str]:
    if code.value.plural is None:
        return [template(code, lang)]
    return [template(code, lang, n) for n in (0, 1, 2, 5, 10, 21)]


@pytest.mark.parametrize("lang", ["lt", "lv", "fy"])
def test_each_term_has_one_word(lang: str) -> None:
    problems = []
    for code in Code:
        english = re.sub(r"\{\w+\}", "", code.value.english)
        for pattern, stems in TERMS.items():
            if re.search(pattern, english, re.IGNORECASE):
                problems += [
                    f"{code.id}: {text!r} lacks {stems[lang]!r}"
                    for text in texts(code, lang)
                    if not re.search(stems[lang], text, re.IGNORECASE)
                ]
    assert not problems, problems


@pytest.mark.parametrize("lang", ["lt", "lv", "fy"])
def test_no_seed_mistakes(lang: str) -> None:
    bad = [(code.id, text) for code in Code for text in texts(code, lang) if re.search(MISTAKES[lang], text, re.I)]
    assert not bad, bad
