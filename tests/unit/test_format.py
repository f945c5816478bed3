"""Skipping black for black-stable templates gives black's bytes, whatever the values.

The templates' own layout is proven black-clean by test_templates_black.py; here the
values a manifest can bring (quotes of both kinds, wide characters, long texts) either
keep the render black-clean or send the file through black, so the bytes never depend
on which path produced them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import black
import openapi_projects as projects
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_templates_black import PROJECTS

from generator.assemble import render_files
from generator.manifest.load import load_manifest
from generator.model import ir
from generator.paths import resource_templates
from generator.render import format as fmt
from generator.render.format import FormatCache, Formatter, looks_black_stable
from generator.render.jinja import render_plans
from generator.run import Caches
from generator.targets import TARGETS
from generator.targets.base import Target

target = TARGETS["fastapi"]
django = TARGETS["django"]
MODE = black.Mode(target_versions={black.TargetVersion.PY311})
field = projects.field


def awkward_project() -> ir.Project:
    """Values black would lay out differently from the templates' helpers."""
    both_quotes = replace(field("motto"), label='He said "don\'t"')
    wide = replace(field("name", required=True), label="名前" * 20)
    long_help = field("summary", description="A rather long description. " * 6)
    quoted_enum = field("mood", enum=("it's fine", 'a "quoted" one', "plain"))
    venue = projects.resource(
        "Venue",
        both_quotes,
        wide,
        long_help,
        quoted_enum,
        title='Venues "R" us',
        search=("name",),
    )
    gig = projects.resource(
        "Gig",
        field("headline", max_length=250, default="It's on"),
        field("venue", "integer", relation="Venue", required=True),
        query_tags=(ir.QueryTag("quoted", "Quoted 'tag'", (("headline", "x'y"),)),),
    )
    return replace(projects.project(venue, gig), title="Ünïcode admin ✓")


def composite_project() -> ir.Project:
    """A link table keyed by two relations and a resource keyed by two strings."""
    return load_manifest(COMPOSITE)


COMPOSITE = Path(__file__).parents[1] / "conformance" / "composite" / "tunes.yaml"
CASES = {**PROJECTS, "awkward": awkward_project, "composite": composite_project}


def _plans(project: ir.Project, target: Target = target):
    plans = [p for p in target.plan_files(project) if p.path.endswith(".py")]
    empty = replace(project, resources=())
    for before, after in ((empty, project), (project, empty)):
        plan = target.schema_migration(before, after, {})
        assert plan is not None
        plans.append(plan)
    return plans


@pytest.mark.parametrize("name", sorted(CASES))
def test_trusted_templates_give_black_bytes(name: str) -> None:
    plans = _plans(CASES[name]())
    rendered = render_plans(plans)
    formatted = render_files(plans, Caches(None, None), target.black_stable_templates)
    for path, text in rendered.items():
        assert formatted[path] == black.format_str(text, mode=MODE), path


@pytest.mark.parametrize("name", sorted(CASES))
def test_trusted_django_templates_give_black_bytes(name: str) -> None:
    project = replace(CASES[name](), framework="django")
    plans = _plans(project, django)
    rendered = render_plans(plans)
    formatted = render_files(plans, Caches(None, None), django.black_stable_templates)
    for path, text in rendered.items():
        assert formatted[path] == black.format_str(text, mode=MODE), path


def test_awkward_values_are_sent_to_black(monkeypatch: pytest.MonkeyPatch) -> None:
    plans = _plans(awkward_project())
    calls: list[str] = []
    real = fmt._format_str

    def counting(source: str) -> str:
        calls.append(source)
        return real(source)

    monkeypatch.setattr(fmt, "_format_str", counting)
    render_files(plans, Caches(None, None), target.black_stable_templates)
    assert calls, "no file of the awkward project needed black"
    assert len(calls) < len(plans), "every file needed black"


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_a_named_cache_keeps_a_run_in_one_file_and_changes_no_byte(
    framework: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = TARGETS[framework]
    project = replace(awkward_project(), framework=framework)
    plans = _plans(project, chosen)
    stable = chosen.black_stable_templates
    expected = render_files(plans, Caches(None, None), stable)
    caches = Caches(tmp_path, None)
    assert render_files(plans, caches, stable, "one project") == expected  # cold
    assert [p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*")] == [
        "runs",
        "runs",
    ], "a named run keeps one file"

    def no_black(_source: str) -> str:
        raise AssertionError("a warm run formatted again")

    monkeypatch.setattr(fmt, "_format_str", no_black)
    monkeypatch.setattr(fmt, "looks_black_stable", no_black)
    assert render_files(plans, caches, stable, "one project") == expected  # warm
    ledger = next((tmp_path / "runs").iterdir())
    ledger.write_bytes(b"\x00not marshal")  # damaged: formatted again, same bytes
    monkeypatch.undo()
    assert render_files(plans, caches, stable, "one project") == expected


@pytest.mark.parametrize("target", [target, django], ids=["fastapi", "django"])
def test_every_stable_template_exists_and_is_python(target: Target) -> None:
    templates = target.black_stable_templates
    assert templates
    for name in templates:
        assert name.endswith(".py.jinja")
        assert (resource_templates() / name).is_file(), name
    used = set()
    for made in (projects.library, composite_project):
        project = replace(made(), framework=target.name)
        used |= {p.template for p in _plans(project, target)}
    assert templates <= used, "a stable template is not covered by these tests"


def test_a_target_without_the_declaration_trusts_nothing() -> None:
    assert Target.black_stable_templates == frozenset()


@pytest.mark.parametrize(
    ("source", "stable"),
    [
        ('x = "a"\n', True),
        ("# don't worry\nx = \"it's\"\n", True),
        ('"""It\'s a docstring."""\n', True),
        ("x = 'a'\n", False),
        ("x = b'a'\n", False),
        ('x = """a\n\'b\'\n"""\n', True),
        ("y = 1 \n", False),
        ("if x:\n\ty = 1\n", False),
        ("x = 1\r\n", False),
        ('x = "' + "a" * 82 + '"\n', True),
        ('x = "' + "a" * 83 + '"\n', False),
        ('x = "' + "é" * 82 + '"\n', True),  # one column each, as black counts
        ('x = "' + "é" * 83 + '"\n', False),
        ('x = "' + "名" * 41 + '"\n', True),  # east-asian wide: two columns each
        ('x = "' + "名" * 42 + '"\n', False),
        ("x = '\"quoted\"'\n", True),  # double quotes would need escapes: kept
        ("x = 'it\\'s \"q\"'\n", False),  # a backslash: black decides
        ("x = b'\"b\"'\n", True),
        ("x = rb'\"b\"'\n", True),
        ("x = f'\"{y}\"'\n", False),  # other prefixes: black decides
        ('x = "say \\"hi\\""\n', False),  # black requotes: fewer escapes
        ("x = '''\"a\"'''\n", False),
        ('x = "it\\\'s"\n', False),  # black drops the needless escape
        ('"""It\\\'s a docstring."""\n', True),  # black leaves docstring escapes
        # A lone keyword string in an exploded call: black cannot split it.
        ('f(\n    hint="' + "a" * 90 + '",\n)\n', True),
        (
            'x = [\n    C(\n        "t",\n        hint="'
            + "a b" * 40
            + '",\n    ),\n]\n',
            True,
        ),
        ('f(\n    hint="' + "a" * 90 + '"\n)\n', False),  # no magic trailing comma
        ('f(\n    hint=x + "' + "a" * 90 + '",\n)\n', False),
        ('f(\n    hint="' + "a" * 90 + '\\"",\n)\n', False),
        ('f(\n    hint=f"' + "a" * 90 + '",\n)\n', False),
    ],
)
def test_what_looks_black_stable(source: str, stable: bool) -> None:
    assert looks_black_stable(source) is stable
    if stable:
        assert black.format_str(source, mode=MODE) == source


def test_widths_are_never_narrower_than_blacks() -> None:
    from black.strings import char_width

    narrower = [
        hex(code)
        for code in range(0x110000)
        if not 0xD800 <= code <= 0xDFFF
        and fmt._width(chr(code)) < char_width(chr(code))
    ]
    assert not narrower, narrower[:20]


def test_the_syntax_gate_holds_for_trusted_files(tmp_path: Path) -> None:
    formatter = Formatter(FormatCache(tmp_path), trusted={"app/x.py"})
    with pytest.raises(fmt.TemplateError, match=r"app/x\.py:1: generated code"):
        formatter.format("app/x.py", "def (:\n")


_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E, blacklist_characters='"\\'),
    min_size=60,
    max_size=140,
)


@settings(max_examples=60, deadline=None)
@given(text=_TEXT, depth=st.integers(1, 3), first=st.booleans())
def test_a_lone_keyword_string_is_left_by_black(
    text: str, depth: int, first: bool
) -> None:
    """However long, ``name="text",`` in an exploded call is black's own output."""
    pad = "    " * depth
    inner = f'{pad}hint="{text}",\n'
    if first:
        inner = f'{pad}"t",\n{inner}'
    heads = "".join(f"{'    ' * level}def g{level}():\n" for level in range(depth - 1))
    source = f"{heads}{'    ' * (depth - 1)}f(\n{inner}{'    ' * (depth - 1)})\n"
    assert looks_black_stable(source)
    assert black.format_str(source, mode=MODE) == source
