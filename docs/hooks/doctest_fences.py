"""A griffe extension for the API reference: the doctest examples of docstrings shown as Python sessions.

Markdown reads a line that starts with ``>>>`` as a quotation, so a docstring's examples would render as
one run-on quote. Each example (its ``>>>`` and ``...`` lines and the output under them, up to a blank
line) is fenced as a ``pycon`` block instead.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """The docstring text with every doctest example inside a ``pycon`` code fence."""
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_example:
            out.append("```pycon")
            in_example = True
        elif in_example and not line.strip():
            out.append("```")
            in_example = False
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the examples of every docstring as it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
