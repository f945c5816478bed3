"""``inspect``'s pure parts: URLs, type and default mapping, names, YAML text."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from sqlalchemy.dialects import mysql, postgresql

from generator.errors import DatabaseUrlError
from generator.introspect.catalog import Catalog, Column, ForeignKey, Table
from generator.introspect.checks import enum_check
from generator.introspect.names import field_name, project_name, resource_name, singular
from generator.introspect.resources import build_manifest
from generator.introspect.types import (
    Unsupported,
    domain_check,
    field_default,
    field_type,
)
from generator.introspect.urls import masked_url, parse_database_url
from generator.introspect.yamltext import manifest_text


def _column(column_type: Any, **options: Any) -> Column:
    values = {"nullable": True, "default": None, "generated": False, **options}
    return Column("c", column_type, **values)


@pytest.mark.parametrize(
    ("column_type", "backend", "expected"),
    [
        (sa.Integer(), "postgresql", {"minimum": -(2**31), "maximum": 2**31 - 1}),
        (sa.Integer(), "sqlite", {}),  # SQLite's INTEGER is 64-bit
        (sa.BigInteger(), "postgresql", {}),
        (sa.SmallInteger(), "postgresql", {"minimum": -32768, "maximum": 32767}),
        (mysql.INTEGER(unsigned=True), "mysql", {"minimum": 0, "maximum": 2**32 - 1}),
        (mysql.TINYINT(), "mysql", {"minimum": -128, "maximum": 127}),
        (mysql.MEDIUMINT(), "mysql", {"minimum": -(2**23), "maximum": 2**23 - 1}),
    ],
)
def test_integer_ranges(column_type: Any, backend: str, expected: dict) -> None:
    assert field_type(_column(column_type), backend) == {"type": "integer", **expected}


@pytest.mark.parametrize(
    ("column_type", "expected"),
    [
        (sa.Boolean(), {"type": "boolean"}),
        (mysql.TINYINT(display_width=1), {"type": "boolean"}),
        (
            sa.Numeric(10, 2),
            {"type": "number", "format": "decimal", "precision": 10, "scale": 2},
        ),
        (
            sa.Numeric(12),
            {"type": "number", "format": "decimal", "precision": 12, "scale": 0},
        ),
        (sa.Numeric(), {"type": "number", "format": "decimal"}),
        (sa.Float(), {"type": "number"}),
        (postgresql.DOUBLE_PRECISION(), {"type": "number"}),
        (sa.String(80), {"type": "string", "maxLength": 80}),
        (sa.CHAR(2), {"type": "string", "maxLength": 2}),
        (sa.String(), {"type": "string"}),
        (sa.Text(), {"type": "string", "format": "text"}),
        (mysql.LONGTEXT(), {"type": "string", "format": "text"}),
        (sa.Uuid(), {"type": "string", "format": "uuid"}),
        (postgresql.UUID(), {"type": "string", "format": "uuid"}),
        (sa.Date(), {"type": "string", "format": "date"}),
        (sa.DateTime(), {"type": "string", "format": "date-time"}),
        (
            postgresql.TIMESTAMP(timezone=True),
            {"type": "string", "format": "date-time"},
        ),
        (mysql.TIMESTAMP(), {"type": "string", "format": "date-time"}),
        (postgresql.ENUM("a", "b", name="e"), {"type": "string", "enum": ["a", "b"]}),
        (mysql.ENUM("on", "off"), {"type": "string", "enum": ["on", "off"]}),
    ],
)
def test_types(column_type: Any, expected: dict) -> None:
    assert field_type(_column(column_type), "postgresql") == expected


@pytest.mark.parametrize(
    ("column_type", "reason"),
    [
        (sa.LargeBinary(), "type 'BLOB' is not supported"),
        (sa.Time(), "type 'TIME' is not supported"),
        (postgresql.JSONB(), "type 'JSONB' is not supported"),
        (sa.Numeric(50, 2), "NUMERIC(50, 2) has more digits than a manifest decimal"),
        (sa.Numeric(20, 31), "NUMERIC(20, 31) has more digits than a manifest decimal"),
        (sa.types.NullType(), "type 'NULL' is not supported"),
    ],
)
def test_unsupported_types(column_type: Any, reason: str) -> None:
    found = field_type(_column(column_type), "postgresql")
    assert isinstance(found, Unsupported) and found.reason.startswith(reason)


def test_an_unknown_type_is_named() -> None:
    column = _column(sa.types.NullType(), type_name="point")
    assert field_type(column, "postgresql") == Unsupported(
        "type 'point' is not supported"
    )


@pytest.mark.parametrize(
    ("options", "default", "expected"),
    [
        ({"type": "string", "format": "date-time"}, "now()", {"default_sql": "now()"}),
        (
            {"type": "string", "format": "date-time"},
            "CURRENT_TIMESTAMP",
            {"default_sql": "now()"},
        ),
        (
            {"type": "string", "format": "date-time"},
            "current_timestamp()",
            {"default_sql": "now()"},
        ),
        (
            {"type": "string", "format": "date-time"},
            "CURRENT_TIMESTAMP(6)",
            {"default_sql": "now()"},
        ),
        (
            {"type": "string", "format": "date"},
            "CURRENT_DATE",
            {"default_sql": "current_date"},
        ),
        (
            {"type": "string", "format": "date"},
            "curdate()",
            {"default_sql": "current_date"},
        ),
        ({"type": "string"}, "'draft'::book_status", {"default": "draft"}),
        ({"type": "string"}, "'it''s'", {"default": "it's"}),
        ({"type": "string"}, "'0755'::character varying", {"default": "0755"}),
        ({"type": "integer"}, "0", {"default": 0}),
        ({"type": "integer"}, "'-3'", {"default": -3}),
        ({"type": "number", "format": "decimal"}, "9.99", {"default": 9.99}),
        ({"type": "number"}, "'1.5'::numeric", {"default": 1.5}),
        ({"type": "boolean"}, "true", {"default": True}),
        ({"type": "boolean"}, "1", {"default": True}),
        ({"type": "boolean"}, "'0'", {"default": False}),
        ({"type": "string"}, "NULL", {}),
        ({"type": "string"}, None, {}),
    ],
)
def test_defaults(options: dict, default: str | None, expected: dict) -> None:
    assert field_default(_column(sa.String(), default=default), options) == expected


@pytest.mark.parametrize(
    ("options", "default"),
    [
        ({"type": "string", "format": "uuid"}, "gen_random_uuid()"),
        ({"type": "string"}, "lower('X')"),
        ({"type": "integer"}, "1.5"),
        ({"type": "string", "format": "date"}, "now()"),  # not what a date says
        ({"type": "boolean"}, "'maybe'"),
    ],
)
def test_defaults_the_manifest_cannot_say(options: dict, default: str) -> None:
    found = field_default(_column(sa.String(), default=default), options)
    assert found == Unsupported(
        f"the server default {default} cannot be said in a manifest"
    )


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("books", "book"),
        ("categories", "category"),
        ("boxes", "box"),
        ("addresses", "address"),
        ("statuses", "status"),
        ("status", "status"),
        ("analysis", "analysis"),
        ("people", "people"),
        ("glass", "glass"),
        ("days", "day"),
    ],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("books", "Book"),
        ("book_authors", "BookAuthor"),
        ("Artist", "Artist"),
        ("InvoiceLine", "InvoiceLine"),
        ("order items", "OrderItem"),
        ("sessions", "SessionRecord"),  # Session is a name generated code imports
        ("2fa_codes", "Table2faCode"),
    ],
)
def test_resource_names(table: str, expected: str) -> None:
    assert resource_name(table, set()) == expected


def test_resource_names_are_unique_without_regard_to_case() -> None:
    taken: set[str] = set()
    assert [resource_name(t, taken) for t in ("book", "books", "Books")] == [
        "Book",
        "Book2",
        "Book3",
    ]


@pytest.mark.parametrize(
    ("column", "expected"),
    [
        ("title", "title"),
        ("ArtistId", "artist_id"),
        ("First Name", "first_name"),
        ("unit-price", "unit_price"),
        ("price$", "price"),
        ("type", "type_value"),  # a soft keyword
        ("metadata", "metadata_value"),  # SQLAlchemy's
        ("model_name", "field_model_name_value"),  # Pydantic's
        ("id", "id_value"),  # only the key may be id
        ("2nd", "field_2nd"),
        ("a__b_", "a_b"),
    ],
)
def test_field_names(column: str, expected: str) -> None:
    assert field_name(column, set()) == expected


def test_field_names_are_unique() -> None:
    taken: set[str] = set()
    assert [field_name(c, taken) for c in ("ArtistId", "artist_id")] == [
        "artist_id",
        "artist_id_2",
    ]


@pytest.mark.parametrize(
    ("database", "expected"),
    [
        ("shop", "shop_admin"),
        ("Chinook", "chinook_admin"),
        ("my-shop", "my_shop_admin"),
        ("", "inspected_admin"),
        ("9lives", "inspected_admin"),
    ],
)
def test_project_names(database: str, expected: str) -> None:
    assert project_name(database) == expected


@pytest.mark.parametrize(
    ("text", "backend", "engine_url"),
    [
        (
            "postgresql://u:p@h:5432/db",
            "postgresql",
            "postgresql+psycopg://u:p@h:5432/db",
        ),
        ("postgres://u@h/db", "postgresql", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg2://u@h/db", "postgresql", "postgresql+psycopg2://u@h/db"),
        ("mysql://root@h:3306/db", "mysql", "mysql+pymysql://root@h:3306/db"),
        ("mariadb://root@h/db", "mysql", "mysql+pymysql://root@h/db"),
        ("mysql+pymysql://root@h/db", "mysql", "mysql+pymysql://root@h/db"),
        ("sqlite:///shop.db", "sqlite", "sqlite:///shop.db"),
        ("sqlite:////abs/shop.db", "sqlite", "sqlite:////abs/shop.db"),
    ],
)
def test_url_spellings(text: str, backend: str, engine_url: str) -> None:
    url = parse_database_url(text)
    assert (url.backend, url.engine_url) == (backend, engine_url)


@pytest.mark.parametrize(
    "text", ["shop.db", "://x", "oracle://h/x", "sqlite://", "sqlite:///:memory:"]
)
def test_urls_refused(text: str) -> None:
    with pytest.raises(DatabaseUrlError):
        parse_database_url(text)


def test_database_names_and_masks() -> None:
    assert parse_database_url("sqlite:////data/Chinook.sqlite").database_name == (
        "Chinook"
    )
    assert parse_database_url("postgres://u:p@h/shop").database_name == "shop"
    assert masked_url("postgresql://app:s3cret@db:5432/x") == (
        "postgresql://app:***@db:5432/x"
    )
    assert masked_url("mysql://root@h/x") == "mysql://root@h/x"
    assert masked_url("postgresql://u:p@[bad/x") == "[bad/x"


def _table(name: str, *columns: Column, **options: Any) -> Table:
    values = {
        "primary_key": ("id",),
        "foreign_keys": (),
        "unique": (),
        "unusable_unique": (),
        "checks": (),
        **options,
    }
    return Table(name, columns, **values)


def test_build_manifest_and_its_text() -> None:
    key = Column("id", sa.Integer(), nullable=False, default=None, generated=True)
    title = Column(
        "title", sa.String(20), nullable=False, default=None, generated=False
    )
    parent = Column(
        "parent_id", sa.Integer(), nullable=True, default=None, generated=False
    )
    catalog = Catalog(
        "postgresql",
        (
            _table(
                "pages",
                key,
                title,
                parent,
                foreign_keys=(ForeignKey(("parent_id",), "pages", ("id",), "CASCADE"),),
                unusable_unique=("pages_lower_title",),
                comment="Pages: of the site",
            ),
        ),
    )
    inspection = build_manifest(catalog, "site")
    assert inspection.manifest == {
        "project": {"name": "site_admin"},
        "resources": {
            "Page": {
                "fields": {
                    "title": {"type": "string", "maxLength": 20},
                    "parent_id": {
                        "type": "integer",
                        "relation": "Page",
                        "on_delete": "cascade",
                        "nullable": True,
                    },
                },
                "required": ["title"],
                "display": "title",
                # the table exists: its 32-bit keys said, so the models match it
                "adopted": {"int32": ["id", "parent_id"]},
            }
        },
    }
    text = manifest_text(
        inspection,
        source="postgresql://u:***@h/site",
        backend="PostgreSQL",
        output=None,
    )
    assert text.startswith(
        "# Generated by `panelforge inspect` from postgresql://u:***@h/site\n"
    )
    assert (
        "#   - pages: the partial or expression unique index pages_lower_title" in text
    )
    assert "  # Pages: of the site\n  Page:\n" in text
    assert yaml.safe_load(text) == inspection.manifest


def test_keys_the_database_does_not_assign_are_noted() -> None:
    code = Column("code", sa.Integer(), nullable=False, default=None, generated=False)
    uuid = Column("id", sa.Uuid(), nullable=False, default=None, generated=False)
    catalog = Catalog(
        "postgresql",
        (
            _table("codes", code, primary_key=("code",)),
            _table("tokens", uuid),
        ),
    )
    inspection = build_manifest(catalog, "x")
    assert inspection.notes == (
        "codes.code: the database does not assign this integer key (no sequence, "
        "identity or auto-increment); the panel expects it to",
    )
    resources = inspection.manifest["resources"]
    assert resources["Code"] == {
        "key": "code",
        "fields": {"code": {"type": "integer"}},
        "adopted": {"int32": ["code"]},
    }
    assert resources["Token"] == {
        "key": "id",
        "fields": {"id": {"type": "string", "format": "uuid"}},
        "adopted": True,  # as panelforge would make it
    }


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("status IN ('draft', 'published')", ("status", ["draft", "published"])),
        ('"n" IN (1, 2, -3)', ("n", [1, 2, -3])),
        ("(`s` in ('a','b','it\\'s'))", ("s", ["a", "b", "it's"])),  # MariaDB
        ("s in ('a','it''s')", ("s", ["a", "it's"])),
        (
            "(status)::text = ANY ((ARRAY['a'::character varying, "
            "'b]'::character varying])::text[])",
            ("status", ["a", "b]"]),
        ),
        (
            "s::text = ANY (ARRAY['a'::character varying, 'b'::character varying]"
            "::text[])",
            ("s", ["a", "b"]),
        ),
        ("n = ANY (ARRAY[1, 2])", ("n", [1, 2])),
        ("price >= 0", None),
        ("s IN ('a', 1)", None),  # mixed types
        ("s IN ('a', 'a')", None),  # repeated
        ("s IN (select x from t)", None),
        ("s IN ('a') OR s IS NULL", None),
    ],
)
def test_enum_checks(sql: str, expected: Any) -> None:
    assert enum_check(sql) == expected


def test_a_check_of_listed_values_is_an_enum() -> None:
    key = Column("id", sa.Integer(), nullable=False, default=None, generated=True)
    size = Column("size", sa.String(2), nullable=False, default=None, generated=False)
    rank = Column("rank", sa.Integer(), nullable=True, default=None, generated=False)
    day = Column("day", sa.Date(), nullable=True, default=None, generated=False)
    checks = ("size IN ('S', 'M')", "rank IN (1, 2)", "day IN ('x')", "rank > 0")
    catalog = Catalog(
        "postgresql", (_table("shirts", key, size, rank, day, checks=checks),)
    )
    inspection = build_manifest(catalog, "x")
    fields = inspection.manifest["resources"]["Shirt"]["fields"]
    assert fields["size"] == {"type": "string", "enum": ["S", "M"], "maxLength": 2}
    # The enum replaces the integer column's range.
    assert fields["rank"] == {"type": "integer", "enum": [1, 2], "nullable": True}
    assert inspection.notes == (
        "shirts: CHECK (day IN ('x')) is not expressed (the database still checks it)",
        "shirts: CHECK (rank > 0) is not expressed (the database still checks it)",
    )


def test_a_domain_is_its_base_type_and_its_check_a_note() -> None:
    domain = postgresql.DOMAIN("email", sa.String(200), check="VALUE LIKE '%@%'")
    column = _column(domain)
    assert field_type(column, "postgresql") == {"type": "string", "maxLength": 200}
    assert domain_check(column) == "email: CHECK (VALUE LIKE '%@%')"
    assert domain_check(_column(sa.String())) is None


@pytest.mark.parametrize(
    ("default", "expected"),
    [
        ("'2024-01-01 00:00:00+00'::timestamp with time zone", "2024-01-01T00:00:00Z"),
        ("'2024-01-01 12:30:00'", "2024-01-01T12:30:00"),
        ("'2024-01-01 12:30:00+02'", "2024-01-01T12:30:00+02:00"),
    ],
)
def test_date_time_defaults_are_written_as_the_manifest_reads_them(
    default: str, expected: str
) -> None:
    options = {"type": "string", "format": "date-time"}
    found = field_default(_column(sa.DateTime(), default=default), options)
    assert found == {"default": expected}
