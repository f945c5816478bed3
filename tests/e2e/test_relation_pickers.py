"""Relation fields that scale: 10,000 related records, on both frameworks.

One project per framework is generated from ``conformance/pickers/clinic.yaml``,
migrated and served once for the module; its SQLite database gets 10,000 patients
written directly (three of them named "Carla Schmidt", at the end of every order),
two doctors of the same name and an appointment of the last Carla. An appointment's
patient is then too many records for a select box: without JavaScript it is a key
input naming the current patient, with a "find…" link; in Chromium (Debian's, driven
by Playwright) a search-as-you-type picker over the patients' own JSON list. Doctors
fit a select box, whose options carry their keys.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

pytestmark = pytest.mark.e2e

MANIFEST = REPO / "tests" / "conformance" / "pickers" / "clinic.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "nurse@example.com"
PASSWORD = "a long nurse password"
PATIENTS = 10_000
ROOMS = 250  # past the select box's 200, and rooms have no search fields
MISSING_ROOM = "/room-resource/crud/99999"
CARLAS = (9_998, 9_999, 10_000)  # keys of the three Carla Schmidts
APPOINTMENTS = "/admin/resource/appointment-resource"
PATIENT_CRUD = "/admin/resource/patient-resource/crud"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


def _seed(database: Path) -> None:
    """10,000 patients (the last three: Carla Schmidt), two doctors "Dr. Lee", 250
    rooms, and appointment 1 of the last Carla, then three more; patient 1 was
    referred by the last Carla, patient 2 by patient 3."""
    people = [(f"Given{n:05d}", "Person") for n in range(1, PATIENTS - 2)]
    people += [("Carla", "Schmidt")] * 3
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO patients (first_name, last_name) VALUES (?, ?)", people
        )
        referrals = [(CARLAS[-1], 1), (3, 2)]  # (referred by, patient)
        connection.executemany(
            "UPDATE patients SET referred_by = ? WHERE id = ?", referrals
        )
        connection.executemany(
            "INSERT INTO doctors (name) VALUES (?)", [("Dr. Lee",)] * 2
        )
        rooms = [(f"Room {n}",) for n in range(1, ROOMS + 1)]
        connection.executemany("INSERT INTO rooms (name) VALUES (?)", rooms)
        connection.executemany(
            "INSERT INTO appointments (note, patient, doctor) VALUES (?, ?, NULL)",
            [("Check-up", CARLAS[-1]), ("Sort one", 1), ("Sort two", 5000)]
            + [("Sort three", CARLAS[0])],
        )


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' clinic panels, seeded and served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"pickers-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            database = folder / "clinic.db"
            server = SERVERS[framework](project, f"sqlite:///{database}")
            server.migrate()
            server.create_user(EMAIL, PASSWORD)
            _seed(database)
            server.start()
            started[framework] = server
        yield started
    finally:
        for server in started.values():
            server.stop()


@contextmanager
def _client(server: Server) -> Iterator[httpx.Client]:
    """A browser-like HTTP client of ``server``, logged in (cookies kept)."""
    html = {"Accept": "text/html,application/xhtml+xml"}
    with httpx.Client(base_url=server.base_url, headers=html, timeout=15) as client:
        form = {
            "_token": _token(client.get("/admin/login").text),
            "username": EMAIL,
            "password": PASSWORD,
        }
        assert client.post("/admin/authenticate", data=form).status_code == 303
        yield client


def _token(html: str) -> str:
    found = re.search(r'name="_token" value="([^"]*)"', html)
    assert found is not None
    return found.group(1)


def _appointment(client: httpx.Client, key: int) -> dict[str, Any]:
    response = client.get(
        f"{APPOINTMENTS}/crud/{key}", headers={"Accept": "application/json"}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_without_javascript_a_far_relation_is_a_key_input_kept_on_save(
    servers: dict[str, Server], framework: str
) -> None:
    with _client(servers[framework]) as client:
        response = client.get(f"{APPOINTMENTS}/form-page/1")
        assert response.status_code == 200
        html = response.text
        assert len(response.content) < 100_000
        # No select box of 10,000 options, and no cut one: the current patient named.
        assert '<select id="field-patient"' not in html
        assert 'name="patient" value="10000"' in html
        assert '<span class="picked" id="field-patient-picked">' in html
        assert "Carla Schmidt · #10000</span>" in html
        find = '<a class="find" href="/admin/resource/patient-resource/index-page"'
        assert find in html
        # The doctors fit a select box; their keys tell the two "Dr. Lee" apart.
        assert '<option value="1">Dr. Lee · #1</option>' in html
        assert '<option value="2">Dr. Lee · #2</option>' in html
        # Saved as the form came: the far patient stays.
        form = {
            "_token": _token(html),
            "_method": "PUT",
            "note": "Check-up, moved",
            "patient": "10000",
            "doctor": "2",
        }
        saved = client.post(f"{APPOINTMENTS}/crud/1", data=form)
        assert saved.status_code == 303, saved.text
        record = _appointment(client, 1)
        assert (record["patient"], record["doctor"]) == (10_000, 2)
        # Another far patient chosen by its key (as found through "find…").
        form.update(patient=str(CARLAS[0]), note="Check-up")
        assert client.post(f"{APPOINTMENTS}/crud/1", data=form).status_code == 303
        assert _appointment(client, 1)["patient"] == CARLAS[0]
        form.update(patient=str(CARLAS[-1]), doctor="")
        assert client.post(f"{APPOINTMENTS}/crud/1", data=form).status_code == 303


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_without_javascript_the_index_filters_by_a_far_relation(
    servers: dict[str, Server], framework: str
) -> None:
    with _client(servers[framework]) as client:
        far = client.get(f"{APPOINTMENTS}/index-page?filter[patient]={CARLAS[-1]}")
        assert far.status_code == 200
        assert 'name="filter[patient]" value="10000"' in far.text
        assert "Carla Schmidt · #10000</span>" in far.text
        assert "Check-up" in far.text
        other = client.get(f"{APPOINTMENTS}/index-page?filter[patient]={CARLAS[0]}")
        assert "Check-up" not in other.text.split('id="table"')[1]
        assert "Sort three" in other.text.split('id="table"')[1]
        assert len(other.content) < 100_000


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_picker_finds_records_in_the_related_json_list(
    servers: dict[str, Server], framework: str
) -> None:
    with _client(servers[framework]) as client:
        found = client.get(
            PATIENT_CRUD,
            params={"search": "Carla", "per_page": 20},
            headers={"Accept": "application/json"},
        )
        assert found.status_code == 200
        keys = sorted(record["id"] for record in found.json()["data"])
        assert keys == list(CARLAS)


def test_both_frameworks_serve_the_same_picker_pages(
    servers: dict[str, Server],
) -> None:
    pages = {}
    for framework, server in servers.items():
        with _client(server) as client:
            pages[framework] = [
                _TOKEN.sub(r"\1…", client.get(url).text)
                for url in (f"{APPOINTMENTS}/form-page/1", f"{APPOINTMENTS}/form-page")
            ]
    assert pages["fastapi"] == pages["django"]


def _sync_api() -> Any:
    """Playwright's sync API (its ``expect`` waits until a locator matches)."""
    return pytest.importorskip("playwright.sync_api")


def _console(message: Any, problems: list[str]) -> None:
    """Keep an error Chromium logs, except its own look for a favicon (none here)
    and the lookup of a key no room has, which the test makes on purpose."""
    where = message.location["url"]
    expected = where.endswith(("/favicon.ico", MISSING_ROOM))
    if message.type == "error" and not expected:
        problems.append(f"{message.text} {message.location}")


def _response(response: Any, problems: list[str]) -> None:
    """Keep an answer of an error status, except to the missing room's lookup."""
    if response.status >= 400 and not response.url.endswith(MISSING_ROOM):
        problems.append(f"{response.status} {response.url}")


@pytest.fixture
def browser_page(servers: dict[str, Server], request: pytest.FixtureRequest) -> Any:
    """A logged-in Chromium tab of the framework the test names."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    server = servers[request.param]
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=server.base_url)
        tab = context.new_page()
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.on("console", lambda m: _console(m, problems))
        tab.on("response", lambda response: _response(response, problems))
        tab.goto("/admin/login")
        tab.fill("#username", EMAIL)
        tab.fill("#password", PASSWORD)
        tab.click("button[type=submit]")
        assert urlsplit(tab.url).path == "/admin"
        yield tab
        browser.close()
    assert problems == []


@pytest.mark.parametrize("browser_page", FRAMEWORKS, indirect=True)
def test_the_picker_searches_and_chooses_and_an_edit_keeps_the_value(
    browser_page: Any, request: pytest.FixtureRequest
) -> None:
    tab = browser_page
    tab.goto(f"{APPOINTMENTS}/form-page")
    tab.fill("#field-note", "First visit")
    box = tab.locator("#field-patient")
    assert box.get_attribute("role") == "combobox"
    box.fill("Carla")
    options = tab.locator("#picker-0-list [role=option]")
    # Focusing the box lists the first patients; typing replaces them with the
    # three of 10,000 that match (an answer to an earlier search never wins).
    _sync_api().expect(options).to_have_count(3)
    texts = [unescape(text) for text in options.all_inner_texts()]
    assert set(texts) == {f"Carla Schmidt\n#{key}" for key in CARLAS}
    framework = request.node.callspec.params["browser_page"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"{framework}-relation-picker.png"))
    # Chosen with the keyboard: the key goes in the form, the name beside it.
    box.press("ArrowDown")
    box.press("Enter")
    chosen = tab.locator("input[name=patient]").input_value()
    assert int(chosen) in CARLAS
    picked = tab.locator("#field-patient-picked").inner_text()
    assert picked == f"Carla Schmidt · #{chosen}"
    tab.select_option("#field-doctor", "1")
    tab.click("button:has-text('Save')")
    created = tab.locator(".flash-success").inner_text()
    assert re.fullmatch(r"Appointment “.+” created\.", created), created
    # The new appointment, edited: the far patient shows and stays.
    tab.goto(f"{APPOINTMENTS}/index-page?filter[patient]={chosen}")
    tab.locator("tr", has_text="First visit").locator("text=Edit").click()
    assert tab.locator("#field-patient-picked").inner_text() == picked
    tab.fill("#field-note", "First visit, kept")
    tab.click("button:has-text('Save')")
    saved = tab.locator(".flash-success").inner_text()
    assert re.fullmatch(r"Appointment “.+” saved\.", saved), saved
    tab.goto(f"{APPOINTMENTS}/index-page?filter[patient]={chosen}")
    kept = tab.locator("table.records", has_text="First visit, kept")
    _sync_api().expect(kept).to_have_count(1)


@pytest.mark.parametrize("browser_page", FRAMEWORKS, indirect=True)
def test_the_same_picker_filters_the_index_page(browser_page: Any) -> None:
    tab = browser_page
    tab.goto(f"{APPOINTMENTS}/index-page")
    box = tab.locator("[id='filter-filter[patient]']")
    box.fill("Carla")
    option = tab.locator("[role=option]", has_text=f"#{CARLAS[-1]}")
    option.click()
    assert tab.locator("input[name='filter[patient]']").input_value() == "10000"
    tab.click("text=Apply")
    query = urlsplit(tab.url).query
    assert "filter%5Bpatient%5D=10000" in query or "filter[patient]=10000" in query
    checkup = tab.locator("table.records tbody", has_text="Check-up")
    _sync_api().expect(checkup).to_have_count(1)


def _patient_name(key: int) -> tuple[str, str, int]:
    """What a patient (as seeded) sorts by: its display's fields, then its key."""
    if key in CARLAS:
        return ("Carla", "Schmidt", key)
    return (f"Given{key:05d}", "Person", key)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_relation_column_sorts_by_the_related_records_name(
    servers: dict[str, Server], framework: str
) -> None:
    json = {"Accept": "application/json"}
    with _client(servers[framework]) as client:
        for sort, descending in (("patient", False), ("-patient", True)):
            response = client.get(
                f"{APPOINTMENTS}/crud", params={"sort": sort}, headers=json
            )
            assert response.status_code == 200, response.text
            shown = [_patient_name(r["patient"]) for r in response.json()["data"]]
            assert shown == sorted(shown, reverse=descending)
            # Not the keys' order: the Carlas (keys 9998…) come first by name.
            assert (shown[0][0] == "Carla") != descending
        page = client.get(f"{APPOINTMENTS}/index-page?sort=patient").text
        assert page.index("Carla Schmidt") < page.index("Given00001 Person")
        # A cursor cannot hold a related record's name: refused, saying why.
        cursor = client.get(
            f"{APPOINTMENTS}/crud",
            params={"cursor": "", "sort": "patient"},
            headers=json,
        )
        assert cursor.status_code == 422
        assert cursor.json()["errors"]["sort"] == [
            "'patient' sorts by the related record's name: cursor paging cannot "
            "follow it, page with page= instead."
        ]


@pytest.mark.parametrize("browser_page", FRAMEWORKS, indirect=True)
def test_a_picker_of_records_without_search_looks_them_up_by_key(
    browser_page: Any,
) -> None:
    tab = browser_page
    tab.goto(f"{APPOINTMENTS}/form-page/1")
    box = tab.locator("#field-room")
    assert box.get_attribute("placeholder") == "Type a key"
    box.fill(MISSING_ROOM.rsplit("/", 1)[1])
    tab.locator(".picker-list .none").wait_for()
    assert tab.locator(".picker-list .none").inner_text() == "No matching records"
    box.fill("250")
    option = tab.locator("[role=option]", has_text="#250")
    assert option.inner_text() == "Room 250\n#250"
    option.click()
    assert tab.locator("input[name=room]").input_value() == "250"
    assert tab.locator("#field-room-picked").inner_text() == "Room 250 · #250"


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_relation_to_its_own_resource_sorts_by_the_referrers_name(
    servers: dict[str, Server], framework: str
) -> None:
    with _client(servers[framework]) as client:
        response = client.get(
            PATIENT_CRUD,
            params={"sort": "-referred_by", "per_page": 2},
            headers={"Accept": "application/json"},
        )
        assert response.status_code == 200, response.text
        # Referred by "Given00003 Person", then by "Carla Schmidt": by name, not key.
        assert [r["id"] for r in response.json()["data"]] == [2, 1]
