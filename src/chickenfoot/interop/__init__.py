"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel environments over the rules engine.

The submodules need the ``rl`` extra (``pip install -e '.[rl]'``). Observations are built only from
:class:`~chickenfoot.view.SeatView`; the dynamics are the engine's :class:`~chickenfoot.round.Round`
and :class:`~chickenfoot.match.Match`.
"""
