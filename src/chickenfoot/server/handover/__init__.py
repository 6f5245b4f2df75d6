"""Continue on another device: :mod:`.schema` the links' table, :mod:`.store` the links, :mod:`.service`
offering and spending one, :mod:`.routes` the HTTP API."""

from chickenfoot.server.accounts.service import SEAT_ELSEWHERE

__all__ = ["SEAT_ELSEWHERE"]
