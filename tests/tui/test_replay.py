"""``chickenfoot replay``: a finished match stepped through with the keys."""

from __future__ import annotations

import pytest

from chickenfoot import Match, Rules
from chickenfoot.bots import make_bot
from chickenfoot.tui.replay import ReplayApp

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(120)]


def played(rounds: int = 2, seed: int = 4) -> Match:
    match = Match(Rules(rounds=rounds), 2, seed)
    bot = make_bot("greedy", seed)
    while not match.is_over():
        if match.round.is_over():
            match.next_round()
        match.push(bot.choose(match.round.view(match.to_move)))
    return match


async def test_replay_steps_through_rounds_with_the_keys() -> None:
    match = played(rounds=2)
    app = ReplayApp(match)
    moves = [len(r.history) for r in match.rounds]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("right", "right", "right")
        assert (app.round_index, app.ply) == (0, 3)
        assert app.frames[3].history == match.rounds[0].history[:3]
        await pilot.press("left")
        assert app.ply == 2
        await pilot.press("end")
        assert app.ply == moves[0] and app.frames[app.ply].points() == match.round_points[0]
        await pilot.press("right")
        assert (app.round_index, app.ply) == (1, 0)
        await pilot.press("home", "left")
        assert (app.round_index, app.ply) == (0, moves[0])
        await pilot.press("2")
        assert (app.round_index, app.ply) == (1, 0)
        await pilot.press("space")
        assert app.timer is not None
        await pilot.press("space")
        assert app.timer is None
        hands = [app.frames[0].hand(s) for s in range(2)]
        assert hands == match.deals[1][0]
