"""The API reference documents every public name: each has a docstring, and every export of the package is shown.

The reference (``docs/library/api.md``) names modules and their members in ``:::`` blocks; mkdocstrings
renders each with its public members (names without a leading ``_``). A public name without a docstring
would be shown as a bare signature, so it fails here, named, with where it is defined.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

griffe = pytest.importorskip("griffe")
yaml = pytest.importorskip("yaml")

import chickenfoot  # noqa: E402  (after the skips: the check needs the docs extra)

ROOT = Path(__file__).resolve().parents[2]
API_PAGE = ROOT / "docs" / "library" / "api.md"
BLOCK = re.compile(r"^::: (?P<path>[\w.]+)\n(?P<options>(?:    .*\n)*)", re.MULTILINE)


def blocks(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Each ``::: path`` of the page with its options."""
    found = []
    for block in BLOCK.finditer(text):
        options = yaml.safe_load(block["options"]) if block["options"].strip() else None
        found.append((block["path"], (options or {}).get("options", {})))
    return found


def load() -> Any:
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src")])
    package = loader.load("chickenfoot")
    loader.resolve_aliases(implicit=False, external=False)
    return package


PACKAGE = load()
BLOCKS = blocks(API_PAGE.read_text(encoding="utf-8"))


def resolved(obj: Any) -> Any:
    return obj.final_target if obj.is_alias else obj


def public_members(obj: Any) -> list[Any]:
    """What mkdocstrings shows of a module or class given no member list: names without a leading ``_``;
    for a module, those it defines (or lists in ``__all__``), not what it imports."""
    if obj.is_module and obj.exports is not None:
        return [obj.members[name] for name in obj.exports if name in obj.members]
    return [
        member
        for name, member in obj.members.items()
        if not name.startswith("_") and not (obj.is_module and (member.is_alias or member.is_module))
    ]


def shown(obj: Any, members: list[str] | bool | None) -> Iterator[Any]:
    """``obj`` and everything its block renders under it, members of members included."""
    obj = resolved(obj)
    yield obj
    if members is False or not (obj.is_module or obj.is_class):
        return
    children = [obj.members[name] for name in members] if isinstance(members, list) else public_members(obj)
    for child in children:
        yield from shown(child, None)


def documented() -> list[Any]:
    objects = []
    for path, options in BLOCKS:
        objects += shown(PACKAGE[path.removeprefix("chickenfoot.")], options.get("members"))
    return objects


DOCUMENTED = documented()


def test_the_page_names_what_it_documents() -> None:
    """The blocks are found (a changed syntax would otherwise check nothing)."""
    assert len(BLOCKS) >= 20
    assert len(DOCUMENTED) >= 300


def test_every_public_name_the_reference_shows_has_a_docstring() -> None:
    bare = sorted({f"{obj.path} ({obj.relative_filepath}:{obj.lineno})" for obj in DOCUMENTED if not obj.docstring})
    assert not bare, f"{len(bare)} public names have no docstring:\n" + "\n".join(bare)


def test_every_export_of_the_package_is_in_the_reference() -> None:
    paths = {obj.path for obj in DOCUMENTED}
    missing = [name for name in chickenfoot.__all__ if resolved(PACKAGE[name]).path not in paths]
    assert not missing, f"exported by chickenfoot but not in {API_PAGE.name}: {missing}"


def test_the_check_sees_a_missing_docstring() -> None:
    """The check reads docstrings as griffe does: a function without one has none."""
    code = 'def documented():\n    """Says what."""\n\ndef bare(): ...\n'
    module = griffe.visit("example", Path("example.py"), code=code)
    assert [name for name, member in module.members.items() if not member.docstring] == ["bare"]
