"""Quiet hours in the receiver's time zone, as properties: a push held by them waits exactly until they end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.notifications.preferences import MINUTES_A_DAY, Preferences, known_zone

ZONES = [
    "UTC",
    "Europe/Vilnius",
    "Europe/Riga",
    "Europe/Amsterdam",
    "America/New_York",
    "Asia/Kolkata",
    "Pacific/Chatham",
]
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC))
minutes = st.integers(0, MINUTES_A_DAY - 1)


def local_minute(at: datetime, zone: str) -> int:
    local = at.astimezone(ZoneInfo(zone))
    return local.hour * 60 + local.minute


def quiet_at(minute: int, start: int, end: int) -> bool:
    return start <= minute < end if start < end else minute >= start or minute < end


@given(moments, minutes, minutes, st.sampled_from(ZONES))
def test_a_push_waits_until_the_quiet_hours_end_and_no_longer(now: datetime, start: int, end: int, zone: str) -> None:
    preferences = Preferences(time_zone=zone, quiet_from=start, quiet_until=end)
    due = preferences.after_quiet(now)
    if start == end or not quiet_at(local_minute(now, zone), start, end):
        assert due == now  # outside them (or none): at once
        return
    assert now < due <= now + timedelta(hours=25)  # a day at most, and a summer-time hour
    # Due when they end (a summer-time change may shift the end by its hour), and quiet all the way there.
    assert not quiet_at(local_minute(due, zone), start, end) or local_minute(due, zone) == end
    step = now
    while step + timedelta(minutes=30) < due:
        step += timedelta(minutes=30)
        assert quiet_at(local_minute(step, zone), start, end) or local_minute(step, zone) == end


def test_quiet_hours_across_midnight_end_the_next_morning_in_the_receivers_zone() -> None:
    night = Preferences(time_zone="America/New_York", quiet_from=22 * 60, quiet_until=7 * 60)
    late = datetime(2024, 7, 1, 3, 30, tzinfo=UTC)  # 23:30 the evening before in New York
    assert night.after_quiet(late) == datetime(2024, 7, 1, 11, 0, tzinfo=UTC)  # 07:00 there
    spring = datetime(2024, 3, 31, 0, 30, tzinfo=UTC)  # 01:30 in Amsterdam; at 02:00 the clocks go to 03:00
    dutch = Preferences(time_zone="Europe/Amsterdam", quiet_from=0, quiet_until=8 * 60)
    assert dutch.after_quiet(spring) == datetime(2024, 3, 31, 6, 0, tzinfo=UTC)  # 08:00 summer time


def test_only_the_zones_of_the_database_are_known() -> None:
    assert all(known_zone(zone) for zone in ZONES)
    assert not any(known_zone(zone) for zone in ("", "Europe", "Mars/Olympus", "../../etc/passwd", "utc "))
