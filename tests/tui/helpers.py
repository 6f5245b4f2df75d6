"""Deterministic sessions and a way to wait for the game between key presses."""

from __future__ import annotations

import io
import time

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from chickenfoot.bots import Hint, make_bot
from chickenfoot.layout import Phase
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.log import GameLog
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.hand_over import HandOver
from chickenfoot.tui.screens.round_end import RoundEnd
from chickenfoot.tui.session import Session

HINT_SEED, HINT_PLY = 3, 10
"""Double-9, four seats: at move 10 or so the human has several moves to choose from."""

ROUND_SEED = 1
SETTLE_SECONDS = 60
"""How long the bots may take to hand the game back to a human (generous: the machine may be busy)."""
"""With double-6, two seats and one round, seed 1 gives the human draws, chosen passes and chicken feet."""


def small_session(seed: int = ROUND_SEED, seats: tuple[str, ...] = ("human", "greedy")) -> Session:
    return Session.new(Rules.preset("double-6").replace(rounds=1), list(seats), seed)


def played(players: int = 2, rounds: int = 2, seed: int = 4) -> Match:
    """A finished match of greedy bots, double-9."""
    match = Match(Rules(rounds=rounds), players, seed)
    bot = make_bot("greedy", seed)
    while not match.is_over():
        if match.round.is_over():
            match.next_round()
        match.push(bot.choose(match.round.view(match.to_move)))
    return match


def human_choice(legal: list[Move]) -> Move:
    """The test player: pass when allowed to, else the first legal move (what Enter plays)."""
    return next((m for m in legal if m.kind == "pass"), legal[0])


def advance(session: Session, *, until_foot: bool = False, until_ply: int | None = None) -> None:
    """Play the session on (bots, forced moves, the test player) to the round end, or to the test
    player's first choice with an open foot (``until_foot``) or at ``until_ply`` moves or more."""
    round_ = session.round
    while not round_.is_over():
        seat = round_.to_move
        forced = session.forced_move()
        if session.is_human(seat) and forced is None:
            if until_foot and round_.phase == Phase.FOOT:
                return
            if until_ply is not None and round_.ply >= until_ply:
                return
            session.play(human_choice(round_.legal_moves()), chosen=True)
        else:
            session.play(forced or session.bot_move())


async def settle(pilot: Pilot[None], app: ChickenFootApp) -> None:
    """Wait until the game waits for a human (or shows a hand-over or the round end): looked at after
    each short pause, as the bots think in threads and the screen says nothing when they are done."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        await pilot.pause(0.005)
        screen = app.screen
        if isinstance(screen, RoundEnd | HandOver):
            return
        if isinstance(screen, GameScreen) and not screen.busy:
            return
    raise AssertionError(f"the game did not wait for a human within {SETTLE_SECONDS} s")


def log_text(screen: GameScreen) -> str:
    """Every entry of the log, one a line (as written, before wrapping)."""
    return "\n".join(screen.query_one(GameLog).texts())


def shown(widget: Static) -> str:
    """The text a Static widget shows (its content rendered without colour)."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.export_text()


def a_long_hint(session: Session) -> Hint:
    """A hint with every part of the search's reason, as long as hints get (the search itself takes
    a time-bounded while and its numbers vary)."""
    moves = list(session.round.legal_moves())
    assert len(moves) > 1
    reason = Said.of(
        Code.HINT_SEARCH,
        own=12,
        theirs=31,
        them=Said.of(Code.HINT_THEM_MANY),
        next=moves[1].advice(),
        next_own=18,
        next_theirs=27,
        closeness=Said.of(Code.HINT_WORSE, gap=12.5),
    )
    return Hint(moves[0], reason)
