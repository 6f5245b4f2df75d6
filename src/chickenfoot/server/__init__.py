"""The browser game's server: server-authoritative tables over HTTP and WebSocket (see docs/protocol.md)."""

from chickenfoot.server.app import Settings, create_app

__all__ = ["Settings", "create_app"]
