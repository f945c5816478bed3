"""How list and detail cells show values (``panel_core/table.py`` ``display`` and
``panel_core/cell_text.py``): enum labels, date-times to the minute in UTC, numbers
with thousands separators; the dashboard's counts and metrics alike. The served pages
are tested in tests/conformance/test_formatting.py."""

from __future__ import annotations

import datetime
import decimal
import importlib
from typing import Any

import pytest

from generator.spec.openapi import KERNEL_PACKAGE, load_kernel


@pytest.fixture(scope="module")
def kernel() -> tuple[Any, Any, Any]:
    load_kernel()
    modules = ("fields", "table", "labels")
    return tuple(importlib.import_module(f"{KERNEL_PACKAGE}.{m}") for m in modules)


def _shown(kernel: Any, field: Any, value: Any) -> str:
    return str(kernel[1].display(field, value).text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (12345, "12,345"),
        (-1234567, "-1,234,567"),
        (2024, "2024"),  # four digits: a year, a code, a count read as written
        (-9999, "-9999"),
        (0, "0"),
    ],
)
def test_integers_get_separators_from_five_digits(
    kernel: Any, value: int, text: str
) -> None:
    fields = kernel[0]
    assert _shown(kernel, fields.Integer("copies"), value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1234.5, "1,234.5"),
        (120.0, "120"),
        (1234567.0, "1,234,567"),
        (0.25, "0.25"),
        (-0.0, "0"),
        (1e20, "1e+20"),
    ],
)
def test_floats_drop_a_whole_values_point(kernel: Any, value: float, text: str) -> None:
    fields = kernel[0]
    assert _shown(kernel, fields.Number("weight"), value) == text


def test_decimals_keep_their_scale(kernel: Any) -> None:
    fields = kernel[0]
    price = fields.Decimal("price", precision=12, scale=2)
    assert _shown(kernel, price, decimal.Decimal("1234.5")) == "1,234.50"
    assert _shown(kernel, price, decimal.Decimal("0.00")) == "0.00"
    assert _shown(kernel, price, decimal.Decimal("-12.30")) == "-12.30"
    rate = fields.Decimal("rate", precision=10, scale=4)
    assert _shown(kernel, rate, decimal.Decimal("12345.6789")) == "12,345.6789"


def test_keys_and_links_stay_as_they_are(kernel: Any) -> None:
    fields = kernel[0]
    assert _shown(kernel, fields.ID(), 123456) == "123456"
    part = fields.Integer("line", key_part=True)
    assert _shown(kernel, part, 10000) == "10000"
    author = fields.BelongsTo("author", resource="authors")
    assert _shown(kernel, author, 123456) == "#123456"


def test_date_times_to_the_minute_in_utc(kernel: Any) -> None:
    fields, _, labels = kernel
    printed = fields.DateTime("printed_at")
    naive = datetime.datetime(2026, 1, 2, 3, 4, 59)  # stored values are UTC
    assert _shown(kernel, printed, naive) == "2026-01-02 03:04 UTC"
    zone = datetime.timezone(datetime.timedelta(hours=2))
    aware = datetime.datetime(2026, 1, 2, 1, 30, tzinfo=zone)
    assert _shown(kernel, printed, aware) == "2026-01-01 23:30 UTC"
    # Record names keep the stored value to the second (the picker mirrors them).
    assert labels.value_text(naive) == "2026-01-02 03:04:59"


def test_enum_cells_show_labels(kernel: Any) -> None:
    fields = kernel[0]
    binding = fields.Select(
        "binding",
        options=("paper", "cloth"),
        option_labels=(("paper", "Paperback"),),
    )
    assert _shown(kernel, binding, "paper") == "Paperback"
    assert _shown(kernel, binding, "cloth") == "cloth"  # no label: the value
    grade = fields.Select("grade", options=(1, 2), option_labels=((1, "Poor"),))
    assert _shown(kernel, grade, 1) == "Poor"
    assert _shown(kernel, grade, 12345) == "12345"  # an option, not an amount
    assert _shown(kernel, binding, None) == "—"


@pytest.mark.parametrize(
    ("count", "estimate", "text"),
    [
        (1, False, "1 record"),
        (1204, False, "1204 records"),  # as a list cell shows the integer
        (12345, False, "12,345 records"),
        (2500000, True, "about 2,500,000 records"),
    ],
)
def test_dashboard_counts_are_integers_as_cells_show_them(
    count: int, estimate: bool, text: str
) -> None:
    load_kernel()
    dashboard = importlib.import_module(f"{KERNEL_PACKAGE}.dashboard")
    summary = {"count": count, "count_is_estimate": estimate}
    assert dashboard.count_text(summary) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2024, "2024"),
        (12345, "12,345"),
        (12345.0, "12,345"),
        (677.25, "677.25"),
        (decimal.Decimal("1234.50"), "1,234.50"),
        (None, "—"),
    ],
)
def test_dashboard_metrics_are_numbers_as_cells_show_them(
    value: Any, text: str
) -> None:
    load_kernel()
    metrics = importlib.import_module(f"{KERNEL_PACKAGE}.metrics")
    assert metrics.metric_text(value) == text
