"""What a history row says (``panel_core/history.py``) and how pages show it
(``panel_core/history_pages.py``). The rows the served apps write, on every write
path of both frameworks, are tested in tests/conformance/test_history.py."""

from __future__ import annotations

import datetime
import decimal
import importlib
import json
from types import SimpleNamespace
from typing import Any

import pytest

from generator.spec.openapi import KERNEL_PACKAGE, load_kernel


@pytest.fixture(scope="module")
def kernel() -> SimpleNamespace:
    kinds = load_kernel().fields
    resource = importlib.import_module(f"{KERNEL_PACKAGE}.resource")

    class NoteResource(resource.Resource):
        uri = "note-resource"
        name = "Note"
        display = "{title}"
        fields = (
            kinds.Integer("id", key=True),
            kinds.Text("title"),
            kinds.Password("password"),
            kinds.Select(
                "status", options=("draft", "done"), option_labels=(("done", "Done"),)
            ),
            kinds.DateTime("due", nullable=True),
            kinds.Decimal("price", scale=2, nullable=True),
        )

    return SimpleNamespace(
        history=importlib.import_module(f"{KERNEL_PACKAGE}.history"),
        pages=importlib.import_module(f"{KERNEL_PACKAGE}.history_pages"),
        Note=NoteResource,
    )


BEFORE = {"id": 7, "title": "Dune", "status": "draft", "due": None, "price": None}


def test_a_create_records_every_value_but_the_key_and_hides_the_password(
    kernel: Any,
) -> None:
    user = SimpleNamespace(id=3, email="ada@example.com")
    written = {"title": "Dune", "password": "hashed-or-not"}
    entry = kernel.history.created(kernel.Note, BEFORE, written, user)
    assert (entry.action, entry.record_key, entry.record_label) == (
        "created",
        "7",
        "Dune",
    )
    assert (entry.user_id, entry.user_login) == ("3", "ada@example.com")
    assert entry.changes == {
        "title": [None, "Dune"],
        "password": None,
        "status": [None, "draft"],
    }
    assert entry.at.tzinfo is not None
    assert "hashed-or-not" not in kernel.history.row_values(entry)["changes"]


def test_an_update_records_what_changed_and_nothing_when_nothing_did(
    kernel: Any,
) -> None:
    due = datetime.datetime(2026, 3, 4, 5, 6, 7)  # naive: stored in UTC
    after = {
        **BEFORE,
        "title": "Dune Messiah",
        "due": due,
        "price": decimal.Decimal("7.00"),
    }
    entry = kernel.history.updated(kernel.Note, BEFORE, after, after, None)
    assert entry.changes == {
        "title": ["Dune", "Dune Messiah"],
        "due": [None, "2026-03-04T05:06:07+00:00"],
        "price": [None, "7.00"],
    }
    assert (entry.user_id, entry.user_login) == (None, "")
    assert kernel.history.updated(kernel.Note, BEFORE, dict(BEFORE), {}, None) is None
    secret = kernel.history.updated(
        kernel.Note, BEFORE, dict(BEFORE), {"password": "x"}, None
    )
    assert secret.changes == {"password": None}


def test_pages_show_changes_as_cells_do(kernel: Any) -> None:
    row = {
        "at": datetime.datetime(2026, 1, 2, 3, 4, 59, tzinfo=datetime.UTC),
        "user_login": "ada@example.com",
        "action": "updated",
        "changes": json.dumps(
            {
                "status": ["draft", "done"],
                "due": [None, "2026-03-04T05:06:07+00:00"],
                "price": ["1234.5", "7"],
                "password": None,
                "gone": [1, 2],
            }
        ),
    }
    (shown,) = kernel.pages.record_history(kernel.Note, [row])
    assert (shown["when"], shown["who"], shown["action"]) == (
        "2026-01-02 03:04 UTC",
        "ada@example.com",
        "updated",
    )
    assert shown["changes"] == [
        "Status: draft → Done",
        "Due: — → 2026-03-04 05:06 UTC",
        "Price: 1,234.50 → 7.00",
        "Password: changed",
        "gone: 1 → 2",  # a field since removed: by its name
    ]


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("90d", datetime.timedelta(days=90)),
        ("12h", datetime.timedelta(hours=12)),
        ("30m", datetime.timedelta(minutes=30)),
        ("2w", datetime.timedelta(weeks=2)),
    ],
)
def test_prune_durations(kernel: Any, text: str, age: datetime.timedelta) -> None:
    assert kernel.history.parse_age(text) == age


@pytest.mark.parametrize("text", ["90", "d", "-3d", "90y", "1.5d", "", "9999999d"])
def test_a_bad_duration_says_how_to_write_one(kernel: Any, text: str) -> None:
    with pytest.raises(
        ValueError, match="is not a duration: write a number and a unit"
    ):
        kernel.history.parse_age(text)


@pytest.mark.parametrize("length", [1, 199, 200, 201, 5000])
def test_every_key_fits_the_column_and_finds_its_own_rows(
    kernel: Any, length: int
) -> None:
    history = kernel.history
    key = "k" * (length - 1) + "!"
    stored = history.stored_key(key)
    assert len(stored) <= history.KEY_SIZE
    assert (stored == key) is (length <= history.KEY_SIZE)
    assert history.is_whole_key(stored) is (length <= history.KEY_SIZE)
    other = history.stored_key("k" * (length - 1) + "?")
    assert other != stored  # keys that share a long start stay apart
