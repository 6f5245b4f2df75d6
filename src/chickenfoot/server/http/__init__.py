"""The HTTP plumbing every feature's routes stand on: refusals answered (:mod:`.answers`), the rate
limiter (:mod:`.limits`), the client's address (:mod:`.client`), the table a path names
(:mod:`.tables`) and what the server trusts of browsers (:mod:`.security`)."""
