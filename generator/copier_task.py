"""Run by copier (root copier.yml ``_tasks``) after it rendered a skeleton into the cwd.

It renders the manifest's resources, the spec and the rest with this checkout's own
generator, so ``copier copy`` and ``panelforge generate`` give the same project, state
file (``.panelforge/``) included: later updates use ``panelforge generate``, not
``copier update``. The copier answers override the manifest's ``project`` block for
this copy only; keep them equal to the manifest's, or the next ``panelforge generate``
renames the project back.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

_SOURCE = Path(__file__).resolve().parent.parent


def _find_manifest(value: str) -> Path:
    candidate = Path(value)
    if candidate.is_absolute():
        return candidate
    # copier runs tasks inside DEST; the user's shell directory is still in $PWD.
    for base in (Path(os.environ.get("PWD", ".")), _SOURCE / "examples"):
        for name in (value, f"{value}.yaml"):
            if (base / name).is_file():
                return base / name
    return candidate


def main(argv: list[str] | None = None) -> int:
    """Complete the skeleton in the current directory from the manifest."""
    sys.path.insert(0, str(_SOURCE))
    from generator.commands import complete_project
    from generator.errors import GeneratorError
    from generator.manifest.load import load_manifest

    parser = argparse.ArgumentParser(prog="panelforge copier task")
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--project-name", required=True)
    parser.add_argument("--project-title", required=True)
    parser.add_argument("--framework", required=True)
    parser.add_argument("--jwt", required=True)
    parser.add_argument("--token-ttl", type=int)
    args = parser.parse_args(argv)
    try:
        manifest = _find_manifest(args.manifest)
        project = load_manifest(manifest)
        project = replace(
            project,
            name=args.project_name,
            title=args.project_title,
            framework=args.framework,
            auth=replace(
                project.auth,
                jwt=args.jwt.lower() == "true",
                token_ttl=args.token_ttl or project.auth.token_ttl,
            ),
        )
        complete_project(project, Path.cwd(), manifest.read_bytes())
    except GeneratorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
