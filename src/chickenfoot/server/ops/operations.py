"""The operator's parts of a server process, installed by the application: the health endpoints always,
the metrics when a metrics port is given."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import FastAPI

from chickenfoot.server.clock import Clock
from chickenfoot.server.ops.health import HealthEndpoints, Readiness
from chickenfoot.server.ops.logs import LogContext
from chickenfoot.server.ops.metrics import Instrumented, Metrics, Readings


@dataclass(slots=True)
class Operations:
    readiness: Readiness
    metrics: Metrics | None
    metrics_port: int | None

    @classmethod
    def of(
        cls, database_url: str, redis_url: str | None, metrics_port: int | None, readings: Readings, clock: Clock
    ) -> Operations:
        metrics = None if metrics_port is None else Metrics(readings, clock)
        return cls(Readiness(database_url, redis_url, clock), metrics, metrics_port)

    def install(self, app: FastAPI) -> None:
        """Add the middleware, outside all the application's own (added last: the outermost)."""
        if self.metrics is not None and self.metrics_port is not None:
            app.add_middleware(Instrumented, metrics=self.metrics, metrics_port=self.metrics_port)
        app.add_middleware(HealthEndpoints, readiness=self.readiness)
        app.add_middleware(LogContext)

    def start(self) -> None:
        self.readiness.start()
        if self.metrics is not None:
            self.metrics.start()

    async def stop(self) -> None:
        if self.metrics is not None:
            await self.metrics.stop()
        await self.readiness.close()
