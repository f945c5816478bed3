"""Every resource template renders already black-formatted, valid Python (STYLE.md §5).

Rendering black-clean text keeps black cheap on the generator's hot path; a template
that drifts from black's style fails here with the diff.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import replace

import black
import openapi_projects as projects
import pytest

from generator.model import ir
from generator.render.jinja import code_environment
from generator.targets import TARGETS

target = TARGETS["fastapi"]
django = TARGETS["django"]
MODE = black.Mode(target_versions={black.TargetVersion.PY311})
field = projects.field


def edge_project() -> ir.Project:
    """Layout corners: quotes, long names, a UUID key, a chain of relations."""
    code = ir.Field(
        name="code",
        type="string",
        label="Code",
        format="uuid",
        read_only=True,
        is_key=True,
    )
    ticket = replace(
        projects.resource("Ticket", field("subject", required=True)),
        key="code",
        fields=(code, field("subject", required=True)),
        default_sort="-code",
    )
    tag = projects.resource("Tag")
    publisher = projects.resource(
        "Publisher",
        replace(field("name", required=True), label='The "official" name'),
        field(
            "a_rather_long_field_name_to_force_wrapping",
            max_length=250,
            description="A description long enough to push the declaration past 88",
        ),
        field("founded_on", format="date", default="2024-02-03"),
        field("region", enum=("north-east", "north-west", "south-east", "south-west")),
        search=("name",),
    )
    book = projects.resource(
        "LongishBookTitleRecord",
        field("title", required=True),
        field("publisher", "integer", relation="Publisher", required=True),
        query_tags=(ir.QueryTag("recent-and-relevant", "Recent", (("title", "x"),)),),
    )
    chapter = projects.resource(
        "Chapter",
        field("heading", required=True),
        field("book", "integer", relation="LongishBookTitleRecord", required=True),
        field("edited_by_the_person_who_last_saved_it"),
        methods=("renumber", "publish_everywhere"),
        index_fields=("heading", "book", "edited_by_the_person_who_last_saved_it"),
        readonly_fields=("edited_by_the_person_who_last_saved_it",),
    )
    crud = ("view_any", "view", "create", "update", "delete", "mass_delete")
    roles = (
        ir.Role("viewer", (("*", ("view_any", "view")),)),
        ir.Role(
            "editor_of_chapters_and_books",
            (
                ("*", ("view_any", "view")),
                ("Chapter", (*crud, "export", "import", "renumber")),
                ("LongishBookTitleRecord", ("view_any", "view", "update")),
            ),
        ),
        ir.Role("nobody", ()),
    )
    return replace(
        projects.project(ticket, tag, publisher, book, chapter),
        name="edge_admin",
        manifest_name="a-manifest-with-a-rather-long-file-name-for-the-header.yaml",
        roles=roles,
    )


PROJECTS = {
    "library": projects.library,
    "todo": projects.todo,
    "synthetic": lambda: projects.synthetic(3),
    "edge": edge_project,
}


def _rendered(project: ir.Project) -> dict[str, str]:
    env = code_environment()
    return {
        plan.path: env.get_template(plan.template).render(**plan.context)
        for plan in target.plan_files(project)
        if plan.path.endswith(".py")
    }


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_templates_render_black_clean_python(name: str) -> None:
    for path, text in _rendered(PROJECTS[name]()).items():
        ast.parse(text, filename=path)
        formatted = black.format_str(text, mode=MODE)
        diff = "".join(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                formatted.splitlines(keepends=True),
                f"{path} (rendered)",
                f"{path} (black)",
            )
        )
        assert formatted == text, diff


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_django_stable_templates_render_black_clean_python(name: str) -> None:
    # Only the templates the Django target declares black-stable are held to it.
    env = code_environment()
    project = replace(PROJECTS[name](), framework="django")
    plans = [
        p
        for p in django.plan_files(project)
        if p.template in django.black_stable_templates
    ]
    assert {p.template for p in plans} == django.black_stable_templates
    for plan in plans:
        text = env.get_template(plan.template).render(**plan.context)
        ast.parse(text, filename=plan.path)
        assert black.format_str(text, mode=MODE) == text, plan.path
