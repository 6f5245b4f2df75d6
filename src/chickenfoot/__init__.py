"""Chicken Foot dominoes: an exact rules engine, seat views for bots and clients, and tools.

>>> from chickenfoot import Round, Rules, Move
>>> r = Round.deal(Rules(), players=4, seed=3)
>>> r.to_move, [str(m) for m in r.legal_moves()]
(2, ['9-9'])
>>> r.push(Move.parse("9-9"))
>>> r.to_move, [str(m) for m in r.legal_moves()]
(3, ['9-5@9-9'])
"""

from chickenfoot.errors import (
    ChickenfootError,
    IllegalMoveError,
    NotationError,
    PositionError,
    RulesError,
)
from chickenfoot.layout import Phase
from chickenfoot.match import Match, Standing, standings
from chickenfoot.move import Move
from chickenfoot.position import read_position, write_position
from chickenfoot.round import Event, Round, Step
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.tiles import Tile
from chickenfoot.view import PublicStep, SeatView, view

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "ChickenfootError",
    "Event",
    "IllegalMoveError",
    "Match",
    "Move",
    "NotationError",
    "Phase",
    "PositionError",
    "PublicStep",
    "Round",
    "Rules",
    "RulesError",
    "SeatView",
    "Standing",
    "Step",
    "Tile",
    "read_position",
    "standings",
    "view",
    "write_position",
]
