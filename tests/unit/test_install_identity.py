"""Install source (PEP 610, copier's template), the pinned identity, copier answers."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from generator import copier_task
from generator.manifest.load import load_manifest
from generator.regen import install
from generator.regen.identity import pin_identity
from generator.regen.install import (
    LOCAL,
    InstallSource,
    from_copier_template,
    from_direct_url,
)
from generator.regen.state import State
from generator.render.jinja import render_plans
from generator.targets.ci import ci_plans

LIBRARY = REPO / "examples" / "library.yaml"


def test_direct_url_kinds() -> None:
    assert from_direct_url(None, "1.2.0") == InstallSource("index", "panelforge==1.2.0")
    vcs = {
        "url": "https://github.com/acme/panelforge",
        "vcs_info": {"vcs": "git", "commit_id": "abc123"},
    }
    assert from_direct_url(json.dumps(vcs), "1").requirement == (
        "panelforge @ git+https://github.com/acme/panelforge@abc123"
    )
    archive = {"url": "https://example.org/panelforge-1.tar.gz", "archive_info": {}}
    assert from_direct_url(json.dumps(archive), "1") == InstallSource(
        "url", "panelforge @ https://example.org/panelforge-1.tar.gz"
    )
    editable = {"url": "file:///home/me/panelforge", "dir_info": {"editable": True}}
    assert from_direct_url(json.dumps(editable), "1") == LOCAL
    assert from_direct_url("{not json", "1") == LOCAL


def test_copier_template_sources(tmp_path: Path) -> None:
    assert from_copier_template(str(tmp_path), "abc", cwd=tmp_path) == LOCAL
    assert from_copier_template("gh:acme/panelforge", "abc", cwd=tmp_path) == (
        InstallSource("vcs", "panelforge @ git+https://github.com/acme/panelforge@abc")
    )
    assert from_copier_template("git@host.org:acme/pf.git", "", cwd=tmp_path) == (
        InstallSource("vcs", "panelforge @ git+ssh://git@host.org/acme/pf.git")
    )


def test_a_checkout_is_recorded_as_local_without_its_path() -> None:
    assert install.install_source() == LOCAL
    assert LOCAL.to_data() == {"kind": "local", "requirement": ""}


@pytest.mark.parametrize(
    "source",
    [InstallSource("index", "panelforge==0.1.0"), LOCAL],
    ids=["index", "local"],
)
def test_workflow_install_line_follows_the_source(
    monkeypatch: pytest.MonkeyPatch, source: InstallSource
) -> None:
    monkeypatch.setattr(install, "_override", [source])
    project = load_manifest(LIBRARY)
    plan = ci_plans(project, "fastapi")[0]
    text = render_plans([plan])[plan.path]
    steps = yaml.safe_load(text)["jobs"]["test"]["steps"]
    run = next(s for s in steps if s.get("name") == "Install")["run"]
    last = run.strip().splitlines()[-1]
    if source.reachable:
        assert last == 'python -m pip install "panelforge==0.1.0"'
    else:
        assert last == install.LOCAL_INSTALL_LINE


def _state(project) -> State:
    return State(project, "library.yaml", "", {}, {}, ())


def test_identity_is_kept_when_the_name_changes() -> None:
    recorded = load_manifest(LIBRARY)
    renamed = replace(recorded, name="shelf", database="shelf.db", jwt_issuer="shelf")
    pinned, warnings = pin_identity(renamed, _state(recorded))
    assert (pinned.database, pinned.jwt_issuer) == ("library_admin.db", "library_admin")
    assert len(warnings) == 1 and "kept the default database file" in warnings[0]


def test_identity_changes_only_when_the_manifest_says_so() -> None:
    recorded = load_manifest(LIBRARY)
    explicit = replace(recorded, database="new.db", explicit=frozenset({"database"}))
    pinned, warnings = pin_identity(explicit, _state(recorded))
    assert pinned.database == "new.db"
    assert pinned.jwt_issuer == "library_admin"
    assert any("changes from 'library_admin.db' to 'new.db'" in w for w in warnings)
    same, none = pin_identity(recorded, _state(recorded))
    assert same == recorded and none == []


def test_copier_answers_are_written_into_the_manifest_copy(tmp_path: Path) -> None:
    changes = {("project", "name"): "shelf", ("auth", "jwt"): True}
    text = copier_task.with_answers(LIBRARY.read_bytes(), "library.yaml", changes)
    copy = tmp_path / "manifest.yaml"
    copy.write_bytes(text)
    project = load_manifest(copy)
    assert (project.name, project.auth.jwt) == ("shelf", True)
    assert project.database == "shelf.db"
    assert text.startswith(b"# library.yaml, with your answers")


def test_check_notes_the_local_install_line_until_it_is_replaced(
    tmp_path: Path,
) -> None:
    from generator.regen.workflow import workflow_notes

    workflow = tmp_path / install.WORKFLOW
    workflow.parent.mkdir(parents=True)
    workflow.write_text(f"run: |\n  {install.LOCAL_INSTALL_LINE}\n")
    (note,) = workflow_notes(tmp_path)
    assert install.LOCAL_INSTALL_LINE in note
    workflow.write_text('run: python -m pip install "panelforge==0.1.0"\n')
    assert workflow_notes(tmp_path) == []


def test_a_regeneration_by_a_panelforge_installed_otherwise_says_what_to_put(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from generator.regen.workflow import install_changed

    state = replace(_state(load_manifest(LIBRARY)), install=LOCAL)
    assert install_changed(state) == []
    monkeypatch.setattr(install, "_override", [InstallSource("index", "panelforge==2")])
    (warning,) = install_changed(state)
    assert 'python -m pip install "panelforge==2"' in warning
