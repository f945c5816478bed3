"""The change plan: how each manifest change is classified, refused or accepted."""

from __future__ import annotations

import pytest

from generator.errors import OutputError
from generator.manifest.load import parse_manifest
from generator.regen.change_plan import migration_checks, plan_changes
from generator.regen.column_changes import DATA, DESTRUCTIVE, SAFE, moved_values
from generator.regen.migrations import diff_schema

BASE = """
project: {name: desk_admin}
resources:
  Ticket:
    fields:
      title: {type: string, maxLength: 40}
      status: {type: string, enum: [open, waiting_for_customer, closed]}
      ref: {type: string, maxLength: 20}
      notes: {type: string, format: text}
      priority: {type: integer}
      estimate: {type: number}
    required: [title]
"""


def project(text: str = BASE):
    return parse_manifest(text, "desk.yaml")


def plan(after: str, allow_drop: tuple[str, ...] = ()):
    return plan_changes(diff_schema(project(), project(after)), allow_drop)


def edited(*replacements: tuple[str, str]) -> str:
    text = BASE
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


def kinds(result) -> list[tuple[str, str]]:
    return [(c.kind, c.text) for c in result.changes]


def test_the_same_manifest_plans_nothing() -> None:
    assert plan(BASE).changes == ()


@pytest.mark.parametrize(
    ("replacement", "expected"),
    [
        (("maxLength: 40", "maxLength: 60"), []),  # wider: nothing to say
        (
            ("maxLength: 40", "maxLength: 10"),
            [(DATA, "narrow tickets.title to 10 characters")],
        ),
        (
            ("priority: {type: integer}", "priority: {type: number}"),
            [(SAFE, "change tickets.priority from integer to number")],
        ),
        (
            ("estimate: {type: number}", "estimate: {type: integer}"),
            [(DATA, "change tickets.estimate from number to integer")],
        ),
        (
            ("ref: {type: string, maxLength: 20}", "ref: {type: integer}"),
            [(DATA, "change tickets.ref from string to integer")],
        ),
        (
            ("closed]", "closed, archived]"),
            [],  # a new value: the column widens, nothing is lost
        ),
        (
            ("waiting_for_customer, ", ""),
            [(DATA, "remove tickets.status values 'waiting_for_customer'")],
        ),
        (
            ("required: [title]", "required: [title, priority]"),
            [(DATA, "make tickets.priority required")],
        ),
    ],
)
def test_each_change_is_classified(
    replacement: tuple[str, str], expected: list[tuple[str, str]]
) -> None:
    assert kinds(plan(edited(replacement))) == expected


def test_a_dropped_field_is_refused_unless_accepted() -> None:
    after = edited(("      notes: {type: string, format: text}\n", ""))
    refused = plan(after)
    assert [c.kind for c in refused.refused] == [DESTRUCTIVE]
    with pytest.raises(OutputError) as caught:
        refused.refuse_if_needed()
    message = str(caught.value)
    assert "resources.Ticket.fields.notes: drop column tickets.notes" in message
    assert "--allow-drop Ticket.notes" in message
    assert plan(after, ("Ticket.notes",)).refused == ()
    assert plan(after, ("Ticket",)).refused == ()  # the whole resource may go


def test_a_field_of_the_same_shape_is_suggested_as_a_rename() -> None:
    after = edited(
        ("notes: {type: string, format: text}", "remarks: {type: string, format: text}")
    )
    (refusal,) = plan(after).refused
    assert (
        "add 'renamed_from: notes' to resources.Ticket.fields.remarks" in refusal.hint
    )


def test_a_renamed_resource_without_renamed_from_is_refused_with_a_hint() -> None:
    after = BASE.replace("Ticket", "Issue")
    (refusal,) = plan(after).refused
    assert refusal.text == "drop table tickets (resource Ticket) and all its rows"
    assert "add 'renamed_from: Ticket' to resources.Issue" in refusal.hint


def test_renamed_from_renames_the_table_safely() -> None:
    after = BASE.replace("  Ticket:\n", "  Issue:\n    renamed_from: Ticket\n")
    assert kinds(plan(after)) == [(SAFE, "rename table tickets to issues, rows kept")]


def test_renamed_values_move_rows_and_undo_moves_them_back() -> None:
    after = edited(
        (
            "[open, waiting_for_customer, closed]}",
            "[open, waiting], renamed_values: {waiting_for_customer: waiting, "
            "closed: open}}",
        )
    )
    result = plan(after)
    assert result.checks() == ()  # every value that goes has a home
    assert (SAFE, "move tickets.status values 'closed' to 'open'") in kinds(result)
    old = project().resource("Ticket").field("status")
    new = project(after).resource("Ticket").field("status")
    assert moved_values(old, new) == [
        ("waiting_for_customer", "waiting"),
        ("closed", "open"),
    ]
    # undone: 'waiting' had one source and the old enum lacked it; 'open' it had
    assert moved_values(new, old) == [("waiting", "waiting_for_customer")]


def test_data_checks_name_the_table_and_column_as_they_are_before() -> None:
    after = edited(
        ("  Ticket:\n", "  Issue:\n    renamed_from: Ticket\n"),
        (
            "ref: {type: string, maxLength: 20}",
            "reference: {type: integer, renamed_from: ref}",
        ),
    )
    diff = diff_schema(project(), project(after))
    (check,) = migration_checks(diff)
    assert (check.table, check.column, check.kind) == ("tickets", "ref", "integer")
    # undone, the integer goes back into a string of 20: any integer fits
    assert migration_checks(diff.reversed()) == ()


def test_a_new_required_field_needs_an_empty_table_or_a_default() -> None:
    needs_rows = edited(
        (
            "      estimate: {type: number}\n",
            "      estimate: {type: number}\n      due: {type: string, format: date}\n",
        ),
        ("required: [title]", "required: [title, due]"),
    )
    (change,) = plan(needs_rows).changes
    assert change.kind == DATA and change.checks[0].kind == "missing"
    defaulted = needs_rows.replace(
        "format: date}", "format: date, default: '2024-01-01'}"
    )
    assert kinds(plan(defaulted)) == [(SAFE, "add column tickets.due")]


DECIMALS = BASE.replace(
    "      estimate: {type: number}\n",
    "      estimate: {type: number}\n"
    "      cost: {type: number, format: decimal, precision: 10, scale: 2}\n",
)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "estimate: {type: number}",
            "estimate: {type: number, format: decimal, scale: 3}",
            (DATA, "change tickets.estimate from number to decimal(15, 3)", (15, 3)),
        ),
        (
            "priority: {type: integer}",
            "priority: {type: number, format: decimal, precision: 21, scale: 2}",
            (SAFE, "change tickets.priority from integer to decimal(21, 2)", None),
        ),
        (
            "priority: {type: integer}",
            "priority: {type: number, format: decimal, precision: 12, scale: 2}",
            (DATA, "change tickets.priority from integer to decimal(12, 2)", (12, 2)),
        ),
        (
            "precision: 10, scale: 2}",
            "precision: 12, scale: 3}",  # wider on both sides of the point
            (SAFE, "change tickets.cost from decimal(10, 2) to decimal(12, 3)", None),
        ),
        (
            "precision: 10, scale: 2}",
            "precision: 10, scale: 1}",
            (
                DATA,
                "change tickets.cost from decimal(10, 2) to decimal(10, 1)",
                (10, 1),
            ),
        ),
        (
            "precision: 10, scale: 2}",
            "precision: 8, scale: 2}",
            (DATA, "change tickets.cost from decimal(10, 2) to decimal(8, 2)", (8, 2)),
        ),
        (
            "precision: 10, scale: 2}",
            "precision: 10, scale: 3}",  # one whole digit fewer
            (
                DATA,
                "change tickets.cost from decimal(10, 2) to decimal(10, 3)",
                (10, 3),
            ),
        ),
        (
            "cost: {type: number, format: decimal, precision: 10, scale: 2}",
            "cost: {type: number}",  # 10 digits: a double holds them exactly
            (SAFE, "change tickets.cost from decimal(10, 2) to number", None),
        ),
    ],
)
def test_decimal_changes_are_decided_by_the_digits(
    old: str, new: str, expected: tuple[str, str, object]
) -> None:
    assert old in DECIMALS, old
    after = project(DECIMALS.replace(old, new))
    result = plan_changes(diff_schema(project(DECIMALS), after), ())
    [change] = result.changes
    kind, text, argument = expected
    assert (change.kind, change.text) == (kind, text)
    if argument is None:
        assert change.checks == ()
    else:
        [check] = change.checks
        assert (check.kind, check.argument) == ("decimal", argument)
