"""Pinned outside tools the tests install once and keep: a cache folder per tool set.

The folder is ``PANELFORGE_CLIENTS_CACHE``, else ``~/.cache/panelforge-tests``; the
package registries are the only network the tests use, and only the first time.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CACHE = Path(
    os.environ.get("PANELFORGE_CLIENTS_CACHE")
    or Path.home() / ".cache" / "panelforge-tests"
)


@contextmanager
def installing(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock while it is checked and installed: two pytest workers
    (or two runs) installing into one cache folder at once would break it."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{folder.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def npm_packages(packages: tuple[str, ...]) -> Path:
    """A folder whose ``node_modules`` holds the pinned ``packages``, installed once."""
    folder = CACHE / ("npm-" + "-".join(p.replace("/", "_") for p in packages))
    done = folder / ".installed"
    with installing(folder):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a broken earlier install
            folder.mkdir(parents=True)
            (folder / "package.json").write_text('{"private": true}\n')
            subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--silent"]
                + list(packages),
                cwd=folder,
                check=True,
            )
            done.write_text("\n".join(packages))
    return folder
