"""The edge: the transports a client reaches a table by (the page's WebSocket, the Bot API's line
stream), one table look-up for both (:mod:`.transport`), and one connection serving either
(:mod:`.client`)."""
