"""Regeneration's pure parts: the merge, the state file, each file's fate, drift."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import EXAMPLES

from generator import errors
from generator.manifest.load import load_manifest
from generator.model.irdata import project_from_data, project_to_data
from generator.regen.changes import (
    bookkeeping,
    decide_changes,
    merge_bases,
    next_state,
)
from generator.regen.drift import find_drift, spec_drift
from generator.regen.merge import has_conflict_markers, merge_three_way
from generator.regen.state import State, sha256, state_files, state_from_json
from generator.render.journal import apply_changes
from generator.render.output import Output
from generator.spec.openapi import build_spec, dump_spec

BASE = b"one\ntwo\nthree\nfour\nfive\n"


def library():
    return load_manifest(next(p for p in EXAMPLES if p.stem == "library"))


# --- merge ----------------------------------------------------------------------------


def test_merge_keeps_both_sides_changes() -> None:
    ours = BASE.replace(b"one", b"ONE")
    theirs = BASE.replace(b"five", b"FIVE")
    result = merge_three_way(BASE, ours, theirs)
    assert result.conflicts == 0
    assert result.data == b"ONE\ntwo\nthree\nfour\nFIVE\n"


def test_merge_marks_the_same_line_changed_twice() -> None:
    result = merge_three_way(
        BASE, BASE.replace(b"three", b"mine"), BASE.replace(b"three", b"new")
    )
    assert result.conflicts == 1
    assert result.data == (
        b"one\ntwo\n<<<<<<< yours\nmine\n=======\nnew\n>>>>>>> generated\nfour\nfive\n"
    )
    assert has_conflict_markers(result.data)
    assert not has_conflict_markers(BASE + b"a <<<<<<< b\n")


def test_merge_without_git_says_so(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(errors.OutputError, match="needs git"):
        merge_three_way(BASE, BASE + b"a\n", b"b\n" + BASE)
    # No merge needed, no git needed.
    assert merge_three_way(BASE, BASE, b"new\n").data == b"new\n"


# --- state ----------------------------------------------------------------------------


def _state(project, **changes) -> State:
    values = {
        "project": project,
        "manifest_name": "library.yaml",
        "manifest_sha256": "0" * 64,
        "owners": {"a.py": "generated", "app/hooks/x.py": "user"},
        "hashes": {"a.py": "1" * 64},
        "migrations": ("migrations/versions/0001_initial.py",),
        "generator_version": "9.9",
    }
    values.update(changes)
    return State(**values)


def test_state_round_trips_and_is_deterministic() -> None:
    project = library()
    assert (
        project_from_data(json.loads(json.dumps(project_to_data(project)))) == project
    )
    state = _state(project)
    text = state.to_json()
    assert state_from_json(text) == state
    assert text == _state(project).to_json()
    data = json.loads(text)
    assert data["format"] == 1 and data["generator"]["version"] == "9.9"
    assert list(data) == sorted(data)


def test_state_files_mirror_the_base() -> None:
    files = state_files(_state(library()), {"a.py": b"x"}, b"manifest")
    assert files[".panelforge/base/a.py"] == b"x"
    assert files[".panelforge/manifest.yaml"] == b"manifest"
    assert set(files) == {
        ".panelforge/state.json",
        ".panelforge/manifest.yaml",
        ".panelforge/README.md",
        ".panelforge/base/a.py",
    }


@pytest.mark.parametrize("text", ["{", '{"format": 2}', '{"format": 1}'])
def test_damaged_state_is_refused(text: str) -> None:
    with pytest.raises((ValueError, KeyError)):
        state_from_json(text)


# --- what each file becomes -----------------------------------------------------------


def _output(**files: tuple[bytes, str]) -> Output:
    output = Output()
    for path, (data, owner) in files.items():
        output.add(path.replace("__", "/"), data, owner)  # type: ignore[arg-type]
    return output


def _decide(output, current, base, owners=None, migrations=()):
    state = _state(library(), owners=owners or {}, migrations=migrations)
    return {c.path: c for c in decide_changes(output, state, current, base)}


def test_each_owner_and_case() -> None:
    new = b"new\n"
    output = _output(
        fresh=(new, "generated"),
        same=(new, "generated"),
        untouched=(new, "generated"),
        kept_edit=(b"base\n", "generated"),
        conflicting=(b"theirs\n", "generated"),
        hook=(b"template\n", "user"),
        new_hook=(b"template\n", "user"),
        mig=(b"initial v2\n", "history"),
        new_mig=(b"step\n", "history"),
    )
    current = {
        "same": new,
        "untouched": b"base\n",
        "kept_edit": b"mine\n",
        "conflicting": b"mine\n",
        "hook": b"my hook\n",
        "mig": b"initial v1\n",
        "gone": b"base\n",
        "gone_edited": b"mine\n",
        "old_hook": b"my hook\n",
    }
    base = {p: b"base\n" for p in current if p not in {"hook", "old_hook", "mig"}}
    owners = {
        "gone": "generated",
        "gone_edited": "shared",
        "old_hook": "user",
        "same": "generated",
    }
    changes = _decide(output, current, base, owners, ("mig",))
    status = {p: c.status for p, c in changes.items()}
    assert status == {
        "fresh": "added",
        "same": "unchanged",
        "untouched": "updated",
        "kept_edit": "unchanged",
        "conflicting": "conflict",
        "hook": "unchanged",
        "new_hook": "added",
        "mig": "unchanged",
        "new_mig": "added",
        "gone": "removed",
        "gone_edited": "conflict",
        "old_hook": "kept",
    }
    assert changes["conflicting"].after is not None
    assert b"<<<<<<< yours\nmine\n" in changes["conflicting"].after
    assert changes["gone_edited"].after is None  # kept as the user has it
    assert changes["hook"].after is None and changes["mig"].after is None


def test_unknown_file_in_the_way_is_a_conflict_not_an_overwrite() -> None:
    changes = _decide(_output(x=(b"generated\n", "generated")), {"x": b"mine\n"}, {})
    assert changes["x"].status == "conflict"
    assert b"mine" in changes["x"].after and b"generated" in changes["x"].after


def test_binary_edits_on_both_sides_keep_yours() -> None:
    changes = _decide(
        _output(img=(b"\0new", "generated")), {"img": b"\0mine"}, {"img": b"\0base"}
    )
    assert changes["img"].status == "conflict" and changes["img"].after is None


def test_next_state_records_history_once_and_hashes_merged_files() -> None:
    output = _output(a=(b"a", "generated"), h=(b"h", "user"), m=(b"m", "history"))
    previous = _state(library(), migrations=("old",))
    state = next_state(library(), output, b"manifest", previous, "1.0")
    assert state.migrations == ("m", "old")
    assert dict(state.owners) == {"a": "generated", "h": "user"}
    assert set(state.hashes) == {"a"}


# --- drift ----------------------------------------------------------------------------


def _drift_case() -> tuple[Output, State, dict[str, bytes | None], dict[str, bytes]]:
    output = _output(
        ok=(b"x", "generated"),
        edited=(b"x", "generated"),
        stale=(b"new", "generated"),
        both=(b"new", "generated"),
        markers=(b"x", "generated"),
        gone=(b"x", "generated"),
        shared_edit=(b"base", "shared"),
        shared_stale=(b"new", "shared"),
        hook=(b"x", "user"),
        hook_markers=(b"x", "user"),
        new_mig=(b"x", "history"),
    )
    current: dict[str, bytes | None] = {
        "ok": b"x",
        "edited": b"y",
        "stale": b"base",
        "both": b"mine",
        "markers": b"<<<<<<< yours\n",
        "shared_edit": b"mine",
        "shared_stale": b"mine",
        "hook": b"anything",
        "hook_markers": b"a\n<<<<<<< HEAD\n",
        "extra": b"x",
    }
    base = {
        "ok": b"x",
        "edited": b"x",
        "stale": b"base",
        "both": b"base",
        "markers": b"x",
        "shared_edit": b"base",
        "shared_stale": b"base",
    }
    state = _state(library(), owners={"extra": "generated"}, migrations=())
    return output, state, current, base


def test_drift_kinds_answer_whether_regenerating_changes_anything() -> None:
    output, state, current, base = _drift_case()
    found = find_drift(output, state, current, base)
    assert {(d.path, d.kind) for d in found} == {
        ("edited", "edited"),  # information: regenerating keeps the edit
        ("stale", "outdated"),
        ("both", "outdated"),
        ("markers", "conflict"),
        ("hook_markers", "conflict"),
        ("gone", "missing"),
        ("shared_stale", "outdated"),
        ("new_mig", "missing"),
        ("extra", "extra"),
    }
    assert [d.path for d in found if not d.fails] == ["edited"]


def test_strict_drift_fails_every_edit_of_a_generated_file() -> None:
    output, state, current, base = _drift_case()
    found = find_drift(output, state, current, base, strict=True)
    assert {(d.path, d.kind) for d in found} == {
        ("edited", "modified"),
        ("stale", "modified"),
        ("both", "modified"),
        ("markers", "conflict"),
        ("hook_markers", "conflict"),
        ("gone", "missing"),
        ("shared_stale", "outdated"),
        ("new_mig", "missing"),
        ("extra", "extra"),
    }
    assert all(d.fails for d in found)


def test_an_edited_spec_must_still_validate() -> None:
    project = library()
    doc = build_spec(project)
    yaml_data, json_data = dump_spec(doc)
    output = _output(
        **{
            "resources/oag.yaml": (yaml_data, "generated"),
            "resources/oag.json": (json_data, "generated"),
        }
    )
    unedited = dict(output.files)
    assert spec_drift(project, output, unedited) == []
    described = {**doc, "info": {**doc["info"], "description": "Mine."}}
    edited = dict(zip(unedited, dump_spec(described), strict=True))
    assert spec_drift(project, output, edited) == []
    broken = {**doc, "info": {"title": "no version"}}
    invalid = dict(zip(unedited, dump_spec(broken), strict=True))
    found = spec_drift(project, output, invalid)
    assert [(d.path, d.kind) for d in found] == [
        ("resources/oag.yaml", "invalid"),
        ("resources/oag.json", "invalid"),
    ]
    assert found[0].note.startswith("at info: ")  # the validator's words follow
    assert "version" in found[0].note
    apart = {**edited, "resources/oag.json": json_data}
    first, _ = spec_drift(project, output, apart)
    assert first.note.startswith("the YAML and JSON specs differ: info.description")


# --- writing in place -----------------------------------------------------------------


def test_apply_changes_writes_removes_and_leaves_the_rest(tmp_path) -> None:
    (tmp_path / "keep.txt").write_text("keep")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "gone.py").write_text("x")
    (tmp_path / "run.sh").write_text("old")
    (tmp_path / "run.sh").chmod(0o755)
    before = (tmp_path / "keep.txt").stat().st_mtime_ns
    apply_changes(tmp_path, {"new/deep/a.py": b"a", "run.sh": b"new"}, ["old/gone.py"])
    assert (tmp_path / "new" / "deep" / "a.py").read_bytes() == b"a"
    assert (tmp_path / "run.sh").read_bytes() == b"new"
    assert (tmp_path / "run.sh").stat().st_mode & 0o777 == 0o755
    assert not (tmp_path / "old").exists()
    assert (tmp_path / "keep.txt").stat().st_mtime_ns == before
    assert not [p for p in tmp_path.rglob("*") if "panelforge-" in p.name]


def test_apply_changes_failing_midway_changes_nothing(tmp_path) -> None:
    (tmp_path / "a.py").write_text("old")
    (tmp_path / "blocked").write_text("a file where a folder is needed")
    with pytest.raises(errors.OutputError):
        apply_changes(tmp_path, {"a.py": b"new", "blocked/b.py": b"b"})
    assert (tmp_path / "a.py").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "blocked"]


def test_large_assets_are_hashed_not_mirrored_and_still_updated() -> None:
    bundle = b"x" * (300 * 1024)
    minified = b"a{b:c}" * 1000
    output = _output(
        bundle=(bundle + b"v2", "generated"),
        small=(b"s\n", "generated"),
        css=(minified, "generated"),
    )
    state = next_state(library(), output, b"m", None, "1.0")
    files = bookkeeping(state, output, b"m")
    assert ".panelforge/base/small" in files
    assert ".panelforge/base/bundle" not in files
    assert ".panelforge/base/css" not in files
    recorded = _state(library(), hashes={"bundle": sha256(bundle)})
    unedited = {"bundle": bundle}
    bases = merge_bases(recorded, {}, unedited)
    assert bases == {"bundle": bundle}
    new = _output(bundle=(bundle + b"v3", "generated"))
    (change,) = decide_changes(new, recorded, unedited, bases)
    assert change.status == "updated"
    edited = {"bundle": bundle + b"mine"}
    (change,) = decide_changes(new, recorded, edited, merge_bases(recorded, {}, edited))
    assert change.status == "conflict" and change.after is None
