"""The keys a screen offers: worded in the player's language, and every one of them in sight."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from rich.style import Style
from rich.text import Text
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from chickenfoot.i18n import render
from chickenfoot.messages import Code

GAP = 2
"""Spaces between two keys on a line."""


def translated(node: DOMNode, lang: str, descriptions: Mapping[str, Code]) -> None:
    """Word the keys the key bar shows in ``lang``: Textual keeps a screen's (or app's) bindings per instance."""
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [
            dataclasses.replace(b, description=render(descriptions[b.action], lang)) if b.action in descriptions else b
            for b in bindings
        ]


class Key(NamedTuple):
    """One key as the bar shows it: ``shown`` is how it is written (``⏎``, ``?``)."""

    key: str
    shown: str
    description: str
    action: str
    enabled: bool


class KeyBar(Widget):
    """The screen's keys, wrapped between keys onto as many lines as the width needs.

    Textual's footer keeps to one line and scrolls off what does not fit, which at 80 columns hid
    How to play and Quit; a click on a key presses it, as in the footer.
    """

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: auto;
        padding: 0 1;
        background: $footer-background;
        color: $footer-description-foreground;
        link-style: none;
    }
    KeyBar > .key-bar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .key-bar--disabled { text-style: dim; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--disabled"}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        self.refresh(layout=True)

    def shown_keys(self) -> list[Key]:
        """The keys shown, one per action, in the order Textual's footer shows them."""
        out: dict[str, Key] = {}
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.show and binding.action not in out:
                shown = self.app.get_key_display(binding)
                out[binding.action] = Key(binding.key, shown, binding.description, binding.action, active.enabled)
        return list(out.values())

    def lines(self, width: int) -> list[Text]:
        """The keys filled into lines of ``width`` cells, never breaking one key across two lines."""
        key_style = self.get_component_rich_style("key-bar--key", partial=True)
        dim = self.get_component_rich_style("key-bar--disabled", partial=True)
        lines = [Text(end="")]
        for key in self.shown_keys():
            item = Text.assemble((key.shown, key_style), " ", key.description)
            item.stylize(Style(meta={"@click": f"press({key.key!r})"}))
            if not key.enabled:
                item.stylize(dim)
            line = lines[-1]
            if line and line.cell_len + GAP + item.cell_len > width:
                line = Text(end="")
                lines.append(line)
            if line:
                line.append(" " * GAP)
            line.append_text(item)
        return lines

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n", end="").join(self.lines(self.content_size.width))

    def action_press(self, key: str) -> None:
        """A click on a key: as if it were pressed."""
        self.app.simulate_key(key)
