"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel environments over the rules engine.

The submodules need the ``rl`` extra (``pip install -e '.[rl]'``). Observations are built only from
:class:`~chickenfoot.view.SeatView`; the dynamics are the engine's :class:`~chickenfoot.round.Round`
and :class:`~chickenfoot.match.Match`. PettingZoo's AEC (``env``, ``raw_env``) and parallel
(``parallel_env``) APIs, Gymnasium's ``chickenfoot/Chickenfoot-v0`` and OpenSpiel's
``python_chickenfoot`` share one illegal-action policy: :mod:`chickenfoot.interop.illegal`.
"""
