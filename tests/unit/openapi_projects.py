"""Hand-built IR projects for the spec tests: the two examples and synthetic ones."""

from __future__ import annotations

from typing import Any

from generator.model import ir, naming


def field(name: str, type_: ir.FieldType = "string", **options: Any) -> ir.Field:
    """A manifest field with the default label."""
    options.setdefault("label", naming.humanize(name))
    return ir.Field(name=name, type=type_, **options)


KEY = ir.Field(name="id", type="integer", label="ID", read_only=True, is_key=True)


def resource(
    name: str, *fields: ir.Field, key: ir.Field = KEY, **options: Any
) -> ir.Resource:
    """A resource with panelforge's default names and (by default) an ``id`` key."""
    defaults: dict[str, Any] = {
        "uri": naming.resource_uri(name),
        "title": naming.plural(name),
        "module": naming.snake(name),
        "table": naming.table_name(name),
        "class_name": naming.pascal(name) + "Resource",
        "model_name": naming.pascal(name),
        "key": key.name,
        "default_sort": "-" + key.name,
    }
    return ir.Resource(name=name, fields=(key, *fields), **{**defaults, **options})


def project(
    *resources: ir.Resource, jwt: bool = False, version: str = "3.1.0"
) -> ir.Project:
    """A FastAPI project around ``resources``."""
    return ir.Project(
        name="test_admin",
        title="Test admin",
        framework="fastapi",
        resources=resources,
        auth=ir.Auth(jwt=jwt),
        docs=ir.Docs(openapi_version=version),
    )


def library(*, jwt: bool = False, version: str = "3.1.0") -> ir.Project:
    """``examples/library.yaml`` as IR."""
    author = resource(
        "Author",
        field("name", min_length=1, max_length=120, required=True),
        field("email", format="email"),
        field("website", format="uri", nullable=True),
        field("born_on", format="date", description="Date of birth"),
        title="Authors",
        search=("name", "email"),
    )
    book = resource(
        "Book",
        field("title", max_length=200, required=True),
        field("isbn", pattern="^[0-9]{13}$", description="ISBN-13 without dashes"),
        field("pages", "integer", minimum=1, maximum=10000),
        field("price", "number", minimum=0),
        field("available", "boolean", default=True),
        field("genre", enum=("fiction", "science", "history")),
        field("published_on", format="date"),
        field("summary", format="text", nullable=True, sortable=False),
        field("author", "integer", relation="Author"),
        uri="book-resource",
        title="Books",
        search=("title", "isbn"),
        query_tags=(
            ir.QueryTag("available", "Available", (("available", True),)),
            ir.QueryTag("science", "Science", (("genre", "science"),)),
        ),
        methods=("publish",),
    )
    member = resource(
        "Member",
        field("email", format="email", required=True),
        field("token", format="uuid", read_only=True),
        field("password", format="password", min_length=8, required=True),
        field("joined_at", format="date-time"),
        field("rating", "integer", enum=(1, 2, 3, 4, 5)),
        title="Members",
        search=("email",),
    )
    return ir.Project(
        name="library_admin",
        title="Library admin",
        framework="fastapi",
        resources=(author, book, member),
        auth=ir.Auth(jwt=jwt),
        docs=ir.Docs(openapi_version=version),
        manifest_name="library.yaml",
    )


def todo(*, jwt: bool = False, version: str = "3.1.0") -> ir.Project:
    """``examples/todo.yaml`` as IR."""
    task = resource(
        "Task",
        field("title", max_length=120, required=True),
        field("done", "boolean", default=False),
        field("due_on", format="date"),
        title="Tasks",
        search=("title",),
        query_tags=(ir.QueryTag("open", "Open", (("done", False),)),),
    )
    return ir.Project(
        name="todo_admin",
        title="Todo admin",
        framework="fastapi",
        resources=(task,),
        auth=ir.Auth(jwt=jwt),
        docs=ir.Docs(openapi_version=version),
        manifest_name="todo.yaml",
    )


def synthetic(count: int, *, jwt: bool = True, version: str = "3.1.0") -> ir.Project:
    """``count`` resources of eight varied fields each, for timing and scale tests."""
    resources = []
    for index in range(count):
        resources.append(
            resource(
                f"Thing{index}",
                field("title", max_length=200, required=True),
                field("code", pattern="^[A-Z]{3}$"),
                field("quantity", "integer", minimum=0),
                field("price", "number", minimum=0),
                field("active", "boolean", default=True),
                field("kind", enum=("a", "b", "c")),
                field("created_on", format="date"),
                field("notes", format="text", nullable=True),
                title=f"Things {index}",
                search=("title",),
                query_tags=(ir.QueryTag("active", "Active", (("active", True),)),),
            )
        )
    return project(*resources, jwt=jwt, version=version)
