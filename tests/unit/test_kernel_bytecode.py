"""The kernel's compiled modules come from the user cache, and only when current."""

from __future__ import annotations

import importlib
import marshal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.spec.kernel_bytecode import KernelFinder

PACKAGE = "_panelforge_test_kernel"


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A package ``PACKAGE`` in ``tmp_path/kernel``, found by a KernelFinder."""
    directory, cache = tmp_path / "kernel", tmp_path / "cache"
    (directory / "sub").mkdir(parents=True)
    (directory / "__init__.py").write_text("")
    (directory / "sub" / "__init__.py").write_text("")
    (directory / "values.py").write_text(
        "from .sub.more import BASE\nVALUE = BASE + 1\n"
    )
    (directory / "sub" / "more.py").write_text("BASE = 1\n")
    finder = KernelFinder(PACKAGE, directory, cache)
    sys.meta_path.insert(0, finder)
    try:
        yield directory, cache
    finally:
        sys.meta_path.remove(finder)
        _forget()


def _forget() -> None:
    for name in [n for n in sys.modules if n.partition(".")[0] == PACKAGE]:
        del sys.modules[name]


def _value() -> int:
    _forget()
    return importlib.import_module(f"{PACKAGE}.values").VALUE


def test_modules_and_subpackages_load_and_are_cached(kernel) -> None:
    directory, cache = kernel
    assert _value() == 2
    cached = [path for path in cache.rglob("*") if path.is_file()]
    assert len(cached) == 4  # two packages, two modules
    assert not list(directory.rglob("__pycache__"))
    module = sys.modules[f"{PACKAGE}.sub.more"]
    assert module.__file__ == str(directory / "sub" / "more.py")


def test_a_second_load_takes_the_cached_code(kernel) -> None:
    _directory, cache = kernel
    _value()
    before = {path: path.read_bytes() for path in cache.rglob("*") if path.is_file()}
    for path, data in before.items():  # the cached code of `values` says 10 instead
        code = marshal.loads(data)
        if "VALUE" in code.co_names:
            path.write_bytes(marshal.dumps(compile("VALUE = 10\n", "values", "exec")))
    assert _value() == 10


def test_an_edited_module_is_compiled_again(kernel) -> None:
    directory, _cache = kernel
    assert _value() == 2
    (directory / "sub" / "more.py").write_text("BASE = 41\n")
    assert _value() == 42


def test_a_damaged_cache_file_is_compiled_again(kernel) -> None:
    _directory, cache = kernel
    _value()
    for path in cache.rglob("*"):
        if path.is_file():
            path.write_bytes(b"\x00not marshal")
    assert _value() == 2


def test_other_modules_are_left_to_python(kernel) -> None:
    _directory, cache = kernel
    finder = sys.meta_path[0]
    assert isinstance(finder, KernelFinder)
    assert finder.find_spec("json", None) is None
    assert finder.find_spec(f"{PACKAGE}.missing", None) is None
    assert not cache.exists()
