"""Ratings: rated tables, each account's rating per player-count family, leaderboards.

One module per job: :mod:`.model` the OpenSkill arithmetic, :mod:`.levels` the bot levels' fixed
ratings, :mod:`.rated` which tables are rated and how a finished one ranks its seats, :mod:`.schema`
the tables, :mod:`.store` their queries, :mod:`.service` what the rest of the server calls
(:class:`~.service.Ratings`: ``of``, ``record``, and the hook for the end of a match), :mod:`.routes`
the HTTP API. Other features (quick play, the Bot API) call ``Ratings.of`` and ``Ratings.record``.
"""
