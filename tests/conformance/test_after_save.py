"""Where a saved form goes, and what it says there, on both frameworks.

The record form's three buttons: Save goes back to the list, "Save and continue
editing" (``_save=continue``) to the record's form, "Save and add another"
(``_save=another``) to an empty create form; the message on the next page names the
record by its display label ("Book “Dune” created."). JSON clients are unaffected.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from generator.model import ir
from generator.model.samples import creation_order

from .conftest import SESSION_EXAMPLES, _params
from .support import Deployment, crud, form_text, new_marker, page, page_token

HTML = {"Accept": "text/html"}


@pytest.fixture(params=_params(SESSION_EXAMPLES, ["sqlite"]))
def served(request: pytest.FixtureRequest, fleet: Any) -> Deployment:
    return fleet.get(*request.param)


def _form(body: dict[str, Any], token: str, choice: str | None) -> dict[str, str]:
    form = {name: form_text(value) for name, value in body.items()}
    return {"_token": token, **form, **({"_save": choice} if choice else {})}


def _flash(client: Any, url: str) -> list[str]:
    shown = client.get(url, headers=HTML)
    assert shown.status_code == 200, shown.text[:2000]
    found = re.findall(r'<p class="flash flash-success"[^>]*>(.*?)</p>', shown.text)
    return [html.unescape(message) for message in found]


def _heading(client: Any, url: str) -> str:
    shown = client.get(url, headers=HTML)
    assert shown.status_code == 200, shown.text[:2000]
    found = re.search(r"<h1>(.*?)</h1>", shown.text)
    assert found, shown.text[:2000]
    return html.unescape(found.group(1))


def _named(client: Any, resource: ir.Resource, key: Any) -> tuple[str, str]:
    """The resource's label and the record's name, as the pages' headings say them:
    "New Book" and "Book Dune"."""
    label = _heading(client, page(resource, "form-page")).removeprefix("New ")
    detail = _heading(client, page(resource, "detail-page", key))
    assert detail.startswith(label + " "), (label, detail)
    return label, detail.removeprefix(label + " ")


@pytest.mark.parametrize("choice", [None, "continue", "another"])
def test_each_save_button_goes_where_it_says(
    served: Deployment, choice: str | None
) -> None:
    with served.api() as api:
        resource = creation_order(api.project)[-1]
        token = page_token(api.client, page(resource, "form-page"))
        body = api.payload(resource, 1, new_marker())
        made = api.client.post(
            crud(resource), data=_form(body, token, choice), headers=HTML
        )
        assert made.status_code == 303, made.text[:2000]
        listed = api.get(crud(resource), params={"sort": f"-{resource.key}"})
        record = listed.json()["data"][0]
        key = record[resource.key]
        expected = {
            None: page(resource, "index-page"),
            "continue": page(resource, "form-page", key),
            "another": page(resource, "form-page"),
        }[choice]
        assert made.headers["location"] == expected
        flashed = _flash(api.client, expected)
        label, name = _named(api.client, resource, key)
        assert flashed == [f"{label} “{name}” created."]

        changed = api.client.post(
            crud(resource, key),
            data={**_form(body, token, choice), "_method": "PUT"},
            headers=HTML,
        )
        assert changed.status_code == 303, changed.text[:2000]
        assert changed.headers["location"] == expected
        assert _flash(api.client, expected) == [f"{label} “{name}” saved."]


def test_the_form_offers_the_three_buttons(served: Deployment) -> None:
    with served.api() as api:
        resource = creation_order(api.project)[0]
        form = api.client.get(page(resource, "form-page"), headers=HTML).text
        assert '<button class="button primary" type="submit">Save</button>' in form
        assert 'name="_save" value="continue">Save and continue editing<' in form
        assert 'name="_save" value="another">Save and add another<' in form
