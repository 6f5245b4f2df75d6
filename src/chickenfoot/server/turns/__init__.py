"""Turn-based play around the tables: the tables that wait for an account (the top bar's count, the next
one, My matches ordered by the time left) and its vacations (its clocks stand, for a number of days a year)."""
