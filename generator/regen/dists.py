"""Installed distributions, found by their ``.dist-info`` folders on ``sys.path``.

A no-op regeneration needs the versions of panelforge and the tools it runs, and
where panelforge was installed from (PEP 610 ``direct_url.json``). Importing
``importlib.metadata`` and parsing each ``METADATA`` file costs such a run ~30 ms of
its ~200; the folder's name holds the version already (``{name}-{version}.dist-info``,
the name normalized: the binary distribution format, PEP 427 and PEP 491). The first
folder on ``sys.path`` wins, as for ``importlib.metadata``; a distribution without
one (an ``.egg-info`` install, say) is asked of ``importlib.metadata``.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_SUFFIX = ".dist-info"


@dataclass(frozen=True)
class Distribution:
    """An installed distribution: its name, version and ``.dist-info`` folder."""

    name: str
    version: str
    folder: Path | None  # None: found by importlib.metadata, not by its folder

    def read_text(self, file: str) -> str | None:
        """The text of the metadata file ``file``, if there is one."""
        if self.folder is None:
            return _metadata_text(self.name, file)
        try:
            return (self.folder / file).read_text(encoding="utf-8")
        except OSError:
            return None


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _folders() -> dict[str, tuple[str, Path]]:
    """``normalized name → (version, folder)`` of the ``.dist-info`` folders on
    ``sys.path``, the first of each name."""
    found: dict[str, tuple[str, Path]] = {}
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as entries:
                names = [e.name for e in entries if e.name.endswith(_SUFFIX)]
        except OSError:
            continue
        for folder in sorted(names):
            name, _, version = folder[: -len(_SUFFIX)].partition("-")
            if version:
                found.setdefault(normalized(name), (version, Path(entry, folder)))
    return found


def distribution(name: str) -> Distribution | None:
    """The installed distribution ``name``; ``None`` when it is not installed."""
    if (known := _folders().get(normalized(name))) is not None:
        return Distribution(name, known[0], known[1])
    from importlib.metadata import PackageNotFoundError, version

    try:
        return Distribution(name, version(name), None)
    except PackageNotFoundError:
        return None


def _metadata_text(name: str, file: str) -> str | None:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import distribution as find

    try:
        return find(name).read_text(file)
    except PackageNotFoundError:
        return None
