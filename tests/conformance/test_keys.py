"""Keys are never given again: a deleted record's key stays unused (issue 19)."""

from __future__ import annotations

from .support import Deployment, crud


def test_keys_of_deleted_records_are_not_reused(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            if resource.key_field.type != "integer":
                continue
            made = [api.create(resource, n)[resource.key] for n in (1, 2)]
            for key in made:
                response = api.request("DELETE", crud(resource, key))
                assert response.status_code == 200, response.text
            again = [api.create(resource, n)[resource.key] for n in (3, 4)]
            assert min(again) > max(made), (resource.name, made, again)
