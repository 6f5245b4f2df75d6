"""The terminal game's screens, one a module; each gets what it needs, never asking what app it is in."""
