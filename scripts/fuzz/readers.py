"""Coverage-guided fuzzing (atheris) of the readers of people's documents.

Every input is the bytes of a file, read the way ``chickenfoot moves FILE`` and ``chickenfoot play
--load FILE`` read one: UTF-8 decoding, strict JSON, then the position reader, the match-record
reader and the saved-game reader. :class:`~chickenfoot.errors.PositionError` (the one-line error
users see) is the only exception allowed; anything else stops the run with the input that caused it.

    pip install -e '.[fuzz]'
    mkdir -p fuzz-work && python scripts/fuzz/readers.py fuzz-work scripts/fuzz/corpus \\
        -dict=scripts/fuzz/readers.dict -max_total_time=900 -timeout=10 -rss_limit_mb=2048

libFuzzer writes the inputs it finds to the first directory, so the committed seeds in
``scripts/fuzz/corpus`` stay as they are.
"""

from __future__ import annotations

import contextlib
import sys

import atheris

with atheris.instrument_imports(include=["chickenfoot"]):
    from chickenfoot.errors import PositionError
    from chickenfoot.match import Match
    from chickenfoot.position import read_position
    from chickenfoot.reading import decode
    from chickenfoot.tui.session import Session


def test_one_input(data: bytes) -> None:
    try:
        text = decode(data, "the input")
    except PositionError:
        return
    for reader in (read_position, Match.loads, Session.loads):
        with contextlib.suppress(PositionError):
            reader(text)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
