"""The FastAPI and Django projects of one manifest describe the same API.

Both serve the spec panelforge wrote (``resources/oag.yaml`` and ``.json``), and each
project's own tests prove that its ``oag:generate`` / ``oag_generate`` command rewrites
those bytes from its resource classes; so equal files here mean equal specs served.
There is no documented difference: the two targets' specs are byte-identical.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLE_IDS, FRAMEWORKS

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
    """Django's ``panel/core`` is FastAPI's ``app/panel/core``: one kernel."""
    fastapi = generated(example, "fastapi") / "app" / "panel" / "core"
    django = generated(example, "django") / "panel" / "core"
    names = sorted(p.name for p in fastapi.glob("*.py"))
    assert names == sorted(p.name for p in django.glob("*.py"))
    for name in names:
        assert (django / name).read_bytes() == (fastapi / name).read_bytes(), name
