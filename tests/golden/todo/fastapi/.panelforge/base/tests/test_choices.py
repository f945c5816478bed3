"""What a belongs-to input offers, decided by the kernel alone.

Up to ``SELECT_LIMIT`` related records: a select box whose options carry the key.
Beyond: a key input with a picker naming the current record, in forms and filters
alike, never a list cut short. One file in the FastAPI and the Django project.
"""

from __future__ import annotations

import json

from panel_core.choices import SELECT_LIMIT, offer, option_text, wanted_key
from panel_core.fields import ID, BelongsTo, Text
from panel_core.filter_bar import filter_controls
from panel_core.forms import form_widgets
from panel_core.resource import Resource


class Patient(Resource):
    """The related resource: many records, named by two fields."""

    uri = "patient"
    fields = (ID(), Text("first_name"), Text("last_name"))
    display = "{first_name} {last_name}"


class Visit(Resource):
    """Refers to a patient."""

    uri = "visit"
    fields = (ID(), Text("note"), BelongsTo("patient", resource="Patient"))


def _rows(count: int) -> list[tuple[int, str]]:
    return [(n, "Carla Schmidt") for n in range(1, count + 1)]


def test_a_select_offers_every_record_while_they_fit() -> None:
    related = offer(Patient, _rows(SELECT_LIMIT))
    assert related.picker is None and len(related.options) == SELECT_LIMIT
    (widget,) = [
        w
        for w in form_widgets(
            Visit, {"patient": "2"}, {}, {"patient": related}, creating=False
        )
        if w.name == "patient"
    ]
    assert widget.input == "select"
    chosen = [o for o in widget.options if o.selected]
    assert [(o.value, o.label) for o in chosen] == [("2", "Carla Schmidt · #2")]


def test_past_the_limit_a_picker_names_the_current_record() -> None:
    related = offer(Patient, _rows(SELECT_LIMIT + 1), ("9999", "Carla Schmidt"))
    assert related.options == ()
    assert related.picker is not None
    assert related.picker.search == "/admin/resource/patient/crud?per_page=20"
    assert related.picker.find_url == "/admin/resource/patient/index-page"
    assert json.loads(related.picker.display) == [
        ["", "first_name"],
        [" ", None],
        ["", "last_name"],
    ]
    values = {"patient": "9999"}
    (widget,) = [
        w
        for w in form_widgets(Visit, values, {}, {"patient": related}, creating=False)
        if w.name == "patient"
    ]
    assert (widget.input, widget.value, widget.picked) == (
        "picker",
        "9999",
        "Carla Schmidt",
    )
    assert widget.options == []
    controls = filter_controls(
        Visit, [("filter[patient]", "9999")], {"patient": related}
    )
    filters = [w for control in controls for w in control.widgets]
    chip = next(w for w in filters if w.name == "filter[patient]")
    assert (chip.input, chip.picked) == ("picker", "Carla Schmidt")


def test_an_option_names_its_key_once() -> None:
    assert option_text(7, "Dr. Lee") == "Dr. Lee · #7"
    assert option_text(7, "#7") == "#7"  # a record without a name is its key already


def test_only_a_possible_key_is_looked_up() -> None:
    assert wanted_key(Patient, "12") == 12
    assert wanted_key(Patient, "twelve") is None
    assert wanted_key(Patient, "") is None
