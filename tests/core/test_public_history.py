"""The public history a view carries stays right through undo and on rounds loaded mid-play."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Round, Rules, read_position, write_position
from chickenfoot.move import DRAW


def expected_history(
    start_text: str, moves: list[str], seat: int
) -> list[tuple[int, str, str | None, tuple[int, ...], bool]]:
    """Replays the moves from the loaded start, reading the open numbers off the live layout."""
    round_ = read_position(start_text)
    steps = []
    for text in moves:
        mover = round_.to_move
        numbers = tuple(round_.layout.open_numbers())
        opening = round_.layout.hub < 0
        before = set(round_.hand(mover))
        round_.push(next(m for m in round_.legal_moves() if str(m) == text))
        drawn = None
        if text == "draw" and mover == seat:
            (tile,) = set(round_.hand(mover)) - before
            drawn = str(tile)
        steps.append((mover, text, drawn, numbers, opening))
    return steps


def actual_history(round_: Round, seat: int) -> list[tuple[int, str, str | None, tuple[int, ...], bool]]:
    return [
        (s.seat, str(s.move), None if s.drawn is None else str(s.drawn), s.open_numbers, s.opening)
        for s in round_.view(seat).history
    ]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), skip=st.integers(0, 40), players=st.integers(2, 5), data=st.data())
def test_history_survives_pops_and_loading(seed: int, skip: int, players: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    round_ = Round.deal(Rules(), players, seed)
    for _ in range(skip):
        if round_.is_over():
            break
        round_.push(rng.choice(round_.legal_moves()))
    start = write_position(round_)
    loaded = read_position(start)  # mid-round: the layout so far has no recorded moves
    played: list[str] = []
    for _ in range(data.draw(st.integers(5, 60))):
        if played and (loaded.is_over() or data.draw(st.booleans())) and rng.random() < 0.4:
            loaded.pop()
            played.pop()
        elif not loaded.is_over():
            move = rng.choice(loaded.legal_moves())
            loaded.push(move)
            played.append(str(move))
        seat = rng.randrange(players)
        assert actual_history(loaded, seat) == expected_history(start, played, seat)


def test_a_copy_rebuilds_the_history_of_its_own_moves() -> None:
    round_ = Round.deal(Rules(), 4, seed=11)
    rng = random.Random(2)
    for _ in range(12):
        round_.push(rng.choice(round_.legal_moves()))
    before = round_.view(0).history
    twin = round_.copy()
    twin.push(rng.choice(twin.legal_moves()))
    assert round_.view(0).history == before
    assert twin.view(0).history[: len(before)] == before
    assert len(twin.view(0).history) == len(before) + 1
    drawn_own = [s for s in twin.view(0).history if s.move.code == DRAW and s.seat == 0]
    assert all(s.drawn is not None for s in drawn_own)
