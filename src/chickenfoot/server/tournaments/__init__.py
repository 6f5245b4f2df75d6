"""Tournaments on the server (docs/players/tournaments.md): arenas, Swiss and round-robin events, dealt
duplicate or not, private (made by any signed-in player, joined by its code) or public (an operator's,
listed for everyone; the store keeps them, repeating daily or weekly), rated or casual.

:mod:`.schema` the tables, :mod:`.store` their queries, :mod:`.settings` what an event is,
:mod:`.organiser` the lease holder that starts events, seats their tables and keeps their standings,
:mod:`.compute` its dear work (pairings, standings) done in a worker process by
:mod:`chickenfoot.tournament`, :mod:`.ports` what it asks of the rest of the server, :mod:`.service`
what the routes and the hooks ask, :mod:`.routes` the HTTP API.
"""
