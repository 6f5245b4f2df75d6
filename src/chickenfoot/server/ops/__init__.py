"""What an operator of a public site needs from each server process: whether it is alive and ready
(:mod:`.health`), what it is doing (:mod:`.metrics`, fed partly by :mod:`.events`), log lines a
collector can read (:mod:`.logs`, each with the request and table of :mod:`.context`), and backups
of the game store (:mod:`.backup`).

:mod:`.operations` is what the application installs. This package's own module imports nothing,
nor do :mod:`.events` and :mod:`.context`, so the storage and the tables can tell what happened and
whose work it is without importing the web stack.
"""
