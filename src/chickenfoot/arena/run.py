"""Running a schedule of games in this process, in worker processes, or on a Ray cluster."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from chickenfoot.arena.games import Game, GameResult, play


def run_local(games: Sequence[Game], workers: int = 1) -> Iterator[GameResult]:
    """Results as they finish (in schedule order with one worker)."""
    if workers <= 1:
        for game in games:
            yield play(game)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, game) for game in games]
        for future in as_completed(futures):
            yield future.result()


def run_ray(games: Sequence[Game], address: str | None) -> Iterator[GameResult]:
    """The same games as Ray tasks (``address=None`` starts a local Ray)."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote_play = ray.remote(play)
    pending = [remote_play.remote(game) for game in games]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


def run(
    games: Sequence[Game],
    workers: int = 1,
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every game; ``ray_address`` (``"local"`` for a local Ray) sends them to Ray instead."""
    if ray_address is not None:
        stream = run_ray(games, None if ray_address == "local" else ray_address)
    else:
        stream = run_local(games, workers)
    results = []
    for result in stream:
        results.append(result)
        if on_result is not None:
            on_result(result)
    results.sort(key=lambda r: (r.deal, r.rotation))
    return results
