"""Players' match history and the pages that list it: :mod:`.schema` the results' table, :mod:`.store`
its queries, :mod:`.service` recording results and building a profile or "My matches", :mod:`.routes`
the pages and their API."""
