"""Quick play's pairing alone: the window widens with time, nobody is seated twice, nobody is left out."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.quickplay.pairing import Group, Schedule, Waiting, pair

SCHEDULE = Schedule()


def tickets(groups: list[Group]) -> list[tuple[str, ...]]:
    return [group.tickets for group in groups]


def test_the_window_widens_by_the_stated_schedule() -> None:
    assert [SCHEDULE.window(s) for s in (0, 4.9, 5, 10, 59.9)] == [100, 100, 150, 200, 650]
    assert SCHEDULE.window(60) == math.inf


def test_players_far_apart_wait_until_both_windows_reach_each_other() -> None:
    low, high = Waiting("low", 1400, joined=0), Waiting("high", 1700, joined=0)  # 300 apart
    assert pair([low, high], 2, now=19.9, schedule=SCHEDULE) == []  # ±250
    assert tickets(pair([low, high], 2, now=20, schedule=SCHEDULE)) == [("high", "low")]  # ±300; tie: by ticket
    # Both windows must reach: a newcomer's narrow window keeps an old player waiting for a closer one.
    newcomer = Waiting("new", 1700, joined=40)
    assert pair([low, newcomer], 2, now=59.9, schedule=SCHEDULE) == []  # low: anyone; new: ±250
    assert tickets(pair([low, newcomer], 2, now=60, schedule=SCHEDULE)) == [("low", "new")]


def test_the_nearest_rating_is_preferred_and_the_longest_waiting_goes_first() -> None:
    first = Waiting("first", 1500, joined=0)
    near, far = Waiting("near", 1510, joined=5), Waiting("far", 1590, joined=1)
    assert tickets(pair([far, near, first], 2, now=6, schedule=SCHEDULE)) == [("first", "near")]


def test_four_players_wait_for_four_or_for_their_patience_with_bots() -> None:
    players = [Waiting(str(i), 1500, joined=0, bots_after=30) for i in range(3)]
    assert pair(players, 4, now=29, schedule=SCHEDULE) == []
    [group] = pair(players, 4, now=30, schedule=SCHEDULE)
    assert sorted(group.tickets) == ["0", "1", "2"] and group.bots == 1 and group.rating == 1500
    impatient = [*players, Waiting("never", 1500, joined=0, bots_after=None)]
    assert [g.bots for g in pair(impatient, 4, now=0, schedule=SCHEDULE)] == [0]  # four: no bots needed


def test_a_player_who_never_wants_bots_keeps_the_others_from_them() -> None:
    players = [Waiting("a", 1500, joined=0, bots_after=None), Waiting("b", 1500, joined=1, bots_after=0)]
    groups = pair(players, 4, now=100, schedule=SCHEDULE)
    assert tickets(groups) == [("b",)]  # a waits on alone; b, patient, gets bots
    assert groups[0].bots == 3


players = st.lists(
    st.builds(
        Waiting,
        ticket=st.uuids().map(str),
        rating=st.floats(800, 2400),
        joined=st.floats(0, 120),
        bots_after=st.none() | st.floats(0, 60),
    ),
    max_size=60,
    unique_by=lambda w: w.ticket,
)


@given(players, st.sampled_from([2, 4]), st.floats(0, 200))
def test_nobody_is_seated_twice_and_every_group_suits_all_its_players(
    waiting: list[Waiting], size: int, now: float
) -> None:
    by_ticket = {w.ticket: w for w in waiting}
    groups = pair(waiting, size, now, SCHEDULE)
    seated = Counter(t for group in groups for t in group.tickets)
    assert all(count == 1 for count in seated.values())
    for group in groups:
        members = [by_ticket[t] for t in group.tickets]
        assert len(members) + group.bots == size and members
        if group.bots:
            assert all(m.bots_after is not None and now - m.joined >= m.bots_after for m in members)
        for one in members:
            for other in members:
                reach = min(SCHEDULE.window(now - one.joined), SCHEDULE.window(now - other.joined))
                assert abs(one.rating - other.rating) <= reach


@given(players, st.sampled_from([2, 4]))
def test_once_everyone_has_waited_long_enough_nobody_is_left_out(waiting: list[Waiting], size: int) -> None:
    now = max((w.joined for w in waiting), default=0) + SCHEDULE.unbounded_after + 1
    groups = pair(waiting, size, now, SCHEDULE)
    left = len(waiting) - sum(len(g.tickets) for g in groups)
    patient = [w for w in waiting if w.bots_after is not None]
    # Fewer than a table's worth stay, and with bots allowed none of the patient ones do.
    assert left < size
    if size == 4:
        assert all(any(w.ticket in g.tickets for g in groups) for w in patient)


def test_players_kept_apart_wait_on_however_long_they_wait() -> None:
    blocked = frozenset(("a", "b"))
    a, b, c = Waiting("a", 1500, joined=0), Waiting("b", 1500, joined=0), Waiting("c", 1500, joined=50)
    assert pair([a, b], 2, now=1000, schedule=SCHEDULE, apart={blocked}) == []
    assert tickets(pair([a, b, c], 2, now=1000, schedule=SCHEDULE, apart={blocked})) == [("a", "c")]
    patient = [Waiting(t, 1500, joined=0, bots_after=0) for t in "abc"]
    assert sorted(tickets(pair(patient, 4, now=1000, schedule=SCHEDULE, apart={blocked}))) == [("a", "c"), ("b",)]


@given(players, st.sampled_from([2, 4]), st.floats(0, 200), st.data())
def test_no_group_holds_a_pair_kept_apart(waiting: list[Waiting], size: int, now: float, data: st.DataObject) -> None:
    """Whatever the queue and the blocks, no table seats two players of whom one blocks the other; and the
    players no block concerns are paired as they would be without any."""
    names = [w.ticket for w in waiting]
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(lambda p: p[0] != p[1])
    apart = {frozenset(p) for p in data.draw(st.lists(pairs, max_size=20))} if len(names) > 1 else set()
    groups = pair(waiting, size, now, SCHEDULE, apart)
    for group in groups:
        assert not any(frozenset((one, other)) in apart for one in group.tickets for other in group.tickets)
    if not apart:
        assert groups == pair(waiting, size, now, SCHEDULE)


@given(players, st.data())
def test_once_everyone_has_waited_a_blocked_pair_costs_at_most_its_own_seats(
    waiting: list[Waiting], data: st.DataObject
) -> None:
    """Two players who may not meet are left waiting only when nobody else is there to seat them with."""
    if len(waiting) < 2:
        return
    one, other = data.draw(st.sampled_from(waiting)), data.draw(st.sampled_from(waiting))
    if one is other:
        return
    now = max(w.joined for w in waiting) + SCHEDULE.unbounded_after + 1
    groups = pair(waiting, 2, now, SCHEDULE, {frozenset((one.ticket, other.ticket))})
    left = len(waiting) - sum(len(g.tickets) for g in groups)
    assert left <= 2
