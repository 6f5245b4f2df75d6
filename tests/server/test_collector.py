"""The garbage collector's settings and the log of its pauses (``chickenfoot serve --gc-log``)."""

from __future__ import annotations

import gc
import io
import time
from pathlib import Path

from chickenfoot.server import collector


def test_every_collection_is_logged_with_its_generation_until_the_log_is_stopped() -> None:
    out = io.StringIO()
    stop = collector.log_pauses(out)
    try:
        before = time.time()
        gc.collect(2)
        gc.collect(0)
        after = time.time()
    finally:
        stop()
    gc.collect(1)  # after the stop: not logged
    lines = [line.split() for line in out.getvalue().splitlines()]
    assert [generation for _, generation, _ in lines] == ["2", "0"]
    for ended, _, pause in lines:
        assert before <= float(ended) <= after + 1 and 0 <= float(pause) < 1000 * (after - before) + 1


def test_pauses_are_summarised_per_generation_within_the_window(tmp_path: Path) -> None:
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text("100.0 0 1.5\n105.0 0 2.5\n110.0 1 9.0\n200.0 2 400.0\n")
    second.write_text("101.0 0 3.5\n99.0 2 300.0\n")
    summary = collector.pauses([first, second], since=100.0, until=150.0)
    assert summary == {
        "0": {"count": 3, "p50_ms": 2.5, "p99_ms": 3.5, "max_ms": 3.5},
        "1": {"count": 1, "p50_ms": 9.0, "p99_ms": 9.0, "max_ms": 9.0},
    }


def test_tuning_keeps_collections_short_and_start_up_objects_out_of_them() -> None:
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        collector.tune()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
