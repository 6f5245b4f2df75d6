"""What a log line belongs to: the request and the table of the work that logs it.

Kept apart from :mod:`.logs` (which formats the lines and reads the requests' headers) because it
imports nothing: the table gives its own tasks their table's context without importing the web stack.
"""

from __future__ import annotations

from contextvars import Context as TaskContext
from contextvars import ContextVar, copy_context

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
table_code: ContextVar[str | None] = ContextVar("table_code", default=None)


def context_of_table(code: str) -> TaskContext:
    """A context for a task doing table ``code``'s own work: the lines it logs belong to that table."""
    context = copy_context()
    context.run(table_code.set, code)
    return context
