"""Replays and reviews of finished matches: :mod:`.frames` a round's frames (built in a worker process,
kept by content), :mod:`.reviews` the background reviews, :mod:`.service` what a replay shows, and
:mod:`.routes` the ``/r/CODE`` page and its endpoints. Their rows are the game store's (``reviews``)."""
