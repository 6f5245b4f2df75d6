"""Moderation: operators, the moderation page, and what keeps the chat clean by itself.

One module per job: :mod:`.schema` the tables, :mod:`.store` their queries, :mod:`.words` the chat
filter, :mod:`.gate` what every chat line and every sign-in is asked (muted? filtered? throttled?
suspended?), :mod:`.reports` the port the players' reports land through, :mod:`.service` the
operators' actions, each written to the audit log, :mod:`.routes` the page and its API, :mod:`.admin`
the command line's grant of the operator's role.
"""
