"""Patients: every lifecycle hook, logged; clinic staff see their clinic only."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.models import Patient
from app.resources.patient import PatientResource as GeneratedPatientResource
from panel.hooks import Forbidden, ValidationError


def log(*event: Any) -> None:
    with Path(os.environ["HOOK_LOG"]).open("a", encoding="utf-8") as file:
        file.write(json.dumps(event) + "\n")


class PatientResource(GeneratedPatientResource):
    def before_creating(self, data: dict[str, Any], user: Any) -> dict[str, Any]:
        log("before_creating", data["name"])
        if data["name"] == "Refuse":
            raise ValidationError({"name": ["Refused by hook."]})
        return {**data, "edited_by": user.email}

    def after_created(self, record: dict[str, Any], user: Any) -> None:
        # The write's own transaction: the new row is there already.
        count = Patient.objects.filter(name=record["name"]).count()
        log("after_created", record["name"], record["edited_by"], count)
        if record["name"] == "Explode":
            raise RuntimeError("the after_created hook failed")

    def before_updating(
        self, record: dict[str, Any], data: dict[str, Any], user: Any
    ) -> dict[str, Any]:
        log("before_updating", record["name"], data.get("name"))
        if data.get("name") == "Locked":
            raise Forbidden("Locked names are not allowed.")
        return {**data, "edited_by": user.email}

    def after_updated(self, record: dict[str, Any], user: Any) -> None:
        log("after_updated", record["name"])

    def before_deleting(self, record: dict[str, Any], user: Any) -> None:
        log("before_deleting", record["name"])
        if record["notes"] == "keep":
            raise Forbidden("This patient is kept.")

    def after_deleted(self, record: dict[str, Any], user: Any) -> None:
        log("after_deleted", record["name"])

    def before_mass_deleting(self, ids: list[Any], user: Any) -> list[Any]:
        log("before_mass_deleting", sorted(ids))
        return ids

    def after_mass_deleted(self, ids: list[Any], user: Any) -> None:
        log("after_mass_deleted", sorted(ids))

    def scope(self, query: Any, user: Any) -> Any:
        if user.email.endswith("@clinic.test"):
            return query.filter(clinic__name="North")
        return query
