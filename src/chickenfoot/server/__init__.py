"""The browser game's server: server-authoritative tables over HTTP and WebSocket (see docs/protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chickenfoot.server.app import Settings, create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # Imported when first asked for: the worker processes (replays, reviews) import modules of this
    # package and need none of the web application, whose import takes seconds on a busy machine.
    if name in __all__:
        from chickenfoot.server import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
