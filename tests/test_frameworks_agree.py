"""The FastAPI and Django projects of one manifest describe the same API.

Both serve the spec panelforge wrote (``resources/oag.yaml`` and ``.json``), and each
project's own tests prove that its ``oag:generate`` / ``oag_generate`` command rewrites
those bytes from its resource classes; so equal files here mean equal specs served.
There is no documented difference: the two targets' specs are byte-identical.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLE_IDS, FRAMEWORKS, REPO, tree_files

pytestmark = pytest.mark.skipif(
    len(FRAMEWORKS) < 2, reason="only one framework target is enabled"
)

SPEC_FILES = ("resources/oag.json", "resources/oag.yaml")


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_django_spec_equals_fastapi_spec(generated, example: str) -> None:
    fastapi, django = generated(example, "fastapi"), generated(example, "django")
    for name in SPEC_FILES:
        assert (django / name).read_bytes() == (fastapi / name).read_bytes(), name


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_both_projects_share_the_kernel_byte_for_byte(generated, example: str) -> None:
    """``templates/project/_shared/`` lands unchanged at the same paths in both.

    That is the kernel ``panel_core`` (its pages, static files and Swagger UI with it)
    and the tests both projects run.
    """
    shared = tree_files(REPO / "templates" / "project" / "_shared")
    assert "panel_core/openapi.py" in shared and "tests/cases.py" in shared
    for framework in FRAMEWORKS:
        project = tree_files(generated(example, framework))
        copied = {name: project.get(name) for name in shared}
        assert copied == shared, framework


def test_no_symlink_in_the_templates() -> None:
    """What both frameworks use lives once, in ``_shared/``: no links between them."""
    links = [p for p in (REPO / "templates").rglob("*") if p.is_symlink()]
    assert links == []
