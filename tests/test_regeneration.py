"""Regenerating in place, checking for drift, and the state that makes both possible.

The scenarios with git, HTTP and real databases are in
tests/e2e/test_regeneration_scenarios.py; here: the command line's behaviour, atomicity,
ownership rules, and a property: regenerating step by step gives the project a fresh
generation gives, with a linear chain of migrations that builds the same schema.
"""

from __future__ import annotations

import ast
import copy
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from conftest import REPO, project_env, run_panelforge, tree_files
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from generator import assemble, commands, errors
from generator.regen import state
from generator.render.format import Formatter

LIBRARY = REPO / "examples" / "library.yaml"
TODO = REPO / "examples" / "todo.yaml"


def _mtimes(root: Path) -> dict[str, int]:
    return {
        p.relative_to(root).as_posix(): p.stat().st_mtime_ns
        for p in root.rglob("*")
        if p.is_file()
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "todo"
    commands.generate(TODO, dest)
    return dest


def test_the_same_manifest_again_touches_nothing(project: Path) -> None:
    files, mtimes = tree_files(project), _mtimes(project)
    result = run_panelforge("generate", str(TODO), "-o", str(project))
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(f"in {project} is up to date\n")
    assert tree_files(project) == files
    assert _mtimes(project) == mtimes


def test_state_records_the_generation(project: Path) -> None:
    state = json.loads((project / ".panelforge" / "state.json").read_text())
    assert state["manifest"]["file"] == "todo.yaml"
    assert state["files"]["app/hooks/task.py"] == {"owner": "user"}
    assert state["files"]["pyproject.toml"]["owner"] == "shared"
    assert state["files"]["app/main.py"]["owner"] == "generated"
    assert "migrations/versions/0001_initial.py" in state["migrations"]
    assert (project / ".panelforge" / "manifest.yaml").read_bytes() == TODO.read_bytes()
    base = project / ".panelforge" / "base"
    assert (base / "app" / "main.py").read_bytes() == (
        project / "app" / "main.py"
    ).read_bytes()
    assert not (base / "app" / "hooks" / "task.py").exists()


def test_a_non_empty_folder_without_state_is_still_refused(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "notes.txt").write_text("mine")
    result = run_panelforge("generate", str(TODO), "-o", str(dest))
    assert result.returncode == 1
    assert "is not empty (use --force to replace it)" in result.stderr
    check = run_panelforge("check", str(TODO), "-o", str(dest))
    assert check.returncode == 1
    assert check.stderr == (
        f"error: '{dest}' is not a project panelforge generated "
        "(no .panelforge/state.json)\n"
    )


def test_hooks_are_never_touched_but_come_back_when_deleted(project: Path) -> None:
    hook = project / "app" / "hooks" / "task.py"
    written = hook.read_text()
    hook.write_text("# all mine\n")
    assert commands.generate(TODO, project).reported == []
    assert hook.read_text() == "# all mine\n"
    hook.unlink()
    update = commands.generate(TODO, project)
    assert [(c.path, c.status) for c in update.reported] == [
        ("app/hooks/task.py", "added")
    ]
    assert hook.read_text() == written


def test_force_replaces_an_existing_project(project: Path) -> None:
    (project / "app" / "main.py").write_text("# edited\n")
    result = run_panelforge("generate", str(TODO), "-o", str(project), "--force", "-q")
    assert result.returncode == 0, result.stderr
    assert (project / "app" / "main.py").read_text() != "# edited\n"


def test_a_failure_while_regenerating_leaves_dest_as_it_was(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    changed = tmp_path / "todo.yaml"
    renamed = "  Chore:\n    renamed_from: Task\n"
    changed.write_text(TODO.read_text().replace("  Task:\n", renamed))
    before, mtimes = tree_files(project), _mtimes(project)
    calls = {"n": 0}
    real_format = Formatter.format

    def failing_format(self: Formatter, path: str, source: str) -> str:
        calls["n"] += 1
        if calls["n"] == 3:
            raise errors.TemplateError(f"{path}: simulated failure")
        return real_format(self, path, source)

    monkeypatch.setattr(Formatter, "format", failing_format)
    with pytest.raises(errors.TemplateError, match="simulated failure"):
        commands.generate(changed, project, use_cache=False)
    assert tree_files(project) == before and _mtimes(project) == mtimes
    assert not list(tmp_path.rglob("*panelforge-*"))


def test_merging_without_git_is_a_clear_error(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = project / "app" / "resources" / "task.py"
    module.write_text(module.read_text() + "# mine\n")
    changed = tmp_path / "todo.yaml"
    changed.write_text(TODO.read_text().replace("title: Tasks", "title: Chores"))
    before = tree_files(project)
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(errors.OutputError, match="needs git, which was not found"):
        commands.generate(changed, project)
    assert tree_files(project) == before


def test_unresolved_conflicts_block_the_next_regeneration(project: Path) -> None:
    module = project / "app" / "resources" / "task.py"
    module.write_text("<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> generated\n")
    result = run_panelforge("generate", str(TODO), "-o", str(project))
    assert result.returncode == 1
    assert result.stderr == (
        "error: resolve the conflicts of the last regeneration first "
        "('<<<<<<< yours' … '>>>>>>> generated'):\n  app/resources/task.py\n"
    )


def test_template_upgrades_reach_the_skeleton_and_keep_edits(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    main = project / "app" / "main.py"
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            "dependencies = [\n", 'dependencies = [\n    "rich>=13",\n'
        )
    )
    assert commands.check(TODO, project).ok  # a shared file may be edited
    real = assemble.render_skeleton_files

    def upgraded(*args: Any) -> dict[str, bytes]:
        files = dict(real(*args))
        files["app/main.py"] += b"\n# a template upgrade\n"
        files["pyproject.toml"] += b"\n# a template upgrade\n"
        files["app/new_module.py"] = b'"""New in this version."""\n'
        return files

    monkeypatch.setattr(assemble, "render_skeleton_files", upgraded)
    # A real upgrade changes panelforge's files: no earlier run stands for this one.
    monkeypatch.setattr(state, "source_fingerprint", lambda: "a newer panelforge")
    report = commands.check(TODO, project)
    assert {(d.path, d.kind) for d in report.drift} == {
        (".panelforge/", "outdated"),
        ("app/main.py", "outdated"),
        ("app/new_module.py", "missing"),
        ("pyproject.toml", "outdated"),
    }
    strict = commands.check(TODO, project, strict=True)
    assert ("app/main.py", "modified") in {(d.path, d.kind) for d in strict.drift}
    update = commands.generate(TODO, project)
    assert {(c.path, c.status) for c in update.reported} == {
        ("app/main.py", "updated"),
        ("app/new_module.py", "added"),
        ("pyproject.toml", "merged"),
    }
    assert main.read_text().endswith("# a template upgrade\n")
    assert '"rich>=13"' in pyproject.read_text()
    assert pyproject.read_text().endswith("# a template upgrade\n")
    assert commands.check(TODO, project).ok


def test_roles_module_is_regenerated_with_the_manifest(
    project: Path, tmp_path: Path
) -> None:
    roles = project / "app" / "roles.py"
    assert state.read_state(project).owners["app/roles.py"] == "generated"
    assert roles.read_text().endswith(
        "ROLES: dict[str, dict[str, tuple[str, ...]]] = {}\n"
    )
    changed = tmp_path / "todo.yaml"
    changed.write_text(
        TODO.read_text()
        + '\nroles:\n  viewer: {"*": [view_any, view]}\n'
        + "  planner: {Task: [view_any, view, create, update]}\n"
    )
    update = commands.generate(changed, project)
    assert [(c.path, c.status) for c in update.reported] == [
        ("app/roles.py", "updated"),
    ]
    assert roles.read_text().endswith(
        "ROLES: dict[str, dict[str, tuple[str, ...]]] = {\n"
        '    "viewer": {"*": ("view_any", "view")},\n'
        '    "planner": {"Task": ("view_any", "view", "create", "update")},\n'
        "}\n"
    )
    assert [r.name for r in state.read_state(project).project.roles] == [
        "viewer",
        "planner",
    ]
    assert commands.check(changed, project, strict=True).ok


def test_the_recorded_manifest_copy_keeps_its_name(project: Path) -> None:
    copy = project / ".panelforge" / "manifest.yaml"
    update = commands.generate(copy, project)
    assert update.reported == []
    assert commands.check(None, project).ok


def test_emitted_tools_ignore_the_state_folder(project: Path) -> None:
    tools = (
        ["black", "--check", "--verbose", "."],
        ["ruff", "check", "--show-files", "."],
    )
    for tool in tools:
        result = subprocess.run(
            [sys.executable, "-m", *tool], cwd=project, capture_output=True, text=True
        )
        checked = result.stdout + result.stderr
        assert "app/main.py" in checked, tool
        assert "/.panelforge/" not in checked, tool


@pytest.mark.parametrize("command", ["generate", "check"])
def test_help_names_the_new_options(command: str) -> None:
    result = run_panelforge(command, "--help")
    assert result.returncode == 0
    expected = (
        ["--dry-run", "--diff"]
        if command == "generate"
        else ["MANIFEST", "-o DEST", "--strict"]
    )
    for option in expected:
        assert option in result.stdout


# --- the property ---------------------------------------------------------------------

BASE: dict[str, Any] = {
    "project": {"name": "prop_admin"},
    "resources": {
        "Author": {"fields": {"name": {"type": "string", "maxLength": 50}}},
        "Book": {
            "fields": {
                "title": {"type": "string", "maxLength": 100},
                "pages": {"type": "integer", "minimum": 1},
                "author": {"type": "integer", "relation": "Author"},
            },
            "required": ["title"],
        },
    },
}
FIELD_SPECS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "string", "maxLength": 30},
    {"type": "string", "default": "x"},
    {"type": "integer", "minimum": 0, "maximum": 1000},
    {"type": "number"},
    {"type": "boolean", "default": False},
    {"type": "string", "format": "date"},
]


def _fields(manifest: dict[str, Any], resource: str) -> dict[str, Any]:
    fields: dict[str, Any] = manifest["resources"][resource]["fields"]
    return fields


def _add_field(m: dict[str, Any], data: st.DataObject, step: int) -> None:
    resource = data.draw(st.sampled_from(sorted(m["resources"])))
    others = sorted(m["resources"])
    spec = data.draw(
        st.sampled_from(FIELD_SPECS)
        | st.builds(
            lambda t: {"type": "integer", "relation": t}, st.sampled_from(others)
        )
    )
    name = f"f{step}"
    _fields(m, resource)[name] = dict(spec)
    # A required relation could close a required cycle (M035): relations stay optional.
    if data.draw(st.booleans()) and "relation" not in spec:
        m["resources"][resource].setdefault("required", []).append(name)


def _forget(m: dict[str, Any], resource: str, field: str) -> None:
    del _fields(m, resource)[field]
    required = m["resources"][resource].get("required", [])
    if field in required:
        required.remove(field)
        if not required:
            del m["resources"][resource]["required"]


def _remove_field(m: dict[str, Any], data: st.DataObject, _step: int) -> None:
    candidates = [
        (r, f)
        for r in sorted(m["resources"])
        for f in _fields(m, r)
        if len(_fields(m, r)) > 1
    ]
    if candidates:
        _forget(m, *data.draw(st.sampled_from(candidates)))


def _change_constraint(m: dict[str, Any], data: st.DataObject, _step: int) -> None:
    resource = data.draw(st.sampled_from(sorted(m["resources"])))
    field = data.draw(st.sampled_from(sorted(_fields(m, resource))))
    spec = _fields(m, resource)[field]
    change = data.draw(st.sampled_from(["required", "nullable", "limit"]))
    if change == "required":
        required = m["resources"][resource].setdefault("required", [])
        if field in required:
            _forget(m, resource, field)
            _fields(m, resource)[field] = spec
        else:
            required.append(field)
    elif change == "nullable":
        spec["nullable"] = not spec.get("nullable", False)
    elif spec["type"] == "string" and "format" not in spec:
        spec["maxLength"] = data.draw(st.sampled_from([20, 60, 200]))
    elif spec["type"] == "integer" and "relation" not in spec:
        spec["maximum"] = data.draw(st.sampled_from([100, 2**40]))


def _add_resource(m: dict[str, Any], data: st.DataObject, step: int) -> None:
    fields: dict[str, Any] = {"label": {"type": "string"}}
    if data.draw(st.booleans()):
        fields["owner"] = {
            "type": "integer",
            "relation": data.draw(st.sampled_from(sorted(m["resources"]))),
        }
    m["resources"][f"Extra{step}"] = {"fields": fields}


def _remove_resource(m: dict[str, Any], data: st.DataObject, _step: int) -> None:
    if len(m["resources"]) < 2:
        return
    gone = data.draw(st.sampled_from(sorted(m["resources"])))
    del m["resources"][gone]
    for resource in list(m["resources"]):
        for field, spec in list(_fields(m, resource).items()):
            if spec.get("relation") == gone:
                _forget(m, resource, field)
        if not _fields(m, resource):
            _fields(m, resource)["label"] = {"type": "string"}


def _rename_field(m: dict[str, Any], data: st.DataObject, step: int) -> None:
    resource = data.draw(st.sampled_from(sorted(m["resources"])))
    old = data.draw(st.sampled_from(sorted(_fields(m, resource))))
    fields = _fields(m, resource)
    spec = {**fields[old], "renamed_from": old}
    required = old in m["resources"][resource].get("required", [])
    _forget(m, resource, old)
    fields[f"{old.split('_r')[0]}_r{step}"] = spec
    if required:
        m["resources"][resource].setdefault("required", []).append(
            f"{old.split('_r')[0]}_r{step}"
        )


EDITS = [
    _add_field,
    _remove_field,
    _change_constraint,
    _add_resource,
    _remove_resource,
    _rename_field,
]


def _write(path: Path, manifest: dict[str, Any]) -> None:
    path.write_text(yaml.safe_dump(manifest, sort_keys=False))


def _comparable(root: Path) -> dict[str, Any]:
    files: dict[str, Any] = {
        p: d
        for p, d in tree_files(root).items()
        if not p.startswith("migrations/versions/")
    }
    state = json.loads(files.pop(".panelforge/state.json"))
    del state["migrations"]  # history: legitimately different
    files[".panelforge/state.json"] = state
    return files


def _every_name(manifest: dict[str, Any]) -> tuple[str, ...]:
    """Every resource and ``Resource.field`` of ``manifest`` (for ``--allow-drop``)."""
    resources = manifest["resources"]
    fields = [f"{r}.{f}" for r, spec in resources.items() for f in spec["fields"]]
    return (*resources, *fields)


def _chain(root: Path) -> list[str]:
    """The revisions from base to head; fails unless the chain is linear."""
    parents: dict[str, str | None] = {}
    for path in (root / "migrations" / "versions").glob("*.py"):
        values = {}
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                values[node.target.id] = ast.literal_eval(node.value)  # type: ignore[arg-type]
        parents[values["revision"]] = values["down_revision"]
    children: dict[str | None, list[str]] = {}
    for revision, parent in parents.items():
        children.setdefault(parent, []).append(revision)
    assert all(len(c) == 1 for c in children.values()), children
    order, current = [], None
    while current in children:
        current = children[current][0]
        order.append(current)
    assert len(order) == len(parents)
    return order


def _schema(root: Path, database: Path) -> dict[str, Any]:
    url = f"sqlite:///{database}"
    result = subprocess.run(
        [sys.executable, "-m", "app", "migrate"],
        cwd=root,
        env=project_env(root, url),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    engine = sa.create_engine(url)
    try:
        inspector = sa.inspect(engine)
        schema = {}
        for table in inspector.get_table_names():
            schema[table] = {
                "columns": {
                    c["name"]: (str(c["type"]), c["nullable"])
                    for c in inspector.get_columns(table)
                },
                "indexes": {
                    i["name"]: tuple(i["column_names"])
                    for i in inspector.get_indexes(table)
                },
                "foreign_keys": sorted(
                    (
                        f["name"],
                        tuple(f["constrained_columns"]),
                        f["referred_table"],
                        f["options"].get("ondelete"),
                    )
                    for f in inspector.get_foreign_keys(table)
                ),
                "primary_key": tuple(
                    inspector.get_pk_constraint(table)["constrained_columns"]
                ),
            }
        return schema
    finally:
        engine.dispose()


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_step_by_step_equals_fresh(data: st.DataObject) -> None:
    manifest = copy.deepcopy(BASE)
    with tempfile.TemporaryDirectory(prefix="pf-property-") as tmp:
        root = Path(tmp)
        source = root / "panel.yaml"
        stepwise, fresh = root / "stepwise", root / "fresh"
        _write(source, manifest)
        commands.generate(source, stepwise)
        for step in range(data.draw(st.integers(1, 4), label="steps")):
            edit = data.draw(st.sampled_from(EDITS), label=f"edit {step}")
            droppable = _every_name(manifest)  # drops are accepted: no rows here
            edit(manifest, data, step)
            event(edit.__name__)
            _write(source, manifest)
            update = commands.generate(source, stepwise, allow_drop=droppable)
            assert not update.conflicts, update.conflicts
        commands.generate(source, fresh)

        ours, theirs = _comparable(stepwise), _comparable(fresh)
        leftovers = set(ours) - set(theirs)
        assert all(p.startswith("app/hooks/") for p in leftovers), leftovers
        assert {p: ours[p] for p in theirs} == theirs
        _chain(stepwise)
        assert _schema(stepwise, root / "stepwise.db") == _schema(
            fresh, root / "fresh.db"
        )
