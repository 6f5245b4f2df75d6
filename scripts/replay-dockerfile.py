"""Replay deploy/Dockerfile's build steps in virtual environments, where containers cannot run.

Each stage gets a fresh venv standing in for its ``python`` base image; every absolute path the file
names (``WORKDIR``, ``COPY`` destinations, ``VOLUME``s, paths in ``RUN``) lives under one temporary
root; ``COPY`` takes the repository's files (so a file the build needs but the Dockerfile does not
copy fails here as it fails in Docker), ``COPY --from`` the earlier stage's. Steps that need the
image's operating system are skipped and named: ``apt-get`` (its tools are expected on this machine)
and ``chown`` (users). Everything else runs, ``pip`` included, and the first failure stops the replay.

    python scripts/replay-dockerfile.py [--dockerfile deploy/Dockerfile] [--keep]

Prints each step; exits 1 naming the failed one. The image's ``CMD`` is printed last, as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = ("apt-get ", "chown ", "rm -rf /var/lib/apt")
"""Shell commands of the image's operating system, not of the build."""


def instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined, comments dropped), as (NAME, arguments)."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    found = []
    for line in joined.splitlines():
        if line.strip():
            name, _, rest = line.strip().partition(" ")
            found.append((name.upper(), rest.strip()))
    return found


class Replay:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: set[str] = set()
        """Absolute paths of the image seen so far, mapped under ``root``."""
        self.stage = 0
        self.env: dict[str, str] = {}
        self.workdir = "/"

    def image(self, path: str) -> Path:
        return self.root / "fs" / path.lstrip("/")

    def mapped(self, command: str) -> str:
        """``command`` with every known image path moved under the root (longest first)."""
        for path in sorted(self.paths, key=len, reverse=True):
            command = re.sub(rf"(?<![\w/]){re.escape(path)}(?![\w-])", str(self.image(path)), command)
        return command

    def know(self, path: str) -> None:
        if path.startswith("/") and path != "/":
            self.paths.add(path.rstrip("/"))

    def from_(self, _arguments: str) -> None:
        self.stage += 1
        environment = self.root / f"stage{self.stage}"
        venv.create(environment, with_pip=True, clear=True)
        bin_dir = environment / "bin"
        self.env = {**os.environ, "VIRTUAL_ENV": str(environment), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        self.env.pop("PYTHONPATH", None)
        self.workdir = "/"

    def workdir_(self, path: str) -> None:
        self.workdir = path if path.startswith("/") else f"{self.workdir.rstrip('/')}/{path}"
        self.know(self.workdir)
        self.image(self.workdir).mkdir(parents=True, exist_ok=True)

    def copy(self, arguments: str) -> None:
        words = shlex.split(arguments)
        options = [w for w in words if w.startswith("--")]
        *sources, target = [w for w in words if not w.startswith("--")]
        from_stage = any(option.startswith("--from=") for option in options)
        destination = target if target.startswith("/") else f"{self.workdir.rstrip('/')}/{target}"
        self.know(destination)
        into = self.image(destination)
        for source in sources:
            origin = self.image(source) if from_stage else ROOT / source
            if not origin.exists():
                raise FileNotFoundError(f"COPY {source}: no such file")
            if origin.resolve() == into.resolve():
                continue  # one root holds every stage's files
            if origin.is_dir():
                shutil.copytree(origin, into if len(sources) == 1 else into / origin.name, dirs_exist_ok=True)
            else:
                file = into / origin.name if target.endswith("/") else into
                file.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, file)

    def run(self, command: str) -> None:
        for path in re.findall(r"(?<![\w:/])/[\w.-]+(?:/[\w.-]+)*", command):
            if not path.startswith(("/var/lib/apt", "/usr", "/bin", "/etc", "/dev")):
                self.know(path)
        for part in (p.strip() for p in command.split("&&")):
            if part.startswith(SKIPPED):
                print(f"  skipped (the image's system): {part}")
                continue
            print(f"  $ {part}")
            cwd = self.image(self.workdir)
            cwd.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(["bash", "-o", "pipefail", "-c", self.mapped(part)], cwd=cwd, env=self.env)
            if done.returncode != 0:
                raise RuntimeError(f"RUN {part}: exit status {done.returncode}")

    def volume(self, arguments: str) -> None:
        for path in json.loads(arguments) if arguments.startswith("[") else arguments.split():
            self.know(path)
            self.image(path).mkdir(parents=True, exist_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dockerfile", type=Path, default=ROOT / "deploy" / "Dockerfile")
    parser.add_argument("--keep", action="store_true", help="keep the temporary root (its path is printed)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="chickenfoot-dockerfile-"))
    replay = Replay(root)
    command: list[str] = []
    try:
        for name, arguments in instructions(args.dockerfile.read_text()):
            print(f"{name} {arguments}", flush=True)
            if name == "FROM":
                replay.from_(arguments)
            elif name == "WORKDIR":
                replay.workdir_(arguments)
            elif name == "COPY":
                replay.copy(arguments)
            elif name == "RUN":
                replay.run(arguments)
            elif name == "VOLUME":
                replay.volume(arguments)
            elif name == "ENV":
                key, _, value = arguments.partition("=")
                replay.env[key.strip()] = value.strip().strip('"')
            elif name == "CMD":
                command = json.loads(arguments)
            elif name not in ("USER", "EXPOSE", "LABEL", "ARG"):
                raise RuntimeError(f"{name}: not an instruction this replay knows")
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"replay-dockerfile: {exc}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
