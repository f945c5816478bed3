"""Tracks: guests do not see the tracks whose title starts with "Hidden"."""

from __future__ import annotations

from typing import Any

from app.resources.track import TrackResource as GeneratedTrackResource


class TrackResource(GeneratedTrackResource):
    def scope(self, query: Any, user: Any) -> Any:
        if user.email.endswith("@guest.test"):
            return query.exclude(title__startswith="Hidden")
        return query
