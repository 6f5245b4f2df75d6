"""The Bot API: programs playing as bot accounts. :mod:`.schema` its tables (tokens, invitations),
:mod:`.store` their queries, :mod:`.service` what a token may do, :mod:`.routes` the HTTP API and its
event streams (:mod:`.stream`), :mod:`.gate` the flood gate in front, :mod:`.admin` the operator's command."""
