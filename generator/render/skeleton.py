"""The only module that calls copier: renders a skeleton from ``templates/project``.

copier costs ~0.4 s to import and ~0.3 s to render the skeleton. Its template uses a
small part of copier (a ``_subdirectory`` per framework, ``_exclude`` names and
globs, a few ``.jinja`` files, every other file as it is), which
:func:`skeleton_files` does with Jinja alone, as copier does it
(``tests/unit/test_skeleton.py`` compares the two, byte for byte); a template that uses
anything else is rendered by copier.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ..errors import TemplateError
from ..paths import (
    TEMPLATE_NOISE,
    is_template_noise,
    project_template,
    shared_template,
)

# The copier settings skeleton_files does as copier does; any other: copier renders.
_SETTINGS = {"_min_copier_version", "_subdirectory", "_templates_suffix", "_envops"}
_SETTINGS |= {"_exclude"}
_ENVOPS = {"undefined", "keep_trailing_newline"}


def render_skeleton(dest: Path, data: Mapping[str, Any]) -> None:
    """Render the skeleton chosen by ``data["framework"]`` into ``dest`` with copier.

    Then add ``templates/project/_shared/`` (the panel kernel, its pages, static files
    and the tests both frameworks share) as it is, at the same paths in every project.
    """
    import copier  # imported on use: copier costs ~0.5 s to import

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            copier.run_copy(
                str(project_template()),
                str(dest),
                data=dict(data),
                defaults=True,
                overwrite=True,
                quiet=True,
                skip_tasks=True,
                vcs_ref=None,
            )
    except Exception as exc:  # copier raises many kinds; all are our template's bug
        raise TemplateError(
            f"rendering the project skeleton failed: {exc}\n"
            "This is a bug in panelforge; please report it with your manifest."
        ) from exc
    copy_shared(dest)


def copy_shared(dest: Path) -> None:
    """Copy the framework-neutral files into a skeleton (none is a template)."""
    shutil.copytree(
        shared_template(),
        dest,
        ignore=shutil.ignore_patterns(*TEMPLATE_NOISE),
        dirs_exist_ok=True,
    )


def skeleton_files(data: Mapping[str, Any]) -> dict[str, bytes] | None:
    """What :func:`render_skeleton` writes, by path, without copier; ``None`` when the
    template uses a copier feature this does not do (the caller then runs copier).
    """
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    template = project_template()
    config = yaml.safe_load((template / "copier.yml").read_text(encoding="utf-8"))
    settings = {k for k in config if k.startswith("_")}
    envops = dict(config.get("_envops") or {})
    exclude = list(config.get("_exclude") or [])
    if not settings <= _SETTINGS or not set(envops) <= _ENVOPS:
        return None
    if envops.get("undefined") != "jinja2.StrictUndefined":
        return None  # an unknown name must fail here, as it does in copier
    if not all(isinstance(p, str) and _simple_pattern(p) for p in exclude):
        return None
    del envops["undefined"]
    env = SandboxedEnvironment(undefined=jinja2.StrictUndefined, **envops)
    env.filters.update(_COPIER_FILTERS)
    suffix = config.get("_templates_suffix", ".jinja")
    try:
        folder = env.from_string(str(config.get("_subdirectory", ""))).render(data)
        files = _rendered(env, template / folder, suffix, exclude, data)
    except (jinja2.TemplateError, OSError, ValueError, TypeError):
        return None
    if files is None:
        return None
    files.update(_plain_files(shared_template()))
    return dict(sorted(files.items(), key=lambda item: item[0].split("/")))


def _regex_replace(value: Any = "", pattern: str = "", replacement: str = "") -> str:
    """Copier's ``regex_replace`` (jinja2-ansible-filters): ``re.sub`` on the text."""
    return re.sub(pattern, replacement, str(value))


def _to_json(value: Any, *args: Any, **kwargs: Any) -> str:
    """Copier's ``to_json`` (jinja2-ansible-filters): ``json.dumps`` as it is."""
    return json.dumps(value, *args, **kwargs)


# The filters copier adds that the project template uses; any other fails to render,
# and copier takes over.
_COPIER_FILTERS = {"regex_replace": _regex_replace, "to_json": _to_json}


def _simple_pattern(pattern: str) -> bool:
    """A name or glob matched against every part of a path (no ``/``, ``!``, ``**``)."""
    return (
        bool(pattern) and not any(c in pattern for c in "/!\\") and "**" not in pattern
    )


def _excluded(relative: str, patterns: list[str]) -> bool:
    return any(
        fnmatch.fnmatchcase(part, pattern)
        for part in relative.split("/")
        for pattern in patterns
    )


def _rendered(
    env: Any, root: Path, suffix: str, exclude: list[str], data: Mapping[str, Any]
) -> dict[str, bytes] | None:
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_symlink() or "{" in relative:
            return None  # copier would follow, keep or render it: let copier do it
        template = bool(suffix) and relative.endswith(suffix) and path.is_file()
        if template:
            relative = relative[: -len(suffix)]
        if _excluded(relative, exclude) or not path.is_file():
            continue
        content = path.read_bytes()
        if template:
            text = env.from_string(content.decode("utf-8")).render(data)
            content = text.encode("utf-8")
        files[relative] = content
    return files


def _plain_files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by its POSIX path, bytecode and tool caches aside."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not is_template_noise(path.relative_to(root))
    }
