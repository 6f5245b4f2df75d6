"""Table connections seated by a session (a signed-in device that brought no seat credential): when
the session ends (signed out, ended from the account page, signed out everywhere, the account
deleted), in whichever process, those connections end too, and their pages come back watching. A
bot's API token revoked ends its streams the same way, watched by the token's digest.

The ended sessions' digests go over the cluster's bus (one channel for the whole server, a typed
message of :mod:`~chickenfoot.server.cluster.messages`), so a process ends its own connections
whichever process ended the session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from chickenfoot.server.cluster.fanout import Bus, Message, Unsubscribe
from chickenfoot.server.cluster.messages import SessionsEnded, decode, encode

CHANNEL = "account-sessions"
End = Callable[[], None]
SessionWatch = Callable[[End], Callable[[], None]]
"""Watches one session: calls its argument when the session ends; returns the function that stops watching."""


class LiveSessions:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._ends: dict[str, set[End]] = {}
        self._unsubscribe: Unsubscribe | None = None
        self._hooks: list[Callable[[str], None]] = []

    def start(self) -> None:
        self._unsubscribe = self.bus.subscribe(CHANNEL, self._heard)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_ended(self, hook: Callable[[str], None]) -> None:
        """Call ``hook`` with every digest ended, in this process (a cache of what it opened forgets it)."""
        self._hooks.append(hook)

    def watch(self, session_digest: str, end: End) -> Callable[[], None]:
        """Call ``end`` when the session ends; returns the function that stops watching."""
        ends = self._ends.setdefault(session_digest, set())
        ends.add(end)

        def unwatch() -> None:
            ends.discard(end)
            if not ends and self._ends.get(session_digest) is ends:
                del self._ends[session_digest]

        return unwatch

    async def ended(self, session_digests: Iterable[str]) -> None:
        """These sessions ended: their connections end, in every process."""
        digests = list(session_digests)
        if digests:
            await self.bus.publish(CHANNEL, encode(SessionsEnded(tuple(digests)), ""))

    def _heard(self, wire: Message) -> None:
        heard = decode(wire)
        if heard is None or not isinstance(heard[1], SessionsEnded):
            return
        for digest in heard[1].digests:
            for hook in self._hooks:
                hook(digest)
            for end in list(self._ends.get(digest, ())):
                end()
