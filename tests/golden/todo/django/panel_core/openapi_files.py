"""The spec of file and image fields: their values and their multipart bodies.

A record carries each file as ``{url, name, size, media_type}`` (or null). A JSON
create or update can only clear a file (null); files are sent in a
``multipart/form-data`` body, which the create and update of a resource with file
fields document beside JSON: each file field a binary part, ``<field>_clear`` to clear
one, the other fields as text. The download route answers the stored content.
"""

from __future__ import annotations

from typing import Any

from .fields import File, Image
from .resource import Resource

Schema = dict[str, Any]
MULTIPART = "multipart/form-data"
CLEAR_SUFFIX = "_clear"


def file_value_schema(field: File, *, v30: bool, null: bool) -> Schema:
    """A stored file as records carry it."""
    kind = "image" if isinstance(field, Image) else "file"
    schema: Schema = {
        "type": ["object", "null"] if null and not v30 else "object",
        "required": ["url", "name", "size", "media_type"],
        "properties": {
            "url": {
                "type": "string",
                "description": f"The {kind}'s download route (logged-in users).",
            },
            "name": {"type": "string", "description": "The name it was uploaded as."},
            "size": {"type": "integer", "minimum": 1, "format": "int64"},
            "media_type": {
                "type": "string",
                "description": "Sniffed from the content when it was uploaded.",
            },
        },
        "additionalProperties": False,
    }
    if null and v30:
        schema["nullable"] = True
    return schema


def file_write_schema(field: File, *, v30: bool) -> Schema:
    """A file field in a JSON body: null clears the file (send files as multipart)."""
    described = "Only null, which clears the file; upload files as multipart/form-data."
    if v30:
        return {"nullable": True, "enum": [None], "description": described}
    return {"type": "null", "description": described}


def _limits(field: File) -> str:
    found = []
    if field.accept:
        found.append("Accepted media types (sniffed from the content): ")
        found.append(", ".join(field.accept) + ". ")
    if field.max_bytes:
        found.append(f"At most {field.max_bytes} bytes. ")
    if isinstance(field, Image):
        found.append("An image, decoded to be verified; no other content inside it.")
    return "".join(found).strip()


def multipart_schema(
    resource: type[Resource], json_schema: Schema, *, create: bool
) -> Schema:
    """The multipart form of a create or update: ``json_schema``'s fields as text,
    each file field a binary part, ``<field>_clear`` to clear one."""
    properties: dict[str, Schema] = {}
    for name, schema in json_schema.get("properties", {}).items():
        field = resource.field_map[name]
        if isinstance(field, File):
            part: Schema = {"type": "string", "format": "binary", "title": field.label}
            described = _limits(field)
            if described:
                part["description"] = described
            properties[name] = part
            if not create or not field.required:
                properties[name + CLEAR_SUFFIX] = {
                    "type": "string",
                    "enum": ["1"],
                    "description": f"Sent: the {field.label} file is removed.",
                }
        else:
            properties[name] = {"type": "string", "title": schema.get("title", name)}
    found: Schema = {"type": "object", "properties": properties}
    if create and json_schema.get("required"):
        found["required"] = list(json_schema["required"])
    return found
