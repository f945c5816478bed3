"""The context of the emitted page tests (``tests/test_<module>_pages.py``)."""

from __future__ import annotations

import openapi_projects as projects

from generator.targets.fastapi.page_tests import (
    SCRIPT,
    pages_test_context,
    script_field,
)

field = projects.field


def test_the_script_field_is_a_plain_text_field_long_enough() -> None:
    short = field("code", max_length=5)
    patterned = field("isbn", pattern="^[0-9]+$")
    chosen = field("genre", enum=("a", "b"))
    email = field("email", format="email")
    title = field("title", max_length=len(SCRIPT))
    found = script_field(
        projects.resource("Book", short, patterned, chosen, email, title)
    )
    assert found is not None and found.name == "title"
    assert script_field(projects.resource("Book", short, patterned)) is None


def test_the_cases_follow_the_resource() -> None:
    project = projects.project(projects.resource("Book", field("title", required=True)))
    context = pages_test_context(project.resources[0], project)
    assert context["has"] == {
        "required": True,
        "patch": True,
        "script": True,
        "uploads": False,
    }
    assert context["files"] is None
    index_page = 'INDEX_PAGE = "/admin/resource/book-resource/index-page"'
    assert index_page in context["constants"]


def test_a_required_image_is_uploaded_by_the_forms_that_create() -> None:
    cover = field("cover", format="image", required=True)
    project = projects.project(projects.resource("Album", cover))
    context = pages_test_context(project.resources[0], project)
    assert context["has"]["uploads"] is True
    assert context["files"] == 'FILES = uploads({"cover": "image/png"})'


def test_the_library_has_every_case() -> None:
    library = projects.library()
    contexts = {r.name: pages_test_context(r, library) for r in library.resources}
    assert contexts["Book"]["has"]["script"]
    assert not contexts["Member"]["has"]["script"]
