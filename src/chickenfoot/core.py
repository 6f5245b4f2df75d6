"""Which engine runs the search's inner loop: the compiled core when it was built, else pure Python.

The compiled core (:mod:`chickenfoot._core`, Cython) is built at install time where a C compiler is
present; the pure-Python engine is always there, and is the reference the compiled one is tested
against move by move. ``CHICKENFOOT_PURE=1`` in the environment forces the pure path.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from chickenfoot.belief import POOL_SIZE, Belief
from chickenfoot.knowledge import SAMPLE_TRIES, Knowledge

if TYPE_CHECKING:
    from chickenfoot._core import CompiledRound
    from chickenfoot._core import Sampler as CompiledSampler
    from chickenfoot.round import Round

COMPILED = False
"""Whether the compiled core is in use (a benchmark may switch it off to compare the two)."""
if os.environ.get("CHICKENFOOT_PURE") != "1":
    try:
        from chickenfoot import _core

        COMPILED = True
    except ImportError:  # not built (no compiler at install): the pure engine serves alone
        pass

COMPILED_LOOP = True
"""Whether a compiled sampler runs the search's whole root loop in C (a benchmark may switch it off to
drive compiled rounds from the search's Python loop instead)."""

NAME = "compiled core" if COMPILED else "pure-Python core"

SearchRound: TypeAlias = "Round | CompiledRound"
"""A sampled round the search plays on: the pure engine's or the compiled core's, with the same moves."""


def sampler(knowledge: Knowledge) -> Callable[[random.Random], SearchRound]:
    """Sampled rounds in the state of ``knowledge``'s view (``Knowledge.round``), compiled where possible."""
    view = knowledge.view
    if not COMPILED or not _core.supports(view.rules, view.players):
        return knowledge.round
    return _core.Sampler(
        knowledge.round,
        knowledge.sample,
        knowledge.seat,
        knowledge.own,
        knowledge.order,
        knowledge.unseen,
        SAMPLE_TRIES,
    )


def weighted_sampler(belief: Belief, rng: random.Random) -> Callable[[random.Random], SearchRound]:
    """Sampled rounds drawn by weight from a pool of ``belief``'s deals (``Pool.round``), compiled where
    possible; ``rng`` draws the pool. Before any opponent's choice every deal weighs the same: then
    the plain :func:`sampler`."""
    knowledge = belief.knowledge
    plain = sampler(knowledge)
    if not belief.informative:
        return plain
    if not (COMPILED and isinstance(plain, _core.Sampler)):
        return belief.pool(rng).round
    plain.believe(rng, POOL_SIZE, belief.scale, belief.choices, knowledge.picks)
    return plain


def compiled(make_round: Callable[[random.Random], SearchRound]) -> CompiledSampler | None:
    """The compiled sampler behind ``make_round``, if it is one: its ``search`` runs the search's
    whole root loop in C."""
    return make_round if COMPILED and COMPILED_LOOP and isinstance(make_round, _core.Sampler) else None
