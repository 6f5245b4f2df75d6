"""The illegal-action policy shared by the PettingZoo, Gymnasium and OpenSpiel interfaces.

An action is illegal when its bit in the observation's ``action_mask`` is 0 (or it is outside the
action space): a move the rules (docs/rules.md) do not allow now, or any action of an agent whose turn
it is not. There are two answers, one per kind of interface:

- **Refused** by the engine-level interfaces, PettingZoo's ``raw_env`` and the OpenSpiel game:
  :class:`~chickenfoot.errors.IllegalMoveError` names the action and says why the rules forbid it
  (``illegal action 827 (9-4@9-9) for player_0: 9-4 is not in the hand of seat 0``), and the state
  is unchanged. OpenSpiel's algorithms only ever apply ``legal_actions()``; the raw environment is
  for code that masks its own actions.
- **Forfeited** in the learning environments, PettingZoo's ``env()`` and ``parallel_env()`` and
  Gymnasium's ``ChickenfootEnv``: the episode ends at once, the offender's reward for the step is
  :func:`illegal_reward`, every other agent's is 0, and the offender's info holds
  ``"illegal": True``.

The forfeit must never pay better than the worst legal play, or an agent learns to play illegally
(PettingZoo's usual -1 is better than almost any honest score here). :func:`illegal_reward` is
minus the most a seat can lose in one round, once per round of the episode: rewards already paid
stay paid, and whatever is left of the episode cannot cost a legal player more than that.

>>> from chickenfoot.rules import Rules
>>> worst_round_loss(Rules()), illegal_reward(Rules(rounds=3), full_match=True)
(545, -1635.0)
"""

from __future__ import annotations

from chickenfoot.rules import Rules
from chickenfoot.tiles import PIP_SUM


def worst_round_loss(rules: Rules) -> int:
    """The most one seat's reward can fall below 0 in a round, for either reward kind.

    With ``points`` a seat loses its points: at most every tile of the set in its hand, the 0-0 at
    its value when that is positive. With ``zero_sum`` it gets the table's mean points minus its
    own, ``(others - (P - 1) * own) / P``, which is lower by at most a negative 0-0 held by another
    seat: so the pips of the whole set plus the 0-0's value, whatever its sign, bound both.
    """
    return sum(PIP_SUM[: rules.tile_count]) + abs(rules.double_blank_points)


def illegal_reward(rules: Rules, *, full_match: bool = False) -> float:
    """The offender's reward for an illegal action: at most the worst return of any legal play of
    the episode (one round, or ``rules.round_count`` rounds with ``full_match``)."""
    rounds = rules.round_count if full_match else 1
    return -float(worst_round_loss(rules) * rounds)
