"""Name rules (manifest.identifiers) and message helpers (manifest.hints)."""

from __future__ import annotations

import pytest

from generator.manifest import hints, identifiers
from generator.spec.openapi import load_kernel

RENAME = "rename it; 'label' keeps what the panel shows"


@pytest.mark.parametrize("name", ["title", "published_on", "a1", "type_name", "x" * 63])
def test_good_field_names(name: str) -> None:
    assert identifiers.field_problem(name) is None


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("Title", "did you mean 'title'?"),
        ("publishedOn", "did you mean 'published_on'?"),
        ("a__b", "use 'a_b'"),
        ("ab_", "use 'ab'"),
        ("_a", "did you mean 'a'?"),
        ("1st", None),
        ("class", None),
        ("type", None),
        ("json", RENAME),
        ("model_dump", RENAME),
        ("objects", RENAME),
        ("sa", RENAME),
        ("mapped_column", RENAME),
        ("models", RENAME),
        ("ctid", RENAME),
        ("xmin", RENAME),
        ("x" * 64, None),
    ],
)
def test_bad_field_names(name: str, hint: str | None) -> None:
    problem = identifiers.field_problem(name)
    assert problem is not None
    assert problem[1] == hint


def test_reserved_words_say_why() -> None:
    assert identifiers.field_problem("metadata") == (
        "'metadata' is used by SQLAlchemy models; please choose another name",
        RENAME,
    )
    assert identifiers.field_problem("ctid") == (
        "'ctid' is used by PostgreSQL (a system column); please choose another name",
        RENAME,
    )
    assert identifiers.project_problem("django") == (
        "'django' is a module generated projects use; please choose another name",
        None,
    )
    message, _ = identifiers.project_problem("typing") or ("", None)
    assert "standard library" in message


@pytest.mark.parametrize("name", ["Book", "BookAuthor", "HTTPThing", "A1"])
def test_good_resource_names(name: str) -> None:
    assert identifiers.resource_problem(name) is None


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("book", "did you mean 'Book'?"),
        ("book_author", "did you mean 'BookAuthor'?"),
        ("Book-Author", "did you mean 'BookAuthor'?"),
        ("", None),
        ("True", None),
        ("Date", None),
    ],
)
def test_bad_resource_names(name: str, hint: str | None) -> None:
    problem = identifiers.resource_problem(name)
    assert problem is not None and problem[1] == hint


def test_tag_and_table_names() -> None:
    assert identifiers.tag_problem("in-stock") is None
    assert identifiers.tag_problem("In Stock") == (
        "'In Stock' is not a kebab-case URI, like 'in-stock'",
        "did you mean 'in-stock'?",
    )
    assert identifiers.table_problem("books") is None
    assert identifiers.table_problem("alembic_version") is not None
    assert identifiers.table_problem("auth_user") is not None
    assert identifiers.table_problem("panel_users") is not None


def test_soft_keywords_do_not_depend_on_the_running_python() -> None:
    assert {"match", "case", "type", "_"} <= identifiers.KEYWORDS


def test_shown_quotes_and_shortens() -> None:
    assert hints.shown("abc") == "'abc'"
    assert hints.shown("a\nb\tc") == "'a\\nb\\tc'"
    long = hints.shown("x" * 100)
    assert len(long) == 42 and long.endswith("...'")


@pytest.mark.parametrize(
    ("word", "match"),
    [
        ("integr", "integer"),
        ("String", "string"),
        ("max_length", "maxLength"),
        ("read-only", "readOnly"),
        ("zzz", None),
    ],
)
def test_close_match(word: str, match: str | None) -> None:
    choices = ["string", "integer", "maxLength", "readOnly"]
    assert hints.close_match(word, choices) == match


def test_did_you_mean_ignores_an_exact_match() -> None:
    assert hints.did_you_mean("integer", ["integer"]) is None


def test_listing_hint_stays_on_one_line() -> None:
    names = [f"resource_number_{i}" for i in range(30)]
    hint = hints.listing_hint("declared resources are", names)
    assert hint is not None and hint.endswith("more") and len(hint) <= 100
    assert hints.listing_hint("x", []) is None
    assert hints.listing_hint("are", ["A", "B"]) == "are 'A', 'B'"


def test_reserved_method_names_are_what_the_kernel_resource_has() -> None:
    resource = load_kernel().resource.Resource
    kernel = {
        name
        for base in resource.__mro__[:-1]
        for name in [*vars(base), *base.__annotations__]
        if not name.startswith("_")
    }
    # The customisation names are the runtime's (issue 13): reserved whether or not
    # the kernel in this checkout has them yet.
    assert kernel | identifiers.CUSTOMISATION_NAMES == identifiers.RESERVED_METHODS
    assert identifiers.method_problem("publish") is None
    assert identifiers.method_problem("scope") == (
        "'scope' is a name every resource already has; please choose another name",
        None,
    )
    assert identifiers.method_problem("delete") == (
        "'delete' is an ability every resource has (roles grant it); please choose "
        "another name",
        None,
    )
    assert identifiers.method_problem("url") == (
        "'url' is a name every resource already has; please choose another name",
        None,
    )
