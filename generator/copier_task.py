"""Run by copier (root copier.yml ``_tasks``) after it rendered a skeleton into the cwd.

It renders the manifest's resources, the spec and the rest with this checkout's own
generator, so ``copier copy`` and ``panelforge generate`` give the same project, state
file (``.panelforge/``) included: later updates use ``panelforge generate``, not
``copier update``.

One source of truth: the questions' defaults are the manifest's values (root
copier.yml reads it); an answer that differs is written into the project's manifest
copy (``.panelforge/manifest.yaml``, :func:`with_answers`), so the copy, the state and
the files agree and ``panelforge check`` passes right away. The manifest you gave is
not changed. The install source recorded (and written into the CI workflow) is the
template's: its git URL at the commit copied, or ``local`` for a folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

_SOURCE = Path(__file__).resolve().parent.parent
_HEADER = (
    "# {name}, with your answers to `copier copy` written in: {keys}.\n"
    "# panelforge regenerates and checks the project from this copy; the comments of\n"
    "# the original are not kept.\n"
)


def _find_manifest(value: str) -> Path:
    candidate = Path(value)
    if candidate.is_absolute():
        return candidate
    # copier runs tasks inside DEST; the user's shell directory is still in $PWD.
    bases = (Path.cwd(), Path(os.environ.get("PWD", ".")), _SOURCE / "examples")
    for base in bases:
        for name in (value, f"{value}.yaml"):
            if (base / name).is_file():
                return base / name
    return candidate


def _answers(args: argparse.Namespace) -> dict[tuple[str, str], Any]:
    jwt = args.jwt.lower() == "true"
    answers: dict[tuple[str, str], Any] = {
        ("project", "name"): args.project_name,
        ("project", "title"): args.project_title,
        ("project", "framework"): args.framework,
        ("auth", "jwt"): jwt,
    }
    if jwt and args.token_ttl is not None:
        answers[("auth", "token_ttl")] = args.token_ttl
    return answers


def _current(project: Any) -> dict[tuple[str, str], Any]:
    return {
        ("project", "name"): project.name,
        ("project", "title"): project.title,
        ("project", "framework"): project.framework,
        ("auth", "jwt"): project.auth.jwt,
        ("auth", "token_ttl"): project.auth.token_ttl,
    }


def with_answers(
    source: bytes, name: str, changes: dict[tuple[str, str], Any]
) -> bytes:
    """The manifest ``source`` with ``changes`` (block, key) → value written into it."""
    import yaml

    data = yaml.safe_load(source)
    for (block, key), value in changes.items():
        data.setdefault(block, {})[key] = value
    keys = ", ".join(f"{block}.{key}" for block, key in changes)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)
    return (_HEADER.format(name=name, keys=keys) + text).encode("utf-8")


def _complete(args: argparse.Namespace) -> None:
    from generator.commands import complete_project
    from generator.manifest.load import load_manifest
    from generator.regen.install import from_copier_template, use_install_source

    manifest = _find_manifest(args.manifest)
    project = load_manifest(manifest)
    source = manifest.read_bytes()
    current = _current(project)
    changes = {k: v for k, v in _answers(args).items() if current[k] != v}
    if changes:
        source = with_answers(source, manifest.name, changes)
        with tempfile.TemporaryDirectory() as tmp:
            patched = Path(tmp) / manifest.name
            patched.write_bytes(source)
            project = load_manifest(patched, display_name=manifest.name)
    cwd = Path(os.environ.get("PWD", "."))
    use_install_source(from_copier_template(args.template, args.commit, cwd=cwd))
    complete_project(project, Path.cwd(), source)


def main(argv: list[str] | None = None) -> int:
    """Complete the skeleton in the current directory from the manifest."""
    sys.path.insert(0, str(_SOURCE))
    from generator.errors import GeneratorError

    parser = argparse.ArgumentParser(prog="panelforge copier task")
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--project-name", required=True)
    parser.add_argument("--project-title", required=True)
    parser.add_argument("--framework", required=True)
    parser.add_argument("--jwt", required=True)
    parser.add_argument("--token-ttl", type=int)
    parser.add_argument("--template", default="")
    parser.add_argument("--commit", default="")
    args = parser.parse_args(argv)
    try:
        _complete(args)
    except GeneratorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
