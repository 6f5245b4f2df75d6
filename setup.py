"""Build the compiled core where a C compiler is present; install without it otherwise.

The compiled core is two extensions: the engine (``chickenfoot._engine``, twin of ``round.py`` and
``layout.py``) and the search on it (``chickenfoot.bots._search``), which cimports the engine's C types
from ``_engine.pxd``. Everything else about the package is in ``pyproject.toml``. Without a compiler, or
with ``CHICKENFOOT_PURE=1`` set at build time, the install still succeeds and the pure-Python engine runs.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` that warns instead of failing: the compiled core is an accelerator, not a requirement."""

    failed = False

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, missing headers: every failure means "pure Python"
            self.warn_pure(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self.warn_pure(exc)

    def warn_pure(self, exc: BaseException) -> None:
        if not self.failed:  # once: a failed compile also fails the copy that follows it
            warn_pure(exc)
        self.failed = True


def warn_pure(reason: object) -> None:
    print(f"warning: the compiled core was not built ({reason}); chickenfoot runs on pure Python", file=sys.stderr)


def extensions() -> list[Extension]:
    if os.environ.get("CHICKENFOOT_PURE") == "1":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # only without build isolation: pip itself installs Cython (build-system requires)
        warn_pure("Cython is not installed")
        return []
    return cythonize(
        [
            Extension("chickenfoot._engine", ["src/chickenfoot/_engine.pyx"]),
            Extension("chickenfoot.bots._search", ["src/chickenfoot/bots/_search.pyx"]),
        ],
        include_path=["src"],  # where the search finds chickenfoot/_engine.pxd
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
