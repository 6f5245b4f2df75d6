"""A scripted client of the several-process tests: plays its seat, reconnects with ``since``, records everything."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from chickenfoot.server.table.protocol import whole_log

PRESENCE = ("connected", "disconnected")


def game_event(event: dict[str, Any]) -> tuple[str, int | None, str | None] | None:
    """An event as every recipient sees it (``None`` for presence news, which depend on timing)."""
    if event["kind"] in PRESENCE:
        return None
    return event["kind"], event["seat"], event["move"]


class Recorder:
    """One seat's (or a spectator's) client: every message it receives, the events in order, the
    versions it saw; it plays random legal moves for its seat and connects again whenever dropped."""

    def __init__(self, base: str, path: str, seat: int | None, rng: random.Random, think: float = 0.0) -> None:
        self.url = base.replace("http://", "ws://") + path
        self.seat, self.rng, self.think = seat, rng, think
        self.messages: list[dict[str, Any]] = []
        self.stream: list[tuple[str, int | None, str | None]] = []
        """Game events in the order received, over every connection."""
        self.versions: list[int] = []
        self.arrivals: list[float] = []
        """When each state arrived (``time.monotonic``): the gaps between them are the pauses its player saw."""
        self.state: dict[str, Any] = {}
        self.version = -1
        self.seen: dict[int, list[str]] = {}
        """Moves of each round acknowledged to this client."""
        self.connections = 0
        self.ws: ClientConnection | None = None

    def longest_pause(self) -> float:
        """The longest wait between two states while the match was on (seconds)."""
        return max((b - a for a, b in zip(self.arrivals, self.arrivals[1:], strict=False)), default=0.0)

    def over(self) -> bool:
        return bool(self.state) and self.state["match_over"] is not None

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Play until the match is over (or ``stop``), connecting again with ``since`` when dropped."""
        while not self.over() and not (stop and stop.is_set()):
            separator = "&" if "?" in self.url else "?"
            try:
                async with connect(
                    f"{self.url}{separator}since={max(self.version, 0)}", ping_interval=None, open_timeout=10
                ) as ws:
                    self.ws = ws
                    self.connections += 1
                    async for text in ws:
                        await self._receive(ws, json.loads(text))
                        if self.over():
                            return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                pass
            finally:
                self.ws = None
            await asyncio.sleep(0.1)

    async def _receive(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            message["state"] = whole_log(message["state"], self.state or None)
        self.messages.append(message)
        if message["type"] != "state":
            if message["type"] == "error" and self.state:
                await self._play(ws)  # refused (stale): answer the latest state again
            return
        self.version, self.state = message["version"], message["state"]
        self.versions.append(self.version)
        self.arrivals.append(time.monotonic())
        self.stream += [event for e in message["events"] if (event := game_event(e)) is not None]
        self.seen[self.state["round"]] = [entry["move"] for entry in self.state["log"]]
        await self._play(ws)

    async def _play(self, ws: ClientConnection) -> None:
        state = self.state
        if self.seat is None or state["status"] != "playing" or state["match_over"] is not None:
            return
        if state["round_over"] is not None:
            return  # a table with bots deals the next round by itself
        legal = state["legal"]
        if state["to_move"] != self.seat or not legal or (len(legal) == 1 and legal[0] in ("draw", "pass")):
            return  # the server makes forced moves
        if self.think:
            await asyncio.sleep(self.think * self.rng.random())
        move = {"type": "move", "move": self.rng.choice(legal), "version": self.version}
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(move))
