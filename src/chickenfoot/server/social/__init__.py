"""Friends and blocks: players following each other, blocking someone, challenging a friend, reporting a
player or a chat line to the operators, and who may do which to whom.

One module per job: :mod:`.schema` the tables, :mod:`.store` follows, blocks, privacy and presence,
:mod:`.challenges` challenges and their answers, :mod:`.challenging` what a challenge does (the table
it makes, the players told through the notify port), :mod:`.reports` the operators' reports (the
report desk the moderation page uses), :mod:`.hearing` whose chat lines a table's listener is spared,
:mod:`.service` what a player's requests do, :mod:`.routes` the HTTP API and the friends page.
"""
