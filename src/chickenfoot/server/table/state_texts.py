"""The ``state`` messages of one table, built as text once per version and presence and shared by
every connection of a seat (and every spectator).

The fields every recipient shares are built once, each seat's own fields and log entries once more;
only the events and the log's start differ between two connections. The events are encoded once for
every recipient who sees them alike (all but a drawer and the seat that went out), and a recipient
like one already sent this version's state (every spectator but the first, a seat's other devices)
gets the very same text. Built at once and kept as text: the views they come from are dropped
straight away, so the garbage collector never walks them (a kept view per table was a third of its
walk).
"""

from __future__ import annotations

from typing import Any

from chickenfoot.server.table.pace import pace_facts, vacation
from chickenfoot.server.table.ports import StateSource
from chickenfoot.server.table.protocol import (
    LogCache,
    LogSent,
    Presence,
    dumps,
    events_for,
    log_texts,
    public_json,
    seat_json,
    seen_as_spectators_see,
    state_with_log,
)
from chickenfoot.view import OwnView, SeatView, own_view


class StateTexts:
    """The cache of one table's ``state`` texts: shared part, and each recipient's own part."""

    def __init__(self, table: StateSource) -> None:
        self.table = table
        self._built_for: tuple[int, int] | None = None
        """The version and presence epoch the parts below were built for."""
        self._public_text = ""
        self._seats_built: dict[int | None, tuple[str, list[str]]] = {}
        """Each recipient seat's own fields (JSON) and log entries."""
        self._log_cache: LogCache = {}
        self._log_round = 0
        self._events_shown: tuple[list[dict[str, Any]], str] = ([], "[]")
        """The last events encoded as spectators see them."""
        self._sent: dict[tuple[int | None, int, str | None, int], tuple[list[dict[str, Any]], str]] = {}
        """This version's texts by recipient (seat, log start, why watching, devices), with their events."""

    def names_changed(self) -> None:
        """The seats' names changed: the log entries that name them are written again."""
        self._log_cache.clear()

    def state(
        self,
        seat: int | None,
        events: list[dict[str, Any]],
        log_sent: LogSent | None = None,
        watching: str | None = None,
    ) -> tuple[str, LogSent]:
        """The ``state`` message for ``seat``, and what it leaves its recipient holding of the log.

        ``log_sent``: the log the recipient holds already (from the last state sent on its
        connection); the message carries only the entries after it (``log_from``). ``watching``:
        why a spectator who came with a seat credential only watches (``{"watching": {"reason": ...}}``).
        """
        table = self.table
        if self._built_for != (table.version, table.counts.epoch):
            self._build()
        built = self._seats_built.get(seat)
        if built is None:  # no connection of this seat was here when the version was built
            built = self._seats_built[seat] = self._own_part(table.match.round.view(seat), table.presence())
        round_number = self._log_round
        own, entries = built
        start = 0
        if log_sent is not None and log_sent.round == round_number and log_sent.entries <= len(entries):
            start = log_sent.entries
        sent = LogSent(round_number, len(entries))
        # The seat's connections, this one included: "also open on another device".
        devices = 0 if seat is None else max(table.counts.connections[seat], table.counts.here[seat], 1)
        recipient = (seat, start, watching, devices)
        alike = self._sent.get(recipient)
        if alike is not None and alike[0] == events:
            return alike[1], sent
        state = state_with_log(self._public_text, own, entries, start)
        if watching is not None:
            state = f'{state[:-1]},"watching":{dumps({"reason": watching})}}}'
        elif seat is not None:
            state = f'{state[:-1]},"devices":{devices}}}'
        text = f'{{"type":"state","version":{table.version},"state":{state},"events":{self._shown(events, seat)}}}'
        self._sent[recipient] = (list(events), text)
        return text, sent

    def _shown(self, events: list[dict[str, Any]], seat: int | None) -> str:
        """``events`` as ``seat`` may see them, as JSON text (encoded once for all who see them alike)."""
        if not seen_as_spectators_see(events, seat):
            return dumps(events_for(events, seat))
        if self._events_shown[0] != events:
            self._events_shown = (list(events), dumps(events_for(events, None)))
        return self._events_shown[1]

    def _build(self) -> None:
        """The shared part of this version's state, and the own part of every seat connected here."""
        table = self.table
        counts = table.counts
        self._built_for = (table.version, counts.epoch)
        self._seats_built.clear()
        self._sent.clear()
        round_number = table.match.round_number
        if self._log_round != round_number:
            self._log_cache.clear()  # entries of past rounds are never shown again
            self._log_round = round_number
        config, round_, presence = table.config, table.match.round, table.presence()
        public = round_.view(None)
        self._public_text = public_json(
            table.code,
            table.status,
            table.match,
            public,
            presence,
            open=config.open,
            creator=config.creator,
            public=config.public,
            left=[seat.left for seat in config.seats],
            turn_timer=config.turn_timer,
            turn_deadline=table.turn_deadline(),
            pace=pace_facts(config.pace),
            away=[vacation(seat) for seat in config.seats],
            replaced=[seat.replaced for seat in config.seats],
            lost_on_time=config.lost_on_time,
            free_seats=table.free_seats(),
            ready=[seat.ready for seat in config.seats],
            bot_accounts=[seat.bot_account for seat in config.seats],
            grace=table.graces(),
            spectators=counts.watching(),
        )
        for seat, connected in enumerate(counts.here):
            if connected:
                self._seats_built[seat] = self._own_part(own_view(round_, seat), presence)
        if counts.spectators:
            self._seats_built[None] = self._own_part(public, presence)

    def _own_part(self, view: SeatView | OwnView, presence: Presence) -> tuple[str, list[str]]:
        """The recipient's own fields (JSON) and its log's entries (JSON texts)."""
        return seat_json(view), log_texts(self._log_round, view, presence, self._log_cache)
