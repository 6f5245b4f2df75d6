"""The keys a screen shows, worded in the player's language."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from textual.dom import DOMNode

from chickenfoot.i18n import render
from chickenfoot.messages import Code


def translated(node: DOMNode, lang: str, descriptions: Mapping[str, Code]) -> None:
    """Word the keys the footer shows in ``lang``: Textual keeps a screen's (or app's) bindings per instance."""
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [
            dataclasses.replace(b, description=render(descriptions[b.action], lang)) if b.action in descriptions else b
            for b in bindings
        ]
