"""A session of an openapi-python-client client against a served panel, nothing else.

Run by ``tests/conformance/test_clients.py`` with the client generator's own Python
(which has the client's dependencies: httpx, attrs, python-dateutil) and the
generated package on ``sys.path``. The plan arrives on stdin as JSON: the server,
the login, and per resource (relation targets first) the bodies to send; relation
fields name the resource whose record this session created first. Every call goes
through the generated client's typed functions and models, and every answer must be
parsed into the documented model. Prints one line per step; exits 1 on the first
mismatch.
"""

from __future__ import annotations

import enum
import importlib
import json
import pkgutil
import re
import sys
import types
import typing
from typing import Any

STEPS: list[str] = []


def snake(name: str) -> str:
    """``bookResourceCrudStore`` → ``book_resource_crud_store``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def check(condition: bool, what: str, answer: Any = None) -> None:
    if not condition:
        detail = ""
        if answer is not None:
            detail = f" (status {answer.status_code}: {answer.content[:500]!r})"
        print(f"FAILED: {what}{detail}", flush=True)
        sys.exit(1)
    STEPS.append(what)
    print(f"ok: {what}", flush=True)


class Package:
    """The generated package: operations by operationId, models by schema name."""

    def __init__(self, name: str) -> None:
        self.models = importlib.import_module(f"{name}.models")
        self.client = importlib.import_module(f"{name}.client")
        api = importlib.import_module(f"{name}.api")
        self.operations: dict[str, types.ModuleType] = {}
        for tag in pkgutil.iter_modules(api.__path__):
            package = importlib.import_module(f"{name}.api.{tag.name}")
            for found in pkgutil.iter_modules(package.__path__):
                module = importlib.import_module(f"{package.__name__}.{found.name}")
                self.operations[found.name] = module

    def call(self, operation_id: str, **kwargs: Any) -> Any:
        module = self.operations[snake(operation_id)]
        hints = typing.get_type_hints(module.sync_detailed)
        for name, value in list(kwargs.items()):
            kwargs[name] = _typed(hints[name], value)
        return module.sync_detailed(**kwargs)

    def model(self, name: str, data: dict[str, Any]) -> Any:
        return getattr(self.models, name).from_dict(data)


def _typed(hint: Any, value: Any) -> Any:
    """``value`` as the enum a parameter's hint names, if it names one."""
    for option in typing.get_args(hint) or (hint,):
        if isinstance(option, type) and issubclass(option, enum.Enum):
            return option(value)
    return value


def run(plan: dict[str, Any]) -> None:
    package = Package(plan["package"])
    base_url = plan["base_url"]
    plain = package.client.Client(base_url=base_url, raise_on_unexpected_status=True)
    credentials = package.model(
        "AuthenticateRequest", {"username": plan["email"], "password": plan["password"]}
    )
    login = package.call("authenticate", client=plain, body=credentials)
    check(login.status_code == 200, "login", login)
    write: dict[str, Any] = {}
    if plan["jwt"]:
        check(type(login.parsed).__name__ == "AuthenticateResponse", "token parsed")
        client = package.client.AuthenticatedClient(
            base_url=base_url, token=login.parsed.token, raise_on_unexpected_status=True
        )
    else:
        token = login.parsed.csrf_token
        check(type(login.parsed).__name__ == "SessionAuthenticateResponse", "csrf")
        cookies = dict(plain.get_httpx_client().cookies)
        check(plan["cookie"] in cookies, "the documented session cookie is set")
        # The session: its cookie; the CSRF token in the header the writes declare.
        client = package.client.AuthenticatedClient(
            base_url=base_url,
            token=token,
            prefix="",
            auth_header_name="X-CSRF-Token",
            cookies=cookies,
            raise_on_unexpected_status=True,
        )
        write = {"x_csrf_token": token}
    keys: dict[str, Any] = {}
    made: list[tuple[dict[str, Any], Any]] = []
    for resource in plan["resources"]:
        ops, model = resource["operations"], resource["model"]

        def body(
            data: dict[str, Any],
            kind: str,
            resource: Any = resource,
            model: Any = model,
        ) -> Any:
            filled = {**data}
            for field, target in resource["relations"].items():
                filled[field] = keys[target]
            return package.model(f"{model}{kind}", filled)

        what = resource["name"]
        created = package.call(
            ops["store"],
            client=client,
            body=body(resource["create"], "Create"),
            **write,
        )
        check(created.status_code == 201, f"{what}: create", created)
        check(type(created.parsed).__name__ == f"{model}SaveResponse", f"{what}: 201")
        key = getattr(created.parsed.data, resource["key"])
        keys[resource["name"]] = key
        made.append((resource, key))
        query = {
            "page": 1,
            "per_page": 5,
            "sort": resource["sort"],
            "search": resource["marker"],
            resource["filter"]["argument"]: resource["filter"]["value"],
        }
        if resource["query_tag"]:
            query["query_tag"] = resource["query_tag"]
        listed = package.call(ops["index"], client=client, **query)
        check(listed.status_code == 200, f"{what}: list", listed)
        check(type(listed.parsed).__name__ == f"{model}Paginator", f"{what}: page")
        found = [getattr(r, resource["key"]) for r in listed.parsed.data]
        check(key in found or resource["query_tag"], f"{what}: listed and filtered")
        shown = package.call(ops["show"], client=client, resource_item=key)
        check(shown.status_code == 200, f"{what}: show", shown)
        check(type(shown.parsed).__name__ == model, f"{what}: record parsed")
        put = package.call(
            ops["update"],
            client=client,
            resource_item=key,
            body=body(resource["update"], "Update"),
            **write,
        )
        check(put.status_code == 200, f"{what}: PUT", put)
        patched = package.call(
            ops["patch"],
            client=client,
            resource_item=key,
            body=package.model(f"{model}Update", resource["patch"]),
            **write,
        )
        check(patched.status_code == 200, f"{what}: PATCH", patched)
        field, value = next(iter(resource["patch"].items()))
        check(
            getattr(patched.parsed.data, field) == value,
            f"{what}: PATCH saved",
            patched,
        )
        invalid = package.call(
            ops["patch"],
            client=client,
            resource_item=key,
            body=package.model(f"{model}Update", resource["invalid"]),
            **write,
        )
        check(invalid.status_code == 422, f"{what}: 422", invalid)
        errors = invalid.parsed.errors.additional_properties
        check(
            type(invalid.parsed).__name__ == "ValidationError"
            and list(errors) == list(resource["invalid"]),
            f"{what}: 422 parsed into ValidationError",
            invalid,
        )
        spare = package.call(
            ops["store"],
            client=client,
            body=body(resource["create"], "Create"),
            **write,
        )
        check(spare.status_code == 201, f"{what}: create another", spare)
        ids = package.model(
            resource["mass_delete_body"],
            {"ids": [getattr(spare.parsed.data, resource["key"])]},
        )
        many = package.call(ops["mass_delete"], client=client, body=ids, **write)
        check(many.status_code == 200, f"{what}: mass delete", many)
        check(many.parsed.deleted == 1, f"{what}: mass delete counted")
    for resource, key in reversed(made):  # those referring to others first
        ops = resource["operations"]
        gone = package.call(ops["destroy"], client=client, resource_item=key, **write)
        check(gone.status_code == 200, f"{resource['name']}: delete", gone)
    out = package.call("logout", client=client, **write)
    check(out.status_code == 200, "logout", out)
    again = package.call(plan["resources"][0]["operations"]["index"], client=client)
    check(again.status_code == 401, "logged out", again)


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    run(json.load(sys.stdin))
    print(f"{len(STEPS)} steps passed")
