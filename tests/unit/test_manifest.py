"""Loading manifests into the IR: the examples, every default, file-level errors."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
import yaml

from generator.errors import ManifestError, ManifestInvalidError, ManifestSyntaxError
from generator.manifest import load as load_module
from generator.manifest.load import MAX_BYTES, load_manifest, parse_manifest
from generator.model import ir
from generator.model import kernel_fields as kernel

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))


def manifest(resources: dict | None = None, **top: object) -> str:
    """A manifest's text; by default one resource ``Book`` with a ``title``."""
    data = {
        "project": {"name": "shop_admin"},
        **top,
        "resources": resources or {"Book": {"fields": {"title": {"type": "string"}}}},
    }
    return yaml.safe_dump(data, sort_keys=False)


def load(text: str) -> ir.Project:
    return parse_manifest(text, "m.yaml")


@pytest.fixture(scope="module")
def library() -> ir.Project:
    return load_manifest(REPO / "examples" / "library.yaml")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_loads_and_maps_to_kernel_fields(path: Path) -> None:
    project = load_manifest(path)
    assert project.manifest_name == path.name
    for resource in project.resources:
        assert resource.fields[0].is_key
        assert resource.key_field.name == resource.key
        assert len(kernel.kernel_fields(resource, project)) == len(resource.fields)


def test_library_project(library: ir.Project) -> None:
    assert (library.name, library.title, library.framework) == (
        "library_admin",
        "Library admin",
        "fastapi",
    )
    assert [r.name for r in library.resources] == ["Author", "Book", "Member"]
    assert library.auth == ir.Auth(jwt=False, token_ttl=3600)
    assert library.docs == ir.Docs()


def test_library_book_names_and_defaults(library: ir.Project) -> None:
    book = library.resource("Book")
    assert (book.uri, book.title, book.module, book.table) == (
        "book-resource",
        "Books",
        "book",
        "books",
    )
    assert (book.class_name, book.model_name, book.key) == (
        "BookResource",
        "Book",
        "id",
    )
    assert (book.per_page, book.default_sort) == (25, "-id")
    assert book.search == ("title", "isbn")
    assert book.methods == ("publish",)
    assert book.query_tags == (
        ir.QueryTag("available", "Available", (("available", True),)),
        ir.QueryTag("science", "Science", (("genre", "science"),)),
    )


def test_library_book_fields(library: ir.Project) -> None:
    book = library.resource("Book")
    names = [f.name for f in book.fields]
    assert names == [
        "id",
        "title",
        "isbn",
        "pages",
        "price",
        "available",
        "genre",
        "published_on",
        "summary",
        "author",
    ]
    assert book.fields[0] == ir.Field(
        name="id", type="integer", label="ID", read_only=True, is_key=True
    )
    title = book.field("title")
    assert (title.required, title.max_length, title.label) == (True, 200, "Title")
    assert book.field("isbn").pattern == "^[0-9]{13}$"
    assert (book.field("pages").minimum, book.field("pages").maximum) == (1, 10000)
    assert book.field("available").default is True
    assert book.field("genre").enum == ("fiction", "science", "history")
    assert book.field("published_on").label == "Published on"
    summary = book.field("summary")
    assert (summary.format, summary.nullable, summary.sortable) == ("text", True, False)
    assert book.field("author").relation == "Author"
    assert not book.field("price").has_default


def test_library_member_and_author(library: ir.Project) -> None:
    member = library.resource("Member")
    password = member.field("password")
    assert (password.sortable, password.filterable, password.min_length) == (
        False,
        False,
        8,
    )
    assert member.field("token").read_only
    assert member.field("rating").enum == (1, 2, 3, 4, 5)
    assert [f.name for f in member.fields if f.required] == ["email", "password"]
    author = library.resource("Author")
    assert author.title == "Authors"
    assert author.field("born_on").description == "Date of birth"
    assert author.field("website").nullable


def test_todo_example() -> None:
    project = load_manifest(REPO / "examples" / "todo.yaml")
    task = project.resources[0]
    assert (task.name, task.uri, task.table) == ("Task", "task-resource", "tasks")
    assert task.field("done").default is False
    assert task.query_tags == (ir.QueryTag("open", "Open", (("done", False),)),)


def test_examples_give_the_same_ir_in_flow_and_block_style() -> None:
    for path in EXAMPLES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for flow in (True, False):
            text = yaml.safe_dump(data, sort_keys=False, default_flow_style=flow)
            assert parse_manifest(text, path.name) == load_manifest(path)


def test_defaults_of_a_minimal_manifest() -> None:
    text = manifest({"BookAuthor": {"fields": {"note": {"type": "string"}}}})
    project = load(text)
    assert (project.title, project.framework) == ("Shop admin", "fastapi")
    (resource,) = project.resources
    assert (resource.uri, resource.title, resource.table, resource.module) == (
        "book-author-resource",
        "Book authors",
        "book_authors",
        "book_author",
    )
    assert resource.fields[1] == ir.Field(name="note", type="string", label="Note")
    assert (resource.search, resource.query_tags, resource.methods) == ((), (), ())


def test_declared_string_key_is_first_and_required() -> None:
    fields = {"name": {"type": "string"}, "code": {"type": "string", "maxLength": 2}}
    (country,) = load(
        manifest({"Country": {"key": "code", "fields": fields}})
    ).resources
    assert [f.name for f in country.fields] == ["code", "name"]
    code = country.key_field
    assert (code.is_key, code.required, code.read_only) == (True, True, False)
    assert country.default_sort == "-code"


@pytest.mark.parametrize(
    "options", [{"type": "integer"}, {"type": "string", "format": "uuid"}]
)
def test_generated_keys_are_read_only_and_not_required(options: dict) -> None:
    fields = {"ref": options, "name": {"type": "string"}}
    (item,) = load(manifest({"Item": {"key": "ref", "fields": fields}})).resources
    assert item.key_field.name == "ref"
    assert (item.key_field.read_only, item.key_field.required) == (True, False)


def test_declared_id_key_is_the_kernel_id() -> None:
    fields = {"id": {"type": "integer"}, "name": {"type": "string"}}
    project = load(manifest({"Item": {"key": "id", "fields": fields}}))
    key = project.resources[0].key_field
    assert key.label == "ID"
    declared = kernel.kernel_field(key, project)
    assert (declared.class_name, declared.kwargs) == ("ID", ())


def test_explicit_options_override_the_defaults() -> None:
    fields = {
        "body": {"type": "string", "format": "text", "sortable": True},
        "secret": {"type": "string", "format": "password"},
        "flag": {"type": "boolean", "filterable": False, "label": "Flag?"},
    }
    resource = {
        "uri": "posts",
        "title": "All posts",
        "table": "blog_posts",
        "fields": fields,
        "per_page": 50,
        "default_sort": "body",
        "query_tags": {"in-stock": {"filter": {"body": "x"}}},
    }
    (post,) = load(manifest({"Post": resource})).resources
    assert (post.uri, post.title, post.table, post.per_page) == (
        "posts",
        "All posts",
        "blog_posts",
        50,
    )
    assert post.field("body").sortable and post.field("body").filterable
    assert not post.field("secret").sortable and not post.field("secret").filterable
    assert post.field("flag").label == "Flag?" and not post.field("flag").filterable
    assert post.default_sort == "body"
    assert post.query_tags[0].label == "In stock"


def test_auth_docs_and_framework() -> None:
    text = manifest(
        auth={"jwt": True, "token_ttl": 600},
        docs={"title": "API", "openapi_version": "3.0.3", "path": "spec/api.yml"},
    )
    text = text.replace("name: shop_admin", "name: shop_admin\n  framework: django")
    project = load(text)
    assert project.framework == "django"
    assert project.auth == ir.Auth(jwt=True, token_ttl=600)
    assert project.docs == ir.Docs(
        title="API", path="spec/api.yml", openapi_version="3.0.3"
    )


def test_null_default_on_a_nullable_field_is_kept() -> None:
    fields = {"note": {"type": "string", "nullable": True, "default": None}}
    (book,) = load(manifest({"Book": {"fields": fields}})).resources
    assert book.field("note").has_default and book.field("note").default is None


def test_order_of_resources_fields_and_tags_is_kept() -> None:
    names = [f"R{i}" for i in range(30, 0, -1)]
    resources = {
        n: {"fields": {f"f{j}": {"type": "string"} for j in (3, 1, 2)}} for n in names
    }
    project = load(manifest(resources))
    assert [r.name for r in project.resources] == names
    assert [f.name for f in project.resources[0].fields] == ["id", "f3", "f1", "f2"]


def test_manifest_name_is_the_base_name_only(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "shop.yaml"
    path.parent.mkdir()
    path.write_text(manifest(), encoding="utf-8")
    assert load_manifest(path).manifest_name == "shop.yaml"
    named = load_manifest(path, display_name="conf/x/shop-admin.yaml")
    assert named.manifest_name == "shop-admin.yaml"
    assert parse_manifest(manifest(), "C:\\work\\win.yaml").manifest_name == "win.yaml"


def test_display_name_is_used_in_messages(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("project: [", encoding="utf-8")
    with pytest.raises(ManifestSyntaxError) as caught:
        load_manifest(path, display_name="shown.yaml")
    assert caught.value.file == "shown.yaml"
    assert caught.value.message.startswith("shown.yaml: 1 problem\n  shown.yaml:1:")


def test_a_bom_is_accepted_and_positions_ignore_it(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + manifest().replace("title", "titl e").encode())
    with pytest.raises(ManifestInvalidError) as caught:
        load_manifest(path)
    assert [(i.line, i.column, i.code) for i in caught.value.issues] == [(6, 7, "M023")]


def test_crlf_line_endings_keep_positions() -> None:
    text = manifest().replace("type: string", "type: strin").replace("\n", "\r\n")
    with pytest.raises(ManifestInvalidError) as caught:
        load(text)
    assert [(i.line, i.column) for i in caught.value.issues] == [(7, 15)]


def test_a_directory_is_an_unreadable_manifest(tmp_path: Path) -> None:
    with pytest.raises(ManifestSyntaxError) as caught:
        load_manifest(tmp_path)
    assert caught.value.issues[0].code == "M000"


def test_text_over_the_limit_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the text over the limit was parsed")

    monkeypatch.setattr(load_module, "compose", never)
    with pytest.raises(ManifestSyntaxError) as caught:
        load("[" * (MAX_BYTES + 1))
    assert caught.value.issues[0].code == "M006"
    with pytest.raises(ManifestSyntaxError):
        load("é" * (MAX_BYTES // 2 + 1))  # characters under the limit, bytes over


def test_a_file_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    text = manifest()
    path = tmp_path / "full.yaml"
    path.write_bytes(text.encode() + b"#" * (MAX_BYTES - len(text.encode())))
    assert load_manifest(path).name == "shop_admin"


def test_syntax_and_schema_problems_are_different_classes() -> None:
    with pytest.raises(ManifestSyntaxError):
        load("a: &x 1")
    with pytest.raises(ManifestInvalidError):
        load("a: 1")
    assert issubclass(ManifestSyntaxError, ManifestError)
    assert issubclass(ManifestInvalidError, ValueError)


def test_problems_are_sorted_by_position_and_all_reported() -> None:
    resources = {
        "Zeta": {"fields": {"a": {"type": "strin"}}},
        "Alpha": {"fields": {"b": {"type": "integer", "relation": "Nope"}}},
        "Mid": {"fields": {"class": {"type": "string"}}, "search": ["zzz"]},
    }
    with pytest.raises(ManifestInvalidError) as caught:
        load(manifest(resources))
    issues = caught.value.issues
    assert [i.code for i in issues] == ["M010", "M021", "M023", "M022"]
    assert [(i.line, i.column) for i in issues] == sorted(
        (i.line, i.column) for i in issues
    )


def _wide_manifest(count: int) -> str:
    fields = {
        "title": {"type": "string", "maxLength": 200},
        "pages": {"type": "integer", "minimum": 1},
        "genre": {"type": "string", "enum": ["a", "b", "c"]},
        "on": {"type": "string", "format": "date"},
        "ok": {"type": "boolean", "default": True},
    }
    resources = {
        f"Res{i}": {
            "fields": {
                **copy.deepcopy(fields),
                "parent": {"type": "integer", "relation": f"Res{i // 2}"},
            },
            "required": ["title"],
            "search": ["title"],
            "query_tags": {"ok": {"filter": {"ok": True}}},
        }
        for i in range(count)
    }
    return manifest(resources)


def _python_calls(text: str) -> int:
    """How many Python function calls loading ``text`` makes (a count, not a time)."""
    calls = 0

    def count(_frame: object, event: str, _arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        project = load(text)
    finally:
        sys.setprofile(None)
    assert project.resources
    return calls


def test_a_500_resource_manifest_loads_in_linear_work() -> None:
    """Loading 500 resources costs about five times what 100 cost, never 25 times.

    The work is counted in Python calls, so a loaded machine cannot make it fail
    (the old 2-second bound did); the wall time lives in tests/benchmarks.
    """
    small, large = _wide_manifest(100), _wide_manifest(500)
    assert len(load(large).resources) == 500  # also warms the schema validator
    load(small)
    ratio = _python_calls(large) / _python_calls(small)
    # linear work gives ~5; any work quadratic in the resources gives ~25
    assert ratio < 7.5, f"loading 5x the resources made {ratio:.1f}x the calls"
