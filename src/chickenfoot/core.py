"""Which engine core is in use: the compiled engine when it was built, else pure Python.

The compiled engine (``chickenfoot._engine``, Cython, the twin of ``round.py`` and ``layout.py``) is
built at install time where a C compiler is present; the pure-Python engine is always there, and is the
reference the compiled one is tested against move by move. ``CHICKENFOOT_PURE=1`` in the environment
forces the pure path. The search's compiled part (``chickenfoot.bots.sampling``) runs only on the
compiled engine.
"""

from __future__ import annotations

import os

COMPILED = False
"""Whether the compiled engine is in use."""
if os.environ.get("CHICKENFOOT_PURE") != "1":
    try:
        from chickenfoot import _engine  # noqa: F401  (whether it imports is the answer)

        COMPILED = True
    except ImportError:  # not built (no compiler at install): the pure engine serves alone
        pass

NAME = "compiled core" if COMPILED else "pure-Python core"
"""Which core is in use, in words: ``"compiled core"`` or ``"pure-Python core"`` (``chickenfoot --version``
prints it)."""
