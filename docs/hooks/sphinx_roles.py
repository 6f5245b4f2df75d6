"""A griffe extension for the API reference: Sphinx roles in docstrings become cross-references.

The docstrings name other objects the way Python's own tooling reads them: ``:class:`SeatView```,
``:func:`~chickenfoot.i18n.render``` (shown as ``render``), ``:meth:`title <target>```. Markdown would
show those as literal text. Each role whose target is an object of the package becomes a link to where
the reference documents it; a role naming anything else (``:class:`ValueError```) becomes code. A link
to an object the reference does not document fails ``mkdocs build --strict``, so a docstring the
reference shows points only at what a reader can open.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:class|func|meth|attr|mod|data|exc|obj):"
    r"`(?:(?P<title>[^`<]+?) <(?P<titled>[\w.]+)>|(?P<short>~?)(?P<target>[\w.]+))`"
)
PACKAGE = "chickenfoot"


def target_path(obj: griffe.Object, target: str) -> str | None:
    """The full path of the object a role names from ``obj``'s scope, or ``None`` outside the package."""
    if target == PACKAGE or target.startswith(PACKAGE + "."):
        return target
    head, dot, rest = target.partition(".")
    try:
        path = obj.resolve(head)
    except griffe.NameResolutionError:
        return None
    return path + dot + rest if path.startswith(PACKAGE) else None


def cross_referenced(obj: griffe.Object, text: str) -> str:
    """``text`` with every Sphinx role replaced by an autorefs link (or by code, outside the package)."""

    def replace(role: re.Match[str]) -> str:
        target = role["titled"] or role["target"]
        shown = role["title"] or (target.rsplit(".", 1)[-1] if role["short"] else target)
        title = f"<code>{shown}</code>"
        path = target_path(obj, target)
        return title if path is None else f'<autoref identifier="{path}">{title}</autoref>'

    return ROLE.sub(replace, text)


class SphinxRoles(griffe.Extension):
    """Replace the roles of every docstring as it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ":`" in obj.docstring.value:
            obj.docstring.value = cross_referenced(obj, obj.docstring.value)
