"""The command line as a user types it: help, validate, spec, exit codes."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import REPO, run_panelforge

LIBRARY = REPO / "examples" / "library.yaml"


@pytest.mark.parametrize(
    "command", [[], ["generate"], ["validate"], ["spec"], ["inspect"]]
)
def test_every_command_has_help(command: list[str]) -> None:
    result = run_panelforge(*command, "--help")
    assert result.returncode == 0
    assert "usage: panelforge" in result.stdout


def test_validate_accepts_a_good_manifest() -> None:
    result = run_panelforge("validate", str(LIBRARY))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{LIBRARY}: ok (3 resources)\n"
    quiet = run_panelforge("validate", str(LIBRARY), "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == ""


def test_validate_reports_a_missing_file(tmp_path) -> None:
    missing = tmp_path / "nope.yaml"
    result = run_panelforge("validate", str(missing))
    assert result.returncode == 1
    assert result.stderr.startswith("error: ")
    assert "nope.yaml" in result.stderr
    assert "Traceback" not in result.stderr


def test_spec_writes_both_files_and_they_agree(tmp_path, generated) -> None:
    from openapi_spec_validator import validate

    result = run_panelforge("spec", str(LIBRARY), "-o", str(tmp_path / "spec"))
    assert result.returncode == 0, result.stderr
    as_yaml = (tmp_path / "spec" / "oag.yaml").read_text()
    as_json = (tmp_path / "spec" / "oag.json").read_text()
    assert yaml.safe_load(as_yaml) == json.loads(as_json)
    validate(json.loads(as_json))
    # The spec command and a full generation emit the very same bytes.
    project = generated("library")
    assert as_yaml == (project / "resources" / "oag.yaml").read_text()
    assert as_json == (project / "resources" / "oag.json").read_text()


def test_unknown_command_is_a_usage_error() -> None:
    result = run_panelforge("frobnicate")
    assert result.returncode == 2
