"""An S3-compatible server for the tests that keep files in a bucket: moto's, on a
free local port (never the network), with a bucket of the test's own (moto keeps one
state per process, so each use gets a bucket no other test writes to)."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import boto3
from moto.server import ThreadedMotoServer

# Test credentials, in the variables boto3 reads (the served projects' environment).
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@dataclass(frozen=True)
class Bucket:
    """One bucket of the server, and a boto3 client of it."""

    client: Any
    name: str
    endpoint: str

    def storage_env(self, prefix: str) -> dict[str, str]:
        """A served project's settings keeping its files here, under ``prefix``."""
        url = f"s3://{self.name}/{prefix}?endpoint_url={self.endpoint}"
        return {**CREDENTIALS, "STORAGE_URL": url}

    def keys(self, prefix: str) -> list[str]:
        """The keys under ``prefix``, sorted."""
        found = self.client.list_objects_v2(Bucket=self.name, Prefix=f"{prefix}/")
        return sorted(item["Key"] for item in found.get("Contents", []))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def s3_server() -> Iterator[Bucket]:
    """moto's S3 server, with a new bucket made."""
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        region_name=CREDENTIALS["AWS_DEFAULT_REGION"],
    )
    bucket = Bucket(client, f"gallery-{uuid.uuid4().hex[:12]}", endpoint)
    client.create_bucket(Bucket=bucket.name)
    try:
        yield bucket
    finally:
        server.stop()
