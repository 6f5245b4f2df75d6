"""The optional extras of ``pyproject.toml`` and the modules each one brings.

A command or library part that needs an extra asks :func:`require` first, so a missing extra is one
line naming the extra to install rather than an import traceback (or a review that fails only when
it comes to draw its chart).

>>> require("rules", "chickenfoot arena")
Traceback (most recent call last):
...
ValueError: unknown extra 'rules'
"""

from __future__ import annotations

import importlib.util

from chickenfoot.errors import ChickenfootError

MODULES: dict[str, tuple[str, ...]] = {
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "aiosqlite",
        "alembic",
        "platformdirs",
        "redis",
        "limits",
        "orjson",
        "openskill",
    ),
    "tui": ("textual",),
    "arena": ("openskill", "matplotlib", "rich"),
    "review": ("matplotlib", "rich"),
    "ray": ("ray",),
    "rl": ("pettingzoo", "gymnasium", "pyspiel", "numpy"),
}
"""The top-level modules each extra installs that the code imports (``pyspiel`` is ``open-spiel``'s)."""


class MissingExtra(ChickenfootError):
    """Something needs an extra whose modules are not installed."""


def require(extra: str, user: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`MissingExtra` naming ``extra`` when one of ``modules`` (default: all of the
    extra's) cannot be imported; ``user`` names what needs it (``'chickenfoot serve'``)."""
    if extra not in MODULES:
        raise ValueError(f"unknown extra {extra!r}")
    for module in modules or MODULES[extra]:
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(
                f"{user} needs the {extra!r} extra (no module {module!r}): pip install 'chickenfoot[{extra}]'"
            )
