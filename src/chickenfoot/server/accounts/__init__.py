"""Accounts: players who come back as themselves (guests still play without one).

One module per job: :mod:`.schema` the tables, :mod:`.store` their queries, :mod:`.names` usernames,
:mod:`.passwords` password hashing, :mod:`.passkeys` WebAuthn ceremonies, :mod:`.sessions` session
cookies and CSRF tokens, :mod:`.routes` the HTTP API.
"""
