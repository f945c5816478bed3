"""Generated API clients work first time against the served spec, on both frameworks.

openapi-python-client (pinned: ``OPENAPI_PYTHON_CLIENT``) generates a client from the
``/oag.json`` a live server serves, with no warning (its formatter, ruff, runs from its
own environment), the client imports, and ``clients/python_session.py`` runs a whole
session with nothing but the client: login → create (every resource, relations
included) → list with page, per_page, sort, search, a filter and a query tag → show →
PUT → PATCH → a 422 parsed into ``ValidationError`` → mass delete → delete → logout.

The generator is installed once into a virtual environment under the cache directory
(``PANELFORGE_CLIENTS_CACHE``, else ``~/.cache/panelforge-tests``) from PyPI, kept
apart from the test environment so its dependencies never meet ours. Only the examples
on SQLite: the spec and the client do not depend on the database.
"""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path
from typing import Any

import pytest
from tool_cache import CACHE, installing, npm_packages

from generator.model import ir
from generator.model.samples import creation_order, sample_payload

from .conftest import sqlite_params
from .support import (
    EMAIL,
    PASSWORD,
    Deployment,
    marker_field,
    marker_value,
    new_marker,
)

pytestmark = pytest.mark.e2e

OPENAPI_PYTHON_CLIENT = "0.29.1"
SESSION_SCRIPT = Path(__file__).parent / "clients" / "python_session.py"


def _bin(environment: Path, name: str) -> Path:
    return environment / ("Scripts" if os.name == "nt" else "bin") / name


@pytest.fixture(scope="session")
def python_client_tool() -> Path:
    """The virtual environment holding openapi-python-client, made once."""
    environment = CACHE / f"openapi-python-client-{OPENAPI_PYTHON_CLIENT}"
    done = environment / ".installed"
    with installing(environment):
        if not done.exists():
            venv.create(environment, with_pip=True, clear=True)
            subprocess.run(
                [
                    str(_bin(environment, "python")),
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    f"openapi-python-client=={OPENAPI_PYTHON_CLIENT}",
                ],
                check=True,
            )
            done.write_text(OPENAPI_PYTHON_CLIENT)
    return environment


def generate_python_client(tool: Path, spec: Path, out: Path) -> str:
    """Generate a client package from ``spec`` into ``out``; returns what it said."""
    env = {**os.environ, "PATH": f"{_bin(tool, '')}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [
            str(_bin(tool, "openapi-python-client")),
            "generate",
            "--path",
            str(spec),
            "--meta",
            "none",
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=out.parent,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    return said


def _upper_camel(operation_id: str) -> str:
    return operation_id[:1].upper() + operation_id[1:]


def _resource_plan(
    resource: ir.Resource, spec: dict[str, Any], marker: str
) -> dict[str, Any]:
    """What the session sends for ``resource``: bodies, list parameters, operations."""
    base = f"/admin/resource/{resource.uri}/crud"
    collection, item = spec["paths"][base], spec["paths"][base + "/{resourceItem}"]
    operations = {
        "index": collection["get"]["operationId"],
        "store": collection["post"]["operationId"],
        "mass_delete": collection["delete"]["operationId"],
        "show": item["get"]["operationId"],
        "update": item["put"]["operationId"],
        "patch": item["patch"]["operationId"],
        "destroy": item["delete"]["operationId"],
    }
    schema = collection["get"]["responses"]["200"]["content"]["application/json"]
    model = schema["schema"]["oneOf"][0]["$ref"].rsplit("/", 1)[1]
    model = model.removesuffix("Paginator")
    found = marker_field(resource)
    create = sample_payload(resource, 1)
    create[found.name] = marker_value(found, marker, 1)
    update = sample_payload(resource, 2)
    update[found.name] = marker_value(found, marker, 2)
    relations = {f.name: f.relation for f in resource.fields if f.relation}
    blank = next(
        f.name
        for f in resource.fields
        if f.required and f.type == "string" and f.format != "password"
    )
    return {
        "name": resource.name,
        "model": model,
        "key": resource.key,
        "operations": operations,
        "create": create,
        "update": update,
        "patch": {found.name: marker_value(found, marker, 3)},
        "invalid": {blank: " "},
        "relations": relations,
        "marker": marker,
        "sort": f"-{resource.key}",
        "filter": {
            "argument": f"filter{found.name}",
            "value": marker_value(found, marker, 1),
        },
        "query_tag": resource.query_tags[0].uri if resource.query_tags else None,
        "mass_delete_body": _upper_camel(operations["mass_delete"]) + "Body",
    }


@pytest.fixture(params=sqlite_params())
def served(request: pytest.FixtureRequest, fleet: Any) -> Deployment:
    return fleet.get(*request.param)


def test_openapi_python_client_works_first_time(
    served: Deployment, python_client_tool: Path, tmp_path: Path
) -> None:
    spec_path = tmp_path / "oag.json"
    with served.client() as http:
        answer = http.get("/oag.json")
        assert answer.status_code == 200
        spec_path.write_bytes(answer.content)
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    package = f"{served.example}_client"
    said = generate_python_client(python_client_tool, spec_path, tmp_path / package)
    assert "Warning" not in said and "warning" not in said, said
    marker = new_marker()
    plan = {
        "package": package,
        "base_url": served.base_url,
        "email": EMAIL,
        "password": PASSWORD,
        "jwt": served.jwt,
        "cookie": (
            None
            if served.jwt
            else spec["components"]["securitySchemes"]["sessionCookie"]["name"]
        ),
        "resources": [
            _resource_plan(r, spec, marker) for r in creation_order(served.project)
        ],
    }
    done = subprocess.run(
        [str(_bin(python_client_tool, "python")), str(SESSION_SCRIPT), str(tmp_path)],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "steps passed" in done.stdout


# TypeScript: openapi-typescript types the served spec; tsc --noEmit checks a typed
# openapi-fetch session against them (bodies, parameters, headers, answers).
NPM_PACKAGES = ("openapi-typescript@7.13.0", "openapi-fetch@0.17.0", "typescript@5.9.3")
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "ES2022",
        "module": "ESNext",
        "moduleResolution": "Bundler",
        "lib": ["ES2022", "DOM"],
        "skipLibCheck": True,
    },
    "files": ["session.ts"],
}


@pytest.fixture(scope="session")
def npm_tools() -> Path:
    """A folder whose ``node_modules`` holds the pinned packages, installed once."""
    return npm_packages(NPM_PACKAGES)


def _ts(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _ts_body(data: dict[str, Any], relations: dict[str, str]) -> str:
    parts = [f"{_ts(k)}: {_ts(v)}" for k, v in data.items() if k not in relations]
    parts += [f"{_ts(k)}: key{target}" for k, target in relations.items()]
    return "{ " + ", ".join(parts) + " }"


def typescript_session(project: ir.Project, spec: dict[str, Any]) -> str:
    """A typed openapi-fetch session over every resource of ``project``."""
    jwt = project.auth.jwt
    write = "" if jwt else "header: csrf, "
    lines = [
        'import createClient from "openapi-fetch";',
        'import type { components, paths } from "./api";',
        "",
        'type Schemas = components["schemas"];',
        "",
        "export async function session(",
        "  baseUrl: string,",
        "  username: string,",
        "  password: string,",
        "): Promise<number> {",
        "  const anonymous = createClient<paths>({ baseUrl });",
        '  const login = await anonymous.POST("/admin/authenticate", {',
        "    body: { username, password },",
        "  });",
        '  if (!login.data) throw new Error("login");',
    ]
    if jwt:
        lines += [
            "  const token: string = login.data.token;",
            "  const client = createClient<paths>({",
            "    baseUrl,",
            "    headers: { Authorization: `Bearer ${token}` },",
            "  });",
        ]
    else:
        lines += [
            '  const csrf = { "X-CSRF-Token": login.data.csrf_token };',
            "  const client = anonymous;",
        ]
    lines.append("  let checked = 0;")
    marker = "ts-session"
    ordered = creation_order(project)
    for resource in ordered:
        plan = _resource_plan(resource, spec, marker)
        name, model = resource.name, plan["model"]
        base = f"/admin/resource/{resource.uri}/crud"
        item = base + "/{resourceItem}"
        relations = plan["relations"]
        query = {
            "page": 1,
            "per_page": 5,
            "sort": plan["sort"],
            "search": marker,
            f"filter[{marker_field(resource).name}]": plan["filter"]["value"],
        }
        if plan["query_tag"]:
            query["query-tag"] = plan["query_tag"]
        key = resource.key
        lines += [
            f"  const created{name} = await client.POST({_ts(base)}, {{",
            f"    params: {{ {write}}},",
            f"    body: {_ts_body(plan['create'], relations)},",
            "  });",
            f'  if (!created{name}.data) throw new Error("create {name}");',
            f"  const key{name} = created{name}.data.data.{key};",
            f"  const listed{name} = await client.GET({_ts(base)}, {{",
            f"    params: {{ query: {_ts(query)} }},",
            "  });",
            f"  const rows{name}: Schemas[{_ts(model)}][] = listed{name}.data",
            f"    ? listed{name}.data.data",
            "    : [];",
            f"  const shown{name} = await client.GET({_ts(item)}, {{",
            f"    params: {{ path: {{ resourceItem: key{name} }} }},",
            "  });",
            f"  const record{name}: Schemas[{_ts(model)}] | undefined = "
            f"shown{name}.data;",
            f"  await client.PUT({_ts(item)}, {{",
            f"    params: {{ path: {{ resourceItem: key{name} }}, {write}}},",
            f"    body: {_ts_body(plan['update'], relations)},",
            "  });",
            f"  await client.PATCH({_ts(item)}, {{",
            f"    params: {{ path: {{ resourceItem: key{name} }}, {write}}},",
            f"    body: {_ts(plan['patch'])},",
            "  });",
            f"  const invalid{name} = await client.PATCH({_ts(item)}, {{",
            f"    params: {{ path: {{ resourceItem: key{name} }}, {write}}},",
            f"    body: {_ts(plan['invalid'])},",
            "  });",
            f"  const errors{name}: Record<string, string[]> | undefined =",
            f'    invalid{name}.error && "errors" in invalid{name}.error',
            f"      ? invalid{name}.error.errors",
            "      : undefined;",
            f"  const many{name} = await client.DELETE({_ts(base)}, {{",
            f"    params: {{ {write}}},",
            f"    body: {{ ids: [key{name}] }},",
            "  });",
            f"  const deleted{name}: number = many{name}.data ? "
            f"many{name}.data.deleted : 0;",
            f"  checked += rows{name}.length + deleted{name} + "
            f"(record{name} ? 1 : 0) + (errors{name} ? 1 : 0);",
        ]
    for resource in reversed(ordered):
        item = f"/admin/resource/{resource.uri}/crud/{{resourceItem}}"
        lines += [
            f"  await client.DELETE({_ts(item)}, {{",
            f"    params: {{ path: {{ resourceItem: key{resource.name} }}, {write}}},",
            "  });",
        ]
    logout = '  await client.DELETE("/admin/logout"'
    lines += [logout + ("" if jwt else ", { params: { header: csrf } }") + ");"]
    lines += ["  return checked;", "}", ""]
    return "\n".join(lines)


def test_openapi_typescript_and_fetch_type_check_a_session(
    served: Deployment, npm_tools: Path, tmp_path: Path
) -> None:
    with served.client() as http:
        answer = http.get("/oag.json")
        assert answer.status_code == 200
    spec_path = tmp_path / "oag.json"
    spec_path.write_bytes(answer.content)
    spec = json.loads(answer.content)
    (tmp_path / "node_modules").symlink_to(npm_tools / "node_modules")
    bin_dir = npm_tools / "node_modules" / ".bin"
    typed = subprocess.run(
        [str(bin_dir / "openapi-typescript"), str(spec_path), "-o", "api.d.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert typed.returncode == 0, typed.stdout + typed.stderr
    assert "warn" not in (typed.stdout + typed.stderr).lower(), typed.stderr
    (tmp_path / "session.ts").write_text(typescript_session(served.project, spec))
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    checked = subprocess.run(
        [str(bin_dir / "tsc"), "-p", "tsconfig.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
