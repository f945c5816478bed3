"""Exact decimals: the manifest's checks and values, and the kernel's JSON handling."""

from __future__ import annotations

import importlib
from decimal import Decimal

import pytest

from generator.errors import ManifestInvalidError
from generator.manifest.load import parse_manifest
from generator.model.irdata import project_from_data, project_to_data
from generator.spec.openapi import KERNEL_PACKAGE, load_kernel

MANIFEST = """\
project: {name: shop_admin}
resources:
  Product:
    fields:
      price: {type: number, format: decimal, precision: 10, scale: 2, OPTIONS}
    query_tags:
      cheap: {filter: {price: 9.90}}
"""


def product(options: str = "minimum: 0.50, default: 12.30"):
    text = MANIFEST.replace("OPTIONS", options)
    return parse_manifest(text, "shop.yaml").resource("Product")


def problems(options: str) -> list[tuple[str, str, str]]:
    with pytest.raises(ManifestInvalidError) as caught:
        product(options)
    return [(i.path, i.message, i.code) for i in caught.value.issues]


def test_values_are_read_exactly_as_written() -> None:
    price = product().field("price")
    assert (price.precision, price.scale) == (10, 2)
    assert (price.default, price.minimum) == (Decimal("12.30"), Decimal("0.50"))
    assert str(price.default) == "12.30"  # not the float 12.3
    [tag] = product().query_tags
    assert tag.filter == (("price", "9.90"),)


def test_precision_and_scale_default_to_15_and_2() -> None:
    text = MANIFEST.replace(", precision: 10, scale: 2, OPTIONS", "")
    price = parse_manifest(text, "shop.yaml").resource("Product").field("price")
    assert (price.precision, price.scale) == (15, 2)


def test_the_recorded_state_keeps_exact_values() -> None:
    project = parse_manifest(MANIFEST.replace("OPTIONS", "default: 0.10"), "s.yaml")
    again = project_from_data(project_to_data(project))
    assert again == project
    assert again.resource("Product").field("price").default == Decimal("0.10")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            "default: 12.345",
            (
                "resources.Product.fields.price.default",
                "'12.345' has more than 2 decimal places (scale 2)",
                "M024",
            ),
        ),
        (
            "maximum: 123456789",
            (
                "resources.Product.fields.price.maximum",
                "'123456789' has more than 8 digits before the point "
                "(precision 10, scale 2)",
                "M026",
            ),
        ),
        (
            "minimum: 0.001",
            (
                "resources.Product.fields.price.minimum",
                "'0.001' has more than 2 decimal places (scale 2)",
                "M026",
            ),
        ),
    ],
)
def test_values_that_do_not_fit_are_refused(
    options: str, expected: tuple[str, str, str]
) -> None:
    assert problems(options) == [expected]


def test_digits_must_be_possible_on_every_database() -> None:
    def issues(digits: str) -> list[tuple[str, str]]:
        text = MANIFEST.replace("precision: 10, scale: 2, OPTIONS", digits)
        with pytest.raises(ManifestInvalidError) as caught:
            parse_manifest(text.replace("{price: 9.90}", "{price: 9}"), "shop.yaml")
        return [(i.message, i.code) for i in caught.value.issues]

    assert issues("precision: 39") == [("'39' is more than the maximum 38", "M016")]
    assert issues("precision: 0") == [("'0' is less than the minimum 1", "M016")]
    assert issues("precision: 2, scale: 3") == [
        ("'3' is more than precision 2", "M026")
    ]


def test_precision_needs_a_decimal_and_numbers_take_no_other_format() -> None:
    text = """\
project: {name: shop_admin}
resources:
  Product:
    fields:
      weight: {type: number, scale: 2}
      size: {type: number, format: date}
      code: {type: string, format: decimal}
"""
    with pytest.raises(ManifestInvalidError) as caught:
        parse_manifest(text, "shop.yaml")
    assert [(i.path, i.code) for i in caught.value.issues] == [
        ("resources.Product.fields.weight.scale", "M027"),
        ("resources.Product.fields.size.format", "M027"),
        ("resources.Product.fields.code.format", "M027"),
    ]


def _kernel_decimals():
    load_kernel()
    return importlib.import_module(f"{KERNEL_PACKAGE}.decimals")


def test_json_numbers_of_decimal_fields_are_read_from_their_text() -> None:
    decimals = _kernel_decimals()
    body = b'{"price": 0.1000000000000000055511151231257827, "weight": 0.5}'
    assert decimals.exact_numbers(body, {"price"}) == (
        b'{"price":"0.1000000000000000055511151231257827","weight":0.5}'
    )
    unchanged = b'{"price": "12.30"}'
    assert decimals.exact_numbers(unchanged, {"price"}) is unchanged
    assert decimals.exact_numbers(b"[1.5]", {"price"}) == b"[1.5]"


def test_the_spec_pattern_and_example_follow_the_digits() -> None:
    decimals = _kernel_decimals()
    assert decimals.pattern(10, 2) == r"^-?[0-9]{1,8}(\.[0-9]{1,2})?$"
    assert decimals.pattern(3, 3, signed=False) == r"^0(\.[0-9]{1,3})?$"
    assert decimals.pattern(5, 0) == "^-?[0-9]{1,5}$"
    assert [
        decimals.example(10, 2),
        decimals.example(3, 3),
        decimals.example(1, 0),
    ] == [
        "12.30",
        "0.300",
        "1",
    ]


def test_sqlite_refuses_what_a_double_cannot_hold() -> None:
    decimals = _kernel_decimals()
    labels = {"price": "Price"}
    fifteen = {"price": Decimal("1234567890123.45")}
    sixteen = {"price": Decimal("12345678901234.56")}
    decimals.refuse_inexact("sqlite", fifteen, labels)
    decimals.refuse_inexact("postgresql", sixteen, labels)
    invalid = importlib.import_module(f"{KERNEL_PACKAGE}.errors").InvalidInput
    with pytest.raises(invalid) as caught:
        decimals.refuse_inexact("sqlite", sixteen, labels)
    assert caught.value.errors == {
        "price": [
            "The Price field must have at most 15 significant digits on this "
            "database (SQLite)."
        ]
    }


def test_digits_are_counted_without_rounding() -> None:
    decimals = _kernel_decimals()
    many = Decimal("1234567890123456789012345.123")  # 28 digits and more
    assert decimals.digits(many) == (3, 25)
    assert decimals.digits(Decimal("12.300")) == (1, 2)
    assert decimals.digits(Decimal("1E+2")) == (0, 3)
    assert str(decimals.exact(Decimal("-0.0"), 2)) == "0.00"
    big = Decimal("123456789012345678901234567890123456.1")
    assert str(decimals.exact(big, 2)) == "123456789012345678901234567890123456.10"


def test_the_spec_example_lies_within_the_limits() -> None:
    fields = load_kernel().fields
    assert fields.Decimal("price", precision=10, scale=2).example == "12.30"
    above = fields.Decimal("price", precision=10, scale=2, minimum="100")
    assert above.example == "100.00"
    below = fields.Decimal("price", precision=4, scale=1, maximum="-1.5")
    assert below.example == "-1.5"
