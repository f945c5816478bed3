"""What a project was generated from, recorded in the project itself (``.panelforge/``).

::

    .panelforge/state.json      format, generator version, manifest name and hash,
                                every file's owner (and the hash of what was emitted),
                                the migrations written so far, the normalised IR
    .panelforge/manifest.yaml   the manifest itself, byte for byte
    .panelforge/base/<path>     the last generated text of every generated or shared
                                file that can be merged (text up to 256 KiB, not
                                minified; bundled assets are recognised by their hash
                                instead): the merge base of the next regeneration
    .panelforge/README.md       what the folder is

Everything is committed with the project, so a fresh clone or CI can regenerate and
check. The JSON has sorted keys and no timestamps: the same inputs give the same bytes.

A regeneration with nothing to do is recognised from this record alone
(:func:`as_recorded`), once a run of the same panelforge (:func:`source_fingerprint`)
is known to have left exactly this state from the same manifest (:func:`run_key`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import OutputError
from ..model import ir
from ..model.irdata import project_from_data, project_to_data
from ..render.output import Owner
from .dists import distribution
from .install import InstallSource, install_source
from .jsontext import dumps_sorted
from .merge import has_conflict_markers, is_mergeable

FORMAT = 1
STATE_DIR = ".panelforge"
STATE_FILE = f"{STATE_DIR}/state.json"
MANIFEST_COPY = f"{STATE_DIR}/manifest.yaml"
BASE_DIR = f"{STATE_DIR}/base"
README = f"{STATE_DIR}/README.md"

MERGED_OWNERS: tuple[Owner, ...] = ("generated", "shared")  # with a merge base

_README_TEXT = """\
# .panelforge

panelforge keeps here what this project was generated from, so `panelforge generate`
can update it in place (merging your edits) and `panelforge check` can tell whether
it still matches its manifest. Commit this folder; do not edit it.

- `state.json`: generator version and where it was installed from (`install`: CI
  installs the same one), manifest hash, the owner of every file, the migrations
  written so far, and the project as panelforge understood it (its `database` file
  and `jwt_issuer` stay as first recorded unless the manifest sets them).
- `manifest.yaml`: the manifest, byte for byte.
- `base/`: the last generated version of each generated text file (the merge base).
"""


def sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


@cache
def generator_version() -> str:
    """The installed panelforge's version."""
    found = distribution("panelforge")
    return found.version if found is not None else "0+unknown"  # a bare checkout


_TOOLS = ("black", "copier", "jinja2", "pyyaml")


@cache
def source_fingerprint() -> str:
    """SHA-256 of what shapes a project besides the manifest and the arguments.

    panelforge's code, templates and specs byte by byte (so an edited checkout counts
    as another version), and the versions of the tools it runs.
    """
    from ..paths import specs_dir, templates_root

    digest = hashlib.sha256(generator_version().encode())
    digest.update(f"\0{install_source().requirement or 'local'}".encode())
    for tool in _TOOLS:
        found = distribution(tool)
        digest.update(f"\0{tool} {found.version if found else '-'}".encode())
    package = Path(__file__).resolve().parents[1]  # all of generator/
    roots = (package, templates_root(), specs_dir())
    for root in dict.fromkeys(roots):
        for name, path in _files_under(os.fspath(root)):
            digest.update(f"\0{name}\0".encode())
            digest.update(hashlib.sha256(Path(path).read_bytes()).digest())
    return digest.hexdigest()


def _files_under(
    root: str, *, every: bool = False, prefix: str = ""
) -> list[tuple[str, str]]:
    """``(relative posix name, path)`` of the files under ``root``, sorted by name:
    regular ones but ``.pyc``, or with ``every`` anything that is not a folder.

    Symbolic links to folders are not followed, as ``rglob`` does not; scandir's
    entries cost far less than ``rglob``'s paths, which cost more than the hashing.
    """
    found = []
    with os.scandir(root) as entries:
        for entry in entries:
            name = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                found += _files_under(entry.path, every=every, prefix=name + "/")
            elif every or (entry.is_file() and not name.endswith(".pyc")):
                found.append((name, entry.path))
    return sorted(found)


def run_key(state_json: bytes, manifest: bytes, options: str) -> str:
    """What names a run: this panelforge, its options, its manifest, the state left."""
    parts = (source_fingerprint(), options, sha256(manifest), sha256(state_json))
    return sha256("\0".join(parts).encode())


@dataclass(frozen=True)
class State:
    """The recorded facts of one generation."""

    project: ir.Project
    manifest_name: str
    manifest_sha256: str
    owners: Mapping[str, Owner]  # every file panelforge wrote, history excepted
    hashes: Mapping[str, str]  # generated and shared files: SHA-256 of the output
    migrations: tuple[str, ...]  # history files, in the order they were written
    generator_version: str = ""
    install: InstallSource | None = None  # None: recorded before panelforge kept it

    def to_json(self) -> str:
        """The ``state.json`` text."""
        files: dict[str, dict[str, str]] = {}
        for path, owner in self.owners.items():
            entry: dict[str, str] = {"owner": owner}
            if path in self.hashes:
                entry["sha256"] = self.hashes[path]
            files[path] = entry
        data = {
            "format": FORMAT,
            "generator": {"name": "panelforge", "version": self.generator_version},
            **({"install": self.install.to_data()} if self.install else {}),
            "manifest": {
                "file": self.manifest_name,
                "copy": MANIFEST_COPY,
                "sha256": self.manifest_sha256,
            },
            "files": files,
            "migrations": list(self.migrations),
            "project": project_to_data(self.project),
        }
        return dumps_sorted(data) + "\n"


def state_from_json(text: str) -> State:
    """Parse ``state.json``; raises ``ValueError`` (or ``KeyError``) when damaged."""
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown format {data.get('format')!r}")
    files: dict[str, Any] = data["files"]
    return State(
        project=project_from_data(data["project"]),
        manifest_name=data["manifest"]["file"],
        manifest_sha256=data["manifest"]["sha256"],
        owners={p: e["owner"] for p, e in files.items()},
        hashes={p: e["sha256"] for p, e in files.items() if "sha256" in e},
        migrations=tuple(data["migrations"]),
        generator_version=data["generator"]["version"],
        install=InstallSource.from_data(data.get("install")),
    )


def state_files(
    state: State, base: Mapping[str, bytes], manifest: bytes
) -> dict[str, bytes]:
    """Every file of ``.panelforge/``: the state, the manifest copy, the base mirror."""
    files = {
        STATE_FILE: state.to_json().encode("utf-8"),
        MANIFEST_COPY: manifest,
        README: _README_TEXT.encode("utf-8"),
    }
    for path, data in base.items():
        files[f"{BASE_DIR}/{path}"] = data
    return files


def has_state(dest: Path) -> bool:
    """Whether ``dest`` is a project panelforge generated (it has a state file)."""
    return (dest / STATE_FILE).is_file()


_last_read: list[tuple[bytes, State]] = []  # the last state parsed, by its bytes


def parse_state(data: bytes) -> State:
    """``state_from_json`` of ``data``, parsed once however often a run reads it."""
    if _last_read and _last_read[0][0] == data:
        return _last_read[0][1]
    state = state_from_json(data.decode("utf-8"))
    _last_read[:] = [(data, state)]
    return state


def read_state(dest: Path) -> State:
    """The state recorded in ``dest``; a damaged file is an :class:`OutputError`."""
    path = dest / STATE_FILE
    try:
        return parse_state(path.read_bytes())
    except OSError as exc:
        raise OutputError(f"cannot read '{path}': {exc.strerror}") from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise OutputError(
            f"'{path}' is damaged ({exc}); restore it from version control, "
            "or regenerate with --force (your edits are then replaced)"
        ) from exc


def read_base(dest: Path, state: State) -> dict[str, bytes]:
    """The recorded merge bases whose content still matches the recorded hash."""
    base = {}
    for path, digest in state.hashes.items():
        try:
            data = (dest / BASE_DIR / path).read_bytes()
        except OSError:
            continue
        if sha256(data) == digest:
            base[path] = data
    return base


def _as_generated(
    ours: bytes, digest: str, mirror: bytes | None
) -> tuple[bool, bool] | None:
    """(unedited, mirrored) for a merged file as a no-op regeneration leaves it.

    ``None`` when that regeneration would change it or its mirror: an unedited file
    must be mirrored exactly when it can be merged; an edited one (then left alone)
    needs its intact mirror, and no conflict markers.
    """
    if sha256(ours) == digest:
        mirrored = is_mergeable(ours)
        return (True, mirrored) if mirror == (ours if mirrored else None) else None
    if mirror is None or sha256(mirror) != digest or not is_mergeable(mirror):
        return None
    return None if has_conflict_markers(ours) else (False, True)


def _mirrors_as_recorded(dest: Path, state: State) -> set[str] | None:
    """The mirrors a no-op run keeps, if it leaves every recorded file as it is."""
    mirrors = set()
    for path, owner in state.owners.items():
        if owner not in MERGED_OWNERS:
            if not (dest / path).is_file():
                return None
            continue
        try:
            ours = (dest / path).read_bytes()
        except OSError:
            return None
        try:
            mirror: bytes | None = (dest / BASE_DIR / path).read_bytes()
        except OSError:
            mirror = None
        digest = state.hashes.get(path)
        found = None if digest is None else _as_generated(ours, digest, mirror)
        if found is None:
            return None
        if found[1]:
            mirrors.add(f"{BASE_DIR}/{path}")
    return mirrors


def as_recorded(dest: Path, state: State, manifest: bytes) -> bool:
    """Whether ``dest`` is what regenerating it from ``state``'s own inputs leaves.

    Every recorded file is there; generated and shared ones hold what was generated
    (or the user's edits, which such a run keeps); ``.panelforge/`` holds exactly the
    manifest copy, the README, the state and the mirror of each mergeable file.
    """
    mirrors = _mirrors_as_recorded(dest, state)
    if mirrors is None:
        return False
    try:
        if (dest / MANIFEST_COPY).read_bytes() != manifest:
            return False
        if (dest / README).read_bytes() != _README_TEXT.encode("utf-8"):
            return False
    except OSError:
        return False
    try:
        found = _files_under(os.fspath(dest / STATE_DIR), every=True)
    except OSError:
        return False
    present = {f"{STATE_DIR}/{name}" for name, _path in found}
    return present == {STATE_FILE, MANIFEST_COPY, README, *mirrors}
