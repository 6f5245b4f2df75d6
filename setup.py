"""Build the compiled core (``chickenfoot._core``) where a C compiler is present; install without it otherwise.

Everything else about the package is in ``pyproject.toml``. Without a compiler, or with
``CHICKENFOOT_PURE=1`` set at build time, the install still succeeds and the pure-Python engine runs.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` that warns instead of failing: the compiled core is an accelerator, not a requirement."""

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

    @staticmethod
    def warn_pure(exc: BaseException) -> None:
        print(f"warning: the compiled core was not built ({exc}); chickenfoot runs on pure Python", file=sys.stderr)


def extensions() -> list[Extension]:
    if os.environ.get("CHICKENFOOT_PURE") == "1":
        return []
    from Cython.Build import cythonize

    core = Extension(
        "chickenfoot._core", ["src/chickenfoot/_core.pyx"], extra_compile_args=[] if os.name == "nt" else ["-O3"]
    )
    return cythonize([core], compiler_directives={"language_level": "3"})


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
