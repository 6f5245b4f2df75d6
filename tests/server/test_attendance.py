"""Counting who is at a table: a seat's player is gone once no process counts a socket of theirs."""

from __future__ import annotations

from chickenfoot.server.table.attendance import Attendance


def test_a_seat_seen_leaving_is_gone_once() -> None:
    attendance = Attendance(2)
    attendance.arrive(0)
    assert attendance.recounted([1, 0, 0]) == ([0], [])
    attendance.depart(0)
    assert attendance.recounted([0, 0, 1]) == ([], [0])
    assert attendance.recounted([0, 0, 1]) == ([], [])


def test_a_table_read_back_counts_its_people_gone_until_they_connect() -> None:
    attendance = Attendance(3)
    attendance.read_back([0, 1])
    # A spectator is the first to connect: nobody at seats 0 and 1 has a socket anywhere.
    attendance.arrive(None)
    assert attendance.recounted([0, 0, 0, 1]) == ([], [0, 1])
    assert attendance.recounted([0, 0, 0, 1]) == ([], [0, 1])  # still gone (covering them is autoplay's)
    # Seat 1's player is back (in another process): from now on only leaving makes them gone again.
    assert attendance.recounted([0, 1, 0, 1]) == ([1], [0])
    assert attendance.unseen == {0}
    assert attendance.recounted([0, 0, 0, 1]) == ([], [0, 1])
    assert attendance.recounted([0, 0, 0, 1]) == ([], [0])
