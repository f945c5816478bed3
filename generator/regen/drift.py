"""Is a project up to date with its manifest? The rules of ``panelforge check``.

By default ``check`` answers the CI question: would regenerating change anything? A
file fails it when

- ``missing``: a file the manifest generates is not there (a new migration included);
- ``outdated``: regenerating would change a generated or shared file (the manifest or
  panelforge moved on), or ``.panelforge/`` would record something else;
- ``conflict``: a file holds conflict markers (``<<<<<<< yours``) left to resolve;
- ``extra``: a file panelforge generated before that the manifest no longer makes;
- ``invalid``: an edited spec (``oag.yaml``/``oag.json``) does not validate, or its
  two files disagree;
- ``leftover``: a temporary file or folder an interrupted run left in or beside DEST
  (:mod:`generator.regen.recovery`; the next ``generate`` removes it).

An edit of a generated file that regenerating keeps (the generator's side has not
changed since: merged before, or made since) is ``edited``: listed, not a failure.
Edits of shared files (``pyproject.toml``…) and extension points (``app/hooks/*.py``)
are expected and not listed; written migrations may be adjusted by hand.

``strict`` is the older, stricter meaning: any edit of a generated file is
``modified`` and fails. Pure: the caller reads DEST.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from ..model import ir
from ..render.output import Output
from .changes import FileChange
from .merge import has_conflict_markers
from .state import MERGED_OWNERS, STATE_DIR, State

Kind = Literal[
    "missing",
    "outdated",
    "conflict",
    "extra",
    "invalid",
    "leftover",
    "modified",
    "edited",
]
INFORMATION: frozenset[Kind] = frozenset({"edited"})  # listed, never failing
_CONFLICT_NOTE = "conflict markers: resolve them"


@dataclass(frozen=True)
class Drift:
    """One way DEST differs from what the manifest generates."""

    path: str
    kind: Kind
    note: str = ""

    @property
    def fails(self) -> bool:
        """Whether it makes the project out of date (else it is information)."""
        return self.kind not in INFORMATION


@dataclass(frozen=True)
class CheckReport:
    """The outcome of ``panelforge check``: up to date when no drift fails."""

    project: ir.Project
    drift: tuple[Drift, ...]
    notes: tuple[str, ...] = ()  # worth saying even when DEST is up to date

    @property
    def problems(self) -> tuple[Drift, ...]:
        """What makes DEST out of date."""
        return tuple(d for d in self.drift if d.fails)

    @property
    def edits(self) -> tuple[Drift, ...]:
        """Edits of generated files that regenerating keeps (information)."""
        return tuple(d for d in self.drift if not d.fails)

    @property
    def ok(self) -> bool:
        """Whether regenerating DEST would change nothing."""
        return not self.problems


def _merged_drift(
    path: str,
    owner: str,
    ours: bytes,
    base: bytes | None,
    theirs: bytes,
    strict: bool,
) -> Drift | None:
    """A generated or shared file that is there (conflict markers found before)."""
    if ours == theirs:
        return None
    if owner == "shared":  # yours to adapt: only the generator's changes count
        if theirs == base:
            return None
        return Drift(path, "outdated", "regenerate to merge the generator's change")
    if strict:
        return Drift(path, "modified")
    if theirs == base:
        return Drift(path, "edited", "your edit: regenerating keeps it")
    if ours == base:
        return Drift(path, "outdated", "regenerating changes it")
    return Drift(path, "outdated", "regenerating merges the change into your edit")


def _history_drift(path: str, ours: bytes | None, state: State) -> Drift | None:
    if ours is not None:
        return None
    if path in state.migrations:
        return Drift(path, "missing", "a migration written before was deleted")
    return Drift(path, "missing", "the tables changed since the last generation")


def _output_drift(
    output: Output,
    state: State,
    current: Mapping[str, bytes | None],
    base: Mapping[str, bytes],
    strict: bool,
) -> Iterator[Drift | None]:
    for path, theirs in output.files.items():
        owner = output.owners[path]
        ours = current.get(path)
        if ours is not None and has_conflict_markers(ours):
            yield Drift(path, "conflict", _CONFLICT_NOTE)
        elif owner in MERGED_OWNERS and ours is None:
            yield Drift(path, "missing")
        elif owner in MERGED_OWNERS:
            yield _merged_drift(path, owner, ours, base.get(path), theirs, strict)
        elif owner == "history":
            yield _history_drift(path, ours, state)
        elif ours is None:
            yield Drift(path, "missing", "an extension point")


def find_drift(
    output: Output,
    state: State,
    current: Mapping[str, bytes | None],
    base: Mapping[str, bytes],
    internal: Sequence[FileChange] = (),
    *,
    strict: bool = False,
) -> list[Drift]:
    """Every drifted file, by path; ``internal``: pending ``.panelforge/`` writes."""
    drift = list(_output_drift(output, state, current, base, strict))
    for path in state.migrations:
        if path not in output.files and current.get(path) is None:
            drift.append(Drift(path, "missing", "a migration written before"))
    for path, owner in state.owners.items():
        if owner in MERGED_OWNERS and path not in output.files and current.get(path):
            drift.append(Drift(path, "extra", "the manifest no longer generates it"))
    if internal:
        drift.append(Drift(f"{STATE_DIR}/", "outdated", "the recorded state differs"))
    return sorted((d for d in drift if d is not None), key=lambda d: d.path)


def spec_drift(
    project: ir.Project, output: Output, current: Mapping[str, bytes | None]
) -> list[Drift]:
    """``invalid`` when ``project``'s spec files in DEST, edited, do not validate or
    do not agree (unedited, they are the output, validated when it was built)."""
    yaml_path = PurePosixPath(project.docs.path)
    paths = (str(yaml_path), str(yaml_path.with_suffix(".json")))
    texts = [current.get(path) for path in paths]
    if None in texts or all(current[p] == output.files.get(p) for p in paths):
        return []
    problems = _spec_problems(*(t.decode("utf-8", "replace") for t in texts if t))
    if not problems:
        return []
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return [Drift(path, "invalid", problems[0] + more) for path in paths]


def _spec_problems(yaml_text: str, json_text: str) -> list[str]:
    from ..errors import SpecError
    from ..spec.validate import check_spec_pair, spec_problems

    try:
        check_spec_pair(yaml_text, json_text)
    except SpecError as exc:  # "the … differ:" and the differences, one a line
        first, *rest = exc.message.splitlines()
        return [first.rstrip(":") + "".join(f": {r.strip(' -')}" for r in rest[:1])]
    doc = json.loads(json_text)
    if not isinstance(doc, dict):
        return ["the spec is not an OpenAPI document"]
    return spec_problems(doc)
