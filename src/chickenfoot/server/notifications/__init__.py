"""Notifications: what reaches a player who is not looking at the page (docs/players/notifications.md).

One module per job: :mod:`.schema` the tables, :mod:`.store` their queries, :mod:`.preferences` what
each account chose (and its quiet hours), :mod:`.render` notices in words (the list, a push, an
e-mail), :mod:`.push` Web Push, :mod:`.mail` SMTP, :mod:`.outbox` the worker that sends what the
outbox holds, :mod:`.service` what the rest of the server and the routes ask, :mod:`.routes` the HTTP
API. Whoever has news for an account calls the notify port (:mod:`chickenfoot.server.notices`).
"""
