"""Seating: tables made and filled over HTTP. :mod:`.service` a new table's configuration, creating it,
joining an open one, claiming an invite, handing an absent friend's seat to a bot, a table's summary;
:mod:`.routes` the HTTP API and the table's page. (The table itself, and what a seat may do at it, is
:mod:`chickenfoot.server.table`, and :mod:`chickenfoot.server.table.seats`.)"""
