"""YAML → positioned values: positions, traps, both parsers, and hostile input."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from generator.errors import ManifestSyntaxError
from generator.manifest import composer
from generator.manifest.composer import MAX_DEPTH, compose
from generator.manifest.load import parse_manifest
from generator.manifest.yamlnodes import Node, dotted, line_column

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))


def codes(text: str) -> list[str]:
    return [issue.code for issue in compose(text, "m.yaml").issues]


@pytest.fixture
def pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as if PyYAML had been installed without libyaml."""
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)


def test_values_positions_and_raw_text() -> None:
    document = compose("a: 1\nb:\n  - x\n  - {c: 'no'}\n", "m.yaml")
    assert document.value == {"a": 1, "b": ["x", {"c": "no"}]}
    assert document.node(("a",)) == Node(1, 4, "1", True)
    assert document.node(("b", 1)) == Node(4, 5)
    assert document.node(("b", 1, "c")) == Node(4, 9, "no", False)
    assert document.keys[("b", 1, "c")] == Node(4, 6, "c", True)
    assert document.position(("b", 1, "missing")) == (4, 5)  # the parent
    assert document.position(("b", 1, "c"), key=True) == (4, 6)
    assert document.position(("nowhere",)) == (1, 1)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_both_parsers_compose_the_same_document(path: Path, monkeypatch) -> None:
    text = path.read_text(encoding="utf-8")
    fast = compose(text, path.name)
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    slow = compose(text, path.name)
    assert (fast.value, fast.nodes, fast.keys) == (slow.value, slow.nodes, slow.keys)
    assert fast.value == yaml.safe_load(text)


@pytest.mark.usefixtures("pure_python")
def test_pure_python_parser_reports_the_same_problems() -> None:
    assert codes("a: &x 1\nb: *x\na: 2\n") == ["M002", "M002", "M003"]


def test_libyaml_errors_are_worded_by_the_pure_python_parser() -> None:
    (issue,) = compose("a:\n\tb: 1\n", "m.yaml").issues
    assert issue.message == "found character '\\t' that cannot start any token"
    assert issue.hint == "replace the tab with spaces"


def test_syntax_error_gives_problem_and_context_marks() -> None:
    (issue,) = compose("a: [1, 2\nb: 3\n", "m.yaml").issues
    assert (issue.line, issue.column, issue.code) == (2, 2, "M001")
    assert issue.hint == "while parsing a flow sequence that starts at line 1, column 4"


def test_keys_keep_their_text() -> None:
    document = compose("on: 1\n0755: 2\n~: 3\n1.10: 4\n", "m.yaml")
    assert list(document.value) == ["on", "0755", "~", "1.10"]


def test_scalars_are_resolved_like_safe_load_except_timestamps() -> None:
    text = (
        "a: yes\nb: 0755\nc: 1:30\nd: 2024-01-31\ne: !!str 12\nf: ~\ng: 1.5\nh: '7'\n"
    )
    value = compose(text, "m.yaml").value
    assert value == {
        "a": True,
        "b": 493,
        "c": 90,
        "d": "2024-01-31",
        "e": "12",
        "f": None,
        "g": 1.5,
        "h": "7",
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("a: &x 1", "M002"),
        ("a: *x", "M002"),
        ("a: 1\na: 2", "M003"),
        ("a: !!python/name:os.system x", "M004"),
        ("a: !!binary aGk=", "M004"),
        ("a: !!timestamp 2024-01-01", "M004"),
        ("a: !custom x", "M004"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "M005"),
        ("a: 1\n---\nb: 2", "M008"),
        ("? [a]\n: 1", "M009"),
        ("? {a: 1}\n: 1", "M009"),
        ("a: .nan", "M019"),
        ("a: -.inf", "M019"),
        ("a: !!int abc", "M019"),
        ("a: !!bool maybe", "M019"),
        ("a: " + "9" * 5000, "M019"),
        ("a: b\x00", "M001"),
        ("a: \x1b[31m", "M001"),
        ("a: [", "M001"),
        ("a: b: c", "M001"),
    ],
)
def test_traps_are_refused(text: str, code: str) -> None:
    assert code in codes(text)


def test_exactly_max_depth_is_fine() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert compose(text, "m.yaml").issues == []


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 3000, 1_000_000])
@pytest.mark.parametrize("parser", ["libyaml", "python"])
def test_deep_brackets_fail_fast_without_recursion_error(
    depth: int, parser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parser == "python":
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    with pytest.raises(ManifestSyntaxError) as caught:
        parse_manifest("[" * depth, "m.yaml")
    issues = caught.value.issues
    assert [issue.code for issue in issues] == ["M005"]
    # Both parsers slow down with every open level: reading stops at the first level
    # past the limit (how long that takes is for benchmarks, not unit tests).
    assert (issues[0].line, issues[0].column) == (1, MAX_DEPTH + 1)


def test_deep_nesting_inside_a_dropped_value_is_refused_too() -> None:
    text = "a: 1\na: " + "[" * 5000
    assert codes(text) == ["M003", "M005"]


def test_deep_block_mappings_are_refused() -> None:
    text = "".join(f"{' ' * i}k{i}:\n" for i in range(60)) + " " * 60 + "v\n"
    document = compose(text, "m.yaml")
    (issue,) = document.issues
    assert issue.code == "M005"
    assert issue.path == "k0.k1.k2.k3.k4.k5"


def test_billion_laughs_is_refused_fast() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    started = time.perf_counter()
    document = compose("\n".join(lines) + "\n", "m.yaml")
    assert {issue.code for issue in document.issues} == {"M002"}
    assert time.perf_counter() - started < 1


def test_a_recursion_error_becomes_an_issue() -> None:
    class Exploding:
        def check_event(self) -> bool:
            raise RecursionError

        def dispose(self) -> None:
            pass

    document = composer._Composer("m.yaml", Exploding()).run()
    assert document.failed
    assert [(i.code, i.line) for i in document.issues] == [("M005", 1)]


def test_duplicate_key_hint_names_the_first_line() -> None:
    (issue,) = compose("a:\n  b: 1\n  c: 2\n  b: 3\n", "m.yaml").issues
    assert (issue.path, issue.line, issue.column) == ("a.b", 4, 3)
    assert issue.hint == "the first one is on line 2; YAML would keep only the last"


def test_values_after_a_duplicate_or_complex_key_are_dropped() -> None:
    document = compose("a: 1\na: [x, {y: 2}]\n? [k]\n: {z: 3}\nb: 4\n", "m.yaml")
    assert document.value == {"a": 1, "b": 4}


def test_non_printable_character_is_placed() -> None:
    (issue,) = compose("a: 1\nb: x\x07\n", "m.yaml").issues
    assert (issue.line, issue.column, issue.code) == (2, 5, "M001")
    assert issue.message == "the character '\\x07' is not allowed in YAML"


@pytest.mark.parametrize(
    ("text", "index", "expected"),
    [
        ("ab\ncd", 4, (2, 2)),
        ("ab\r\ncd", 5, (2, 2)),
        ("ab\rcd", 4, (2, 2)),
        ("ab\x85cd", 3, (2, 1)),
        ("ab\u2028cd", 4, (2, 2)),
        ("", 0, (1, 1)),
    ],
)
def test_line_column_counts_breaks_as_yaml_does(
    text: str, index: int, expected
) -> None:
    assert line_column(text, index) == expected


def test_dotted_paths() -> None:
    assert dotted(("resources", "Book", "fields", "pages", "type")) == (
        "resources.Book.fields.pages.type"
    )
    assert dotted(("resources", "Book", "required", 1)) == "resources.Book.required[1]"
    assert (
        dotted(("query_tags", "in stock", "filter")) == 'query_tags."in stock".filter'
    )
    assert dotted(()) == ""
