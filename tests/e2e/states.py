"""STATE messages (web contract) built straight from the engine, for tests that need no server."""

from __future__ import annotations

import random
from typing import Any

from chickenfoot.round import Round
from chickenfoot.rules import Rules


def state_of(round_: Round, seat: int | None, code: str = "DEMO42") -> dict[str, Any]:
    """The STATE a client of ``seat`` would be sent (log, scores and names simplified)."""
    view = round_.view(seat)
    names = [f"Seat {s + 1}" for s in range(view.players)]
    return {
        "code": code,
        "seat": seat,
        "players": view.players,
        "names": names,
        "kinds": ["human"] + ["bot"] * (view.players - 1),
        "connected": [True] * view.players,
        "rules": view.rules.to_dict(),
        "round": 1,
        "rounds": view.rules.round_count,
        "start_double": view.start_double,
        "hand": [str(t) for t in view.hand],
        "layout": [[str(t), None if target is None else str(target)] for t, target in view.layout],
        "open_ends": [[str(t), n] for t, n in view.open_ends],
        "phase": view.phase.name.lower(),
        "foot": None,
        "boneyard": view.boneyard_size,
        "hand_sizes": list(view.hand_sizes),
        "to_move": view.to_move,
        "drawn": None if view.drawn is None else str(view.drawn),
        "legal": [str(m) for m in view.legal_moves],
        "log": [{"seat": s.seat, "move": str(s.move), "text": f"{names[s.seat]}: {s.move}"} for s in view.history],
        "round_over": None,
        "scores": [],
        "totals": [0] * view.players,
        "match_over": None,
    }


def random_round(rules: Rules, players: int, seed: int, plies: int) -> Round:
    """A round advanced by ``plies`` random legal moves (fewer if it ends first)."""
    rng = random.Random(seed)
    round_ = Round.deal(rules, players, seed=seed)
    for _ in range(plies):
        if round_.is_over():
            break
        round_.push(rng.choice(round_.legal_moves()))
    return round_


def random_layouts(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Layouts of whole random rounds across the rule space: 2–8 players, double-6 to double-18,
    every hub-arm option the set allows. Each is ``{"arms", "toes", "layout"}`` as STATE has them."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        max_pip = rng.choice([6, 9, 12, 15, 18])
        arms = rng.choice([a for a in (4, 6, 8) if a <= max_pip])
        players = rng.randint(2, 8)
        round_ = random_round(Rules(max_pip=max_pip, hub_arms=arms), players, seed=seed * 1000 + i, plies=10_000)
        state = state_of(round_, seat=0)
        out.append({"arms": arms, "toes": state["rules"]["toes"], "layout": state["layout"], "players": players})
    return out
