"""What an account chose: which kinds of notice reach it on which channel, its quiet hours in its own
time zone, and the language its push and e-mail are written in.

Quiet hours defer push and e-mail to their end, in the receiver's time zone (across midnight and
across a change of summer time):

>>> from datetime import datetime, UTC
>>> quiet = Preferences(time_zone="Europe/Vilnius", quiet_from=22 * 60, quiet_until=7 * 60)
>>> quiet.after_quiet(datetime(2024, 1, 10, 21, 30, tzinfo=UTC)).isoformat()  # 23:30 in Vilnius
'2024-01-11T05:00:00+00:00'
>>> quiet.after_quiet(datetime(2024, 1, 10, 12, 0, tzinfo=UTC)).isoformat()  # 14:00: not quiet
'2024-01-10T12:00:00+00:00'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from chickenfoot.i18n import DEFAULT, LANGUAGES
from chickenfoot.server.notices import Kind

MINUTES_A_DAY = 24 * 60


class Channel(StrEnum):
    IN_APP = "in_app"
    """The bell's list on every page."""
    PUSH = "push"
    """Every device that allowed notifications."""
    EMAIL = "email"
    """A digest to the confirmed address."""


DEFAULT_CHOICES: Mapping[Kind, frozenset[Channel]] = {
    Kind.YOUR_TURN: frozenset(Channel),
    Kind.INVITED: frozenset(Channel),
    Kind.CHALLENGE: frozenset(Channel),
    Kind.MATCH_OVER: frozenset({Channel.IN_APP, Channel.PUSH}),
    Kind.REMATCH: frozenset({Channel.IN_APP, Channel.PUSH}),
    Kind.CHAT: frozenset({Channel.IN_APP, Channel.PUSH}),
    Kind.ANSWER: frozenset(Channel),
}
"""Until an account chooses: everything in the list and on its devices (a device only gets push once
its player allowed it there), and by e-mail what waits for them (once they confirmed an address)."""


def known_zone(name: str) -> bool:
    """``name`` is a time zone of the IANA database (``Europe/Riga``), as a browser names it.

    >>> known_zone("Europe/Riga"), known_zone("Mars/Olympus"), known_zone("../etc/passwd")
    (True, False, False)
    """
    if name not in _zones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


@dataclass(frozen=True, slots=True)
class Preferences:
    choices: Mapping[Kind, frozenset[Channel]] = field(default_factory=lambda: dict(DEFAULT_CHOICES))
    language: str = DEFAULT
    time_zone: str = "UTC"
    quiet_from: int | None = None
    """Minutes after midnight when quiet hours begin (``None``: none)."""
    quiet_until: int | None = None
    """Minutes after midnight when they end (before ``quiet_from``: they end the next day)."""

    def wants(self, kind: Kind, channel: Channel) -> bool:
        return channel in self.choices.get(kind, frozenset())

    def quiet(self) -> bool:
        return self.quiet_from is not None and self.quiet_until is not None and self.quiet_from != self.quiet_until

    def after_quiet(self, now: datetime) -> datetime:
        """``now`` if it is outside the quiet hours, else when they end (aware, UTC)."""
        if not self.quiet():
            return now
        assert self.quiet_from is not None and self.quiet_until is not None
        zone = ZoneInfo(self.time_zone)
        local = now.astimezone(zone)
        minute = local.hour * 60 + local.minute
        start, end = self.quiet_from, self.quiet_until
        inside = start <= minute < end if start < end else minute >= start or minute < end
        if not inside:
            return now
        day = local.date() if minute < end else local.date() + timedelta(days=1)
        ends = datetime.combine(day, time(end // 60, end % 60), tzinfo=zone).astimezone(UTC)
        return max(ends, now)

    def to_json(self) -> str:
        return json.dumps({kind.value: sorted(channels) for kind, channels in self.choices.items()})

    @classmethod
    def from_row(cls, row: Any) -> Preferences:
        """An account's preferences as stored (a kind or channel unknown to this version is ignored)."""
        stored = json.loads(row.choices)
        choices = dict(DEFAULT_CHOICES)
        for kind in Kind:
            if kind.value in stored:
                choices[kind] = frozenset(Channel(c) for c in stored[kind.value] if c in Channel._value2member_map_)
        language = row.language if row.language in LANGUAGES else DEFAULT
        return cls(choices, language, row.time_zone, row.quiet_from, row.quiet_until)

    def choosing(self, kind: Kind, channels: frozenset[Channel]) -> Preferences:
        return replace(self, choices={**self.choices, kind: channels})

    def without(self, channel: Channel) -> Preferences:
        """No kind goes to ``channel`` any more (an e-mail's unsubscribe link)."""
        return replace(self, choices={kind: chosen - {channel} for kind, chosen in self.choices.items()})
