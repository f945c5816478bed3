"""The shape of ``generator/``: no import cycle, small modules, layers, lone targets.

Every import counts: module-level, function-level and ``TYPE_CHECKING`` ones, relative
and absolute. ``from package import name`` is an import of the module ``package.name``
when that module exists, else of ``package``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "generator"
MAX_LINES = 350
# The layers, lowest first: a module may import its own layer's modules and lower
# layers' only (docs/architecture.md, "The layer rule").
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths"),
    ("model", "run"),
    ("manifest", "render", "spec"),
    ("regen", "introspect"),
    ("targets",),
    ("assemble",),
    ("commands",),
    ("cli", "cli_inspect", "copier_task", "__main__", "__init__"),
)


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``generator.regen.state`` for ``generator/regen/state.py``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _imported(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]
) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    if node.level:
        base = module.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    for alias in node.names:
        candidate = f"{source}.{alias.name}"
        yield candidate if candidate in known else source


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of ``root`` → the modules of ``root`` it imports (anywhere in it)."""
    modules = _modules(root)
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                is_package = path.name == "__init__.py"
                for target in _imported(node, name, is_package, known):
                    if target in known and target != name:
                        edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or ``None``."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return path[path.index(child) :] + [child]
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
                on_path.add(child)
    return None


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    for index, names in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS and the docs")


def _target_package(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "targets":
        candidate = ".".join(parts[:3])
        if (PACKAGE / "targets" / parts[2]).is_dir():
            return candidate
    return None


def test_find_cycle_finds_a_function_level_cycle(tmp_path: Path) -> None:
    # The shape of the cycle this test was written against: pipeline and update
    # importing each other, one of them inside a function.
    root = tmp_path / "generator"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "pipeline.py").write_text("def run():\n    from .update import go\n")
    (root / "update.py").write_text("from .pipeline import run\n")
    (root / "leaf.py").write_text("from . import errors\n")
    (root / "errors.py").write_text("")
    assert find_cycle(import_graph(root)) == [
        "generator.pipeline",
        "generator.update",
        "generator.pipeline",
    ]


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle or ())


def test_layers_import_only_downwards() -> None:
    wrong = [
        f"{module} → {target}"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if _layer(target) > _layer(module)
    ]
    assert not wrong, "imports against the layer rule:\n" + "\n".join(wrong)


def test_no_target_imports_another() -> None:
    wrong = [
        f"{module} → {target}"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if _target_package(module)
        and _target_package(target)
        and _target_package(module) != _target_package(target)
    ]
    assert not wrong, "a target imports another:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_modules_stay_small(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines (split it)"


def test_every_target_is_registered_under_its_name() -> None:
    from generator.paths import project_template, resource_templates
    from generator.targets import TARGETS
    from generator.targets.base import Target

    packages = {p.name for p in (PACKAGE / "targets").iterdir() if p.is_dir()}
    packages.discard("__pycache__")
    assert set(TARGETS) == packages
    for name, target in TARGETS.items():
        assert isinstance(target, Target) and target.name == name
        assert (project_template() / target.skeleton).is_dir(), target.skeleton
        assert (resource_templates() / target.templates).is_dir(), target.templates


def test_the_wheel_lists_every_package() -> None:
    import tomllib

    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text("utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    packages = {
        module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("__init__.py")
    }
    assert packages <= listed, f"missing from pyproject.toml: {packages - listed}"
