"""The errors the library raises for bad input: each carries a one-line message for the user."""


class ChickenfootError(ValueError):
    """Base of every user-facing error of the library."""


class NotationError(ChickenfootError):
    """A tile or move that does not parse."""


class RulesError(ChickenfootError):
    """A rules configuration that cannot be played."""


class PositionError(ChickenfootError):
    """An inconsistent or malformed position or match record."""


class IllegalMoveError(ChickenfootError):
    """A move that is not legal in the current position."""
