"""pop() gives back the exact state, also across two chicken feet."""

from chickenfoot.position import position_to_dict

from .helpers import CROSS, build, legal, play


def test_pop_after_a_second_foot_restores_the_first_feet_toes() -> None:
    # A foot on 1-1 gets its three toes, then 5-5 opens a second foot; taking back the 5-5 and
    # then the last toe must reopen the foot on 1-1 with one toe slot left.
    r = build(["1-1 6-1 5-5 0-0", "5-1 7-1 2-0 3-0"], "8-0", CROSS, to_move=0)
    play(r, "1-1@9-1", "5-1@1-1", "6-1@1-1")
    before_last_toe = (position_to_dict(r), legal(r))
    assert legal(r) == ["7-1@1-1"]
    play(r, "7-1@1-1")
    before_double = (position_to_dict(r), legal(r))
    play(r, "5-5@5-1")
    assert legal(r) == ["draw"]  # seat 1 holds no 5: the foot on 5-5 wants toes
    r.pop()
    assert (position_to_dict(r), legal(r)) == before_double
    r.pop()
    assert (position_to_dict(r), legal(r)) == before_last_toe
