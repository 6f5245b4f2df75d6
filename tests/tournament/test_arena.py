"""The arena: seated again as soon as enough are free, never twice at once, rematches and bots only after
a wait, and only matches that end in time count."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.errors import TournamentError
from chickenfoot.tournament import ArenaSettings, Entrant, Result, Seating, arena_pairings, arena_standings
from chickenfoot.tournament._history import pair
from tournament.strategies import NAMES, relabelled

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
TWO = ArenaSettings(table_size=2, starts_at=0, ends_at=3600, max_wait=30)


def test_nothing_starts_before_the_start_after_the_end_or_in_the_closing_time() -> None:
    settings_ = replace(TWO, starts_at=100, closing=600)
    entrants = [Entrant("ann", 0), Entrant("bob", 0)]
    assert arena_pairings(settings_, entrants, [], [], now=99) == []
    assert arena_pairings(settings_, entrants, [], [], now=100) == [("ann", "bob")]
    assert arena_pairings(settings_, entrants, [], [], now=2999) == [("ann", "bob")]
    assert arena_pairings(settings_, entrants, [], [], now=3000) == []


def test_the_free_are_cut_by_rank_and_whoever_came_free_last_waits() -> None:
    four = replace(TWO, table_size=4)
    entrants = [Entrant(p, since) for p, since in zip(NAMES[:9], (0, 0, 0, 0, 0, 0, 0, 0, 5), strict=True)]
    tables = arena_pairings(four, entrants, [], [], now=10)
    assert tables == [tuple(NAMES[:4]), tuple(NAMES[4:8])]  # p08 joined last and waits


def test_a_player_at_a_table_or_paused_is_not_seated() -> None:
    entrants = [Entrant("ann", 0), Entrant("bob", 0), Entrant("cy", 0, paused=True), Entrant("dan", 0)]
    assert arena_pairings(TWO, entrants, [("ann", None)], [], now=10) == [("bob", "dan")]


def test_a_caller_state_that_seats_someone_twice_is_refused() -> None:
    entrants = [Entrant("ann", 0), Entrant("bob", 0)]
    with pytest.raises(TournamentError, match="ann is at two tables at once"):
        arena_pairings(TWO, entrants, [("ann", "cy"), ("dan", "ann")], [], now=10)
    with pytest.raises(TournamentError, match="ann is entered twice"):
        arena_pairings(TWO, [*entrants, Entrant("ann", 3)], [], [], now=10)


def test_no_immediate_rematch_while_someone_else_is_free() -> None:
    entrants = [Entrant(p, 0) for p in ("ann", "bob", "cy", "dan")]
    results = [
        Result.from_points("1", ("ann", "bob"), (5, 5), finished_at=100),
        Result.from_points("2", ("cy", "dan"), (5, 5), finished_at=100),
    ]
    # All four on 1 point: by rank the tables would be ann-bob and cy-dan again.
    assert arena_pairings(TWO, entrants, [], results, now=101) == [("ann", "cy"), ("bob", "dan")]


def test_two_alone_wait_before_a_rematch_and_then_play_it() -> None:
    entrants = [Entrant("ann", 0), Entrant("bob", 0)]
    results = [Result.from_points("1", ("ann", "bob"), (0, 9), finished_at=100)]
    assert arena_pairings(TWO, entrants, [], results, now=129) == []
    assert arena_pairings(TWO, entrants, [], results, now=130) == [("bob", "ann")]  # seats alternate


def test_bots_fill_a_table_once_the_longest_waiting_has_waited() -> None:
    four = replace(TWO, table_size=4)
    entrants = [Entrant("ann", 0), Entrant("bob", 10), Entrant("cy", 0), Entrant("dan", 0), Entrant("eve", 0)]
    playing: list[Seating] = [("cy", "dan", "eve", None)]
    assert arena_pairings(four, entrants, playing, [], now=29) == []
    assert arena_pairings(four, entrants, playing, [], now=30) == [("ann", "bob", None, None)]
    assert arena_pairings(replace(four, bots=False), entrants, playing, [], now=300) == []


def test_only_matches_ended_in_time_count() -> None:
    results = [
        Result.from_points("1", ("ann", "bob"), (0, 9), finished_at=3600),
        Result.from_points("2", ("bob", "ann"), (0, 9), finished_at=3601),
    ]
    rows = arena_standings(TWO, results, [Entrant("ann", 0), Entrant("bob", 0), Entrant("cy", 0)])
    assert [(r.rank, r.player, r.score, r.matches) for r in rows] == [
        (1, "ann", 2, 1),
        (2, "bob", 0, 1),
        (2, "cy", 0, 0),
    ]


def test_the_arenas_settings_must_make_sense() -> None:
    with pytest.raises(TournamentError, match="an arena must end after it starts"):
        ArenaSettings(table_size=2, starts_at=10, ends_at=10)
    with pytest.raises(TournamentError, match="cannot be negative"):
        ArenaSettings(table_size=2, starts_at=0, ends_at=10, max_wait=-1)
    with pytest.raises(TournamentError, match="a table seats 2 to 4, not 6"):
        ArenaSettings(table_size=6, starts_at=0, ends_at=10)


class Simulation:
    """An arena driven by random events: joins, pauses, tables finishing; the pairing asked every step."""

    def __init__(self, settings_: ArenaSettings, rng: random.Random) -> None:
        self.settings, self.rng = settings_, rng
        self.entrants: dict[str, Entrant] = {}
        self.playing: dict[str, Seating] = {}
        self.results: list[Result] = []
        self.now = settings_.starts_at
        self.started: list[tuple[float, Seating]] = []

    def advance(self, names: list[str]) -> None:
        """Time passes: someone may join, pause or come back, and tables may finish."""
        rng = self.rng
        self.now += rng.choice((1, 5, 20, 40))
        if rng.random() < 0.5 and len(self.entrants) < len(names):
            player = names[len(self.entrants)]
            self.entrants[player] = Entrant(player, self.now)
        if self.entrants and rng.random() < 0.2:
            player = rng.choice(sorted(self.entrants))
            entrant = self.entrants[player]
            self.entrants[player] = Entrant(player, self.now, paused=not entrant.paused)
        for table in sorted(self.playing):
            if rng.random() < 0.4:
                seating = self.playing.pop(table)
                points = [rng.randrange(30) for _ in seating]
                self.results.append(Result.from_points(table, seating, points, finished_at=self.now))

    def pair(self) -> list[Seating]:
        """Ask for the tables to start now, and start them."""
        entrants = list(self.entrants.values())
        tables = arena_pairings(self.settings, entrants, list(self.playing.values()), self.results, self.now)
        for seating in tables:
            self.playing[f"t{len(self.started)}"] = seating
            self.started.append((self.now, seating))
        return tables


@st.composite
def arenas(draw: st.DrawFn) -> ArenaSettings:
    return ArenaSettings(
        table_size=draw(st.integers(2, 4)),
        starts_at=0,
        ends_at=draw(st.sampled_from((600, 3600))),
        closing=draw(st.sampled_from((0, 60))),
        max_wait=draw(st.sampled_from((0, 30, 90))),
        bots=draw(st.booleans()),
    )


@SETTINGS
@given(arenas(), st.integers(2, 14), st.randoms(use_true_random=False))
def test_nobody_is_ever_seated_twice_at_once_and_every_table_keeps_the_rules(
    settings_: ArenaSettings, count: int, rng: random.Random
) -> None:
    simulation = Simulation(settings_, rng)
    names = NAMES[:count]
    for _ in range(60):
        simulation.advance(names)
        busy_before = {p for seating in simulation.playing.values() for p in seating if p is not None}
        free_since = {
            e.player: max([e.since] + [r.finished_at for r in simulation.results if e.player in r.players])
            for e in simulation.entrants.values()
        }
        free = {e.player for e in simulation.entrants.values() if not e.paused and e.player not in busy_before}
        last_met = just_met(simulation.results, free)
        now = simulation.now
        tables = simulation.pair()
        seated = [p for seating in tables for p in seating if p is not None]
        assert len(seated) == len(set(seated)), "a player seated at two new tables"
        assert not set(seated) & busy_before, "a player seated while at a table"
        in_play = [p for seating in simulation.playing.values() for p in seating if p is not None]
        assert len(in_play) == len(set(in_play))
        for seating in tables:
            people = [p for p in seating if p is not None]
            assert len(seating) == settings_.table_size and people
            assert all(not simulation.entrants[p].paused for p in people)
            assert settings_.starts_at <= now < settings_.ends_at - settings_.closing
            waited = now - min(free_since[p] for p in people)
            if None in seating:
                assert settings_.bots and waited >= settings_.max_wait
            if any(pair(a, b) in last_met for a, b in itertools.combinations(people, 2)):
                assert waited >= settings_.max_wait


def just_met(results: list[Result], free: set[str]) -> set[tuple[str, str]]:
    """The pairs at the last table of each free player (an independent reading of the rematch rule)."""
    met = set()
    for player in free:
        mine = [r for r in results if player in r.players]
        if mine:
            last = max(mine, key=lambda r: r.finished_at)
            people = [p for p in last.players if p is not None]
            met |= {pair(a, b) for a, b in itertools.combinations(people, 2)}
    return met


@SETTINGS
@given(arenas(), st.integers(2, 12), st.randoms(use_true_random=False), st.randoms(use_true_random=False))
def test_the_pairings_do_not_depend_on_names(
    settings_: ArenaSettings, count: int, rng: random.Random, renaming: random.Random
) -> None:
    simulation = Simulation(settings_, rng)
    for _ in range(20):
        simulation.advance(NAMES[:count])
        simulation.pair()
    names, renamed = relabelled(sorted(simulation.entrants), renaming)
    entrants = list(simulation.entrants.values())
    playing = list(simulation.playing.values())
    before = arena_pairings(settings_, entrants, playing, simulation.results, simulation.now)
    after = arena_pairings(
        settings_,
        [replace(e, player=names[e.player]) for e in entrants],
        [tuple(None if p is None else names[p] for p in s) for s in playing],
        renamed(simulation.results),
        simulation.now,
    )
    assert after == [tuple(None if p is None else names[p] for p in s) for s in before]


def test_five_hundred_arrive_at_once_and_all_sit_down() -> None:
    four = replace(TWO, table_size=4)
    entrants = [Entrant(p, 0) for p in (f"x{i:03}" for i in range(500))]
    tables = arena_pairings(four, entrants, [], [], now=1)
    assert len(tables) == 125 and sorted(p for s in tables for p in s if p is not None) == [e.player for e in entrants]


def test_players_kept_apart_are_grouped_apart_while_another_grouping_exists() -> None:
    entrants = [Entrant(p, 0) for p in ("ann", "bob", "cy", "dan")]
    assert arena_pairings(TWO, entrants, [], [], now=10) == [("ann", "bob"), ("cy", "dan")]
    kept = arena_pairings(TWO, entrants, [], [], now=10, apart=[("bob", "ann")])
    assert not any({"ann", "bob"} <= set(t) for t in kept)
    assert sorted(p for t in kept for p in t if p is not None) == ["ann", "bob", "cy", "dan"]
    # Two free players and no one else: they are seated together all the same.
    assert arena_pairings(TWO, entrants[:2], [], [], now=10, apart=[("ann", "bob")]) == [("ann", "bob")]
