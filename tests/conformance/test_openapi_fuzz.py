"""schemathesis against the live server, with the spec the server itself serves.

Every operation of ``/oag.json`` gets ``EXAMPLES`` generated requests (derandomized, so
a run repeats exactly), sent as a logged-in JSON client; a server error, an
undocumented status, a wrong content type or a body that breaks its schema fails. A
request naming a record is sent once more for a record that exists, so updates and
deletes meet real data too. Logging out gets a token of its own.

Then the stateful phase: schemathesis follows the spec's OpenAPI links from each
create (201) to the new record's show, update, patch and delete, in generated
sequences, with the same checks (its own link inference is off, so the sequences
follow the links the spec documents, and a broken link fails).
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from generator.model.samples import creation_order

from .conftest import EXAMPLE_IDS, Fleet, _params
from .support import Api, Deployment, crud

# Stateful sequences: bounded (derandomized, a few steps each) to cost seconds.
SCENARIOS = 25
STEPS = 6
STATEFUL_SETTINGS = settings(
    max_examples=SCENARIOS,
    stateful_step_count=STEPS,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)

pytestmark = pytest.mark.e2e

EXAMPLES = 12
ITEM = "resourceItem"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def _identity(api: Api) -> dict[str, Any]:
    """The client's login, as keyword arguments of a schemathesis call."""
    keep = {"accept", "authorization", "x-csrf-token"}
    headers = {k: v for k, v in api.client.headers.items() if k.lower() in keep}
    return {"headers": headers, "cookies": dict(api.client.cookies)}


def _fuzz(deployment: Deployment, api: Api, operation: Any) -> None:
    keys = {
        crud(resource): api.create(resource, 1)[resource.key]
        for resource in creation_order(deployment.project)
    }
    base = deployment.base_url

    @given(case=operation.as_strategy())
    @FUZZ_SETTINGS
    def run(case: schemathesis.Case) -> None:
        identity = _identity(api)
        if case.path == "/admin/logout":  # it would end the client's login
            with deployment.api() as own:
                identity = _identity(own)
        case.call_and_validate(base_url=base, checks=CHECKS, **identity)
        if case.path_parameters and ITEM in case.path_parameters:
            collection = case.path.removesuffix(f"/{{{ITEM}}}")
            case.path_parameters[ITEM] = keys[collection]
            case.call_and_validate(base_url=base, checks=CHECKS, **identity)

    run()


def test_the_api_does_what_the_served_spec_says(deployment: Deployment) -> None:
    route = "/" + deployment.project.docs.route.strip("/")
    schema = schemathesis.openapi.from_url(deployment.base_url + route)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6 * len(deployment.project.resources)
    failures: list[str] = []
    with deployment.api() as api:
        for operation in operations:
            try:
                _fuzz(deployment, api, operation)
            except Exception as exc:  # every operation's failure, not just the first
                failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)


def _stateful_schema(deployment: Deployment) -> Any:
    """The served spec, with schemathesis's own link inference off: links as written."""
    config = SchemathesisConfig.from_dict(
        {"phases": {"stateful": {"inference": {"algorithms": []}}}}
    )
    route = "/" + deployment.project.docs.route.strip("/")
    return schemathesis.openapi.from_url(deployment.base_url + route, config=config)


@pytest.fixture(params=_params(EXAMPLE_IDS, ["sqlite"]))
def linked_deployment(request: pytest.FixtureRequest, fleet: Fleet) -> Deployment:
    """Each framework × example on SQLite: links are the spec's and the API's, not the
    database's (the fuzzing above meets every database; CI time)."""
    return fleet.get(*request.param)


def test_the_links_from_create_lead_to_the_new_record(
    linked_deployment: Deployment,
) -> None:
    deployment = linked_deployment
    schema = _stateful_schema(deployment)
    followed: list[tuple[str, str, int]] = []
    with deployment.api() as api:
        related = {
            f.name: api.related_key(deployment.project.resource(f.relation))
            for resource in deployment.project.resources
            for f in resource.fields
            if f.relation and f.relation != resource.name
        }
        identity = _identity(api)
        base = deployment.base_url

        class Machine(schema.as_state_machine()):  # type: ignore[misc]
            def before_call(self, case: schemathesis.Case) -> None:
                # Relations point at records that exist, so creates can succeed.
                if case.method == "POST" and isinstance(case.body, dict):
                    case.body.update(
                        (name, key)
                        for name, key in related.items()
                        if name in case.body
                    )

            def get_call_kwargs(
                self, case: schemathesis.Case  # noqa: ARG002 (the same for every case)
            ) -> dict[str, Any]:
                return {"base_url": base, **identity}

            def after_call(self, response: Any, case: schemathesis.Case) -> None:
                if case.path_parameters and ITEM in case.path_parameters:
                    followed.append((case.method, case.path, response.status_code))

            def validate_response(
                self, response: Any, case: schemathesis.Case, **kwargs: Any
            ) -> None:
                case.validate_response(
                    response, checks=CHECKS, transport_kwargs=kwargs or None
                )

        Machine.run(settings=STATEFUL_SETTINGS)
    reached = {(method, path) for method, path, status in followed if status < 300}
    methods = {method for method, _ in reached}
    # The links were followed to records that exist, with every linked method.
    assert {"GET", "PUT", "PATCH", "DELETE"} <= methods, followed
