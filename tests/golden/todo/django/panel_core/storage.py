"""Where uploaded files live: a folder on disk, or an S3-compatible bucket.

``STORAGE_URL`` chooses: empty (the default) keeps files under ``MEDIA_ROOT`` (a folder,
``media`` beside the project unless set); ``s3://bucket/prefix`` keeps them in a bucket,
with ``?endpoint_url=http://…`` for an S3-compatible server (MinIO, Ceph, moto) and
``&region=…``; credentials come from the usual AWS settings (``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, profiles, instance roles), never from the URL. boto3 is
imported only for S3.

Both frameworks write through the same :class:`Storage`; keys come from
:func:`panel_core.files.new_key`, and a key that is not one is refused before any path
or object name is made of it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import parse_qs, urlsplit

from .files import is_key

CHUNK = 64 * 1024


class StorageError(ValueError):
    """A ``STORAGE_URL`` that names no store panelforge knows."""


class Storage(Protocol):
    """What the panels need of a store."""

    def save(self, key: str, source: IO[bytes]) -> None:
        """Store the content of ``source`` (read from its start) under ``key``."""

    def chunks(self, key: str) -> Iterator[bytes] | None:
        """The content under ``key`` in chunks; ``None`` if there is none."""

    def head(self, key: str, size: int) -> bytes:
        """The first ``size`` bytes under ``key`` (empty if there is none)."""

    def delete(self, key: str) -> None:
        """Remove ``key``'s content; nothing happens if there is none."""


def _checked(key: str) -> str:
    if not is_key(key):
        raise ValueError(f"not a storage key: {key!r}")
    return key


class LocalStorage:
    """Files in a folder: ``<root>/<resource>/<field>/<id>-<name>``."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()

    def _path(self, key: str) -> Path:
        path = (self.root / _checked(key)).resolve()
        if self.root not in path.parents:
            raise ValueError(f"not a storage key: {key!r}")
        return path

    def save(self, key: str, source: IO[bytes]) -> None:
        """Write the file beside its place, then move it there (never half a file)."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        source.seek(0)
        with partial.open("xb") as target:
            shutil.copyfileobj(source, target, CHUNK)
        partial.replace(path)

    def chunks(self, key: str) -> Iterator[bytes] | None:
        """The file in chunks; ``None`` if there is none."""
        try:
            handle = self._path(key).open("rb")  # noqa: SIM115 (closed below)
        except (FileNotFoundError, ValueError):
            return None

        def read() -> Iterator[bytes]:
            with handle:
                while chunk := handle.read(CHUNK):
                    yield chunk

        return read()

    def head(self, key: str, size: int) -> bytes:
        """The first ``size`` bytes of the file."""
        try:
            with self._path(key).open("rb") as handle:
                return handle.read(size)
        except (FileNotFoundError, ValueError):
            return b""

    def delete(self, key: str) -> None:
        """Remove the file, if it is there."""
        with contextlib.suppress(ValueError):
            self._path(key).unlink(missing_ok=True)


class S3Storage:
    """Objects in a bucket, under ``prefix``: ``<prefix>/<resource>/<field>/<id>``."""

    def __init__(self, bucket: str, prefix: str, **client: Any) -> None:
        import boto3  # only S3 deployments need it

        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.client = boto3.client("s3", **client)

    def _name(self, key: str) -> str:
        key = _checked(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    def save(self, key: str, source: IO[bytes]) -> None:
        """Upload the file (multipart for big ones, as boto3 decides)."""
        source.seek(0)
        self.client.upload_fileobj(source, self.bucket, self._name(key))

    def chunks(self, key: str) -> Iterator[bytes] | None:
        """The object in chunks; ``None`` if there is none."""
        try:
            found = self.client.get_object(Bucket=self.bucket, Key=self._name(key))
        except self.client.exceptions.NoSuchKey:
            return None
        return found["Body"].iter_chunks(CHUNK)

    def head(self, key: str, size: int) -> bytes:
        """The first ``size`` bytes of the object."""
        try:
            found = self.client.get_object(
                Bucket=self.bucket, Key=self._name(key), Range=f"bytes=0-{size - 1}"
            )
        except self.client.exceptions.NoSuchKey:
            return b""
        data: bytes = found["Body"].read()
        return data

    def delete(self, key: str) -> None:
        """Remove the object (S3 answers alike whether or not it was there)."""
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))


def storage_from(url: str | None, media_root: str | os.PathLike[str]) -> Storage:
    """The store ``STORAGE_URL`` names; the ``MEDIA_ROOT`` folder when it is empty."""
    if not url or url.startswith("file:"):
        root = urlsplit(url).path if url else media_root
        return LocalStorage(root or media_root)
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.netloc:
        raise StorageError(
            f"STORAGE_URL must be empty (the MEDIA_ROOT folder), file:///path or "
            f"s3://bucket/prefix, not {parts.scheme or url!r}."
        )
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    client: dict[str, Any] = {}
    if query.get("endpoint_url"):
        client["endpoint_url"] = query["endpoint_url"]
    if query.get("region"):
        client["region_name"] = query["region"]
    return S3Storage(parts.netloc, parts.path, **client)
