"""The search's sampled rounds: on the compiled search and engine when they were built, else pure Python.

The compiled search (:mod:`chickenfoot.bots._search`, Cython, the twin of the search's pure modules) fills a
seat's hidden tiles in C into the compiled engine's rounds (:mod:`chickenfoot.core` says whether that
engine is in use, ``CHICKENFOOT_PURE=1`` switching both off), plays the search's rollout policy on them and
can run the search's whole root loop in C. The pure path is always there, with the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from chickenfoot import core
from chickenfoot.belief import POOL_SIZE, Belief
from chickenfoot.knowledge import SAMPLE_TRIES, Knowledge

if TYPE_CHECKING:
    from chickenfoot._engine import CompiledRound
    from chickenfoot.bots._search import Sampler as CompiledSampler
    from chickenfoot.round import Round

COMPILED = False
"""Whether the search samples and plays in C (a benchmark may switch it off to compare the two)."""
if core.COMPILED:
    try:
        from chickenfoot import _engine
        from chickenfoot.bots import _search

        rollout_round = _search.rollout_round
        """The search's rollout (``chickenfoot.bots.search.rollout``) of a compiled round, in C: the function
        itself, not a wrapper, since the search calls it once per iteration."""
        COMPILED = True
    except ImportError:  # the engine was built without the search: the pure search serves
        pass

COMPILED_LOOP = True
"""Whether a compiled sampler runs the search's whole root loop in C (a benchmark may switch it off to
drive compiled rounds from the search's Python loop instead)."""

SearchRound: TypeAlias = "Round | CompiledRound"
"""A sampled round the search plays on: the pure engine's or the compiled engine's, with the same moves."""


def sampler(knowledge: Knowledge) -> Callable[[random.Random], SearchRound]:
    """Sampled rounds in the state of ``knowledge``'s view (``Knowledge.round``), compiled where possible."""
    view = knowledge.view
    if not COMPILED or not _engine.supports(view.rules, view.players):
        return knowledge.round
    return _search.Sampler(
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
    if not (COMPILED and isinstance(plain, _search.Sampler)):
        return belief.pool(rng).round
    plain.believe(rng, POOL_SIZE, belief.scale, belief.choices, knowledge.picks)
    return plain


def compiled(make_round: Callable[[random.Random], SearchRound]) -> CompiledSampler | None:
    """The compiled sampler behind ``make_round``, if it is one: its ``search`` runs the search's
    whole root loop in C."""
    return make_round if COMPILED and COMPILED_LOOP and isinstance(make_round, _search.Sampler) else None
