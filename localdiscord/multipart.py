"""Request bodies as Discord takes them: JSON, or multipart/form-data with `payload_json` and
`files[n]`."""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

from aiohttp import web

from localdiscord.objects import ApiError, Attachment, Json, snowflake


def parse_multipart(body: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """Split a multipart/form-data body into (lower-cased headers, exact bytes) per part.

    Our own few lines: aiohttp's reader parses every header through the email package, which
    made the fake, not the bot, the slow end of a latency benchmark.
    """
    boundary = header_param(content_type, "boundary")
    if not boundary:
        raise ApiError(400, 50035, "Invalid Form Body")
    parts = []
    for chunk in (b"\r\n" + body).split(b"\r\n--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, sep, value = line.partition(":")
            if sep:
                headers[key.strip().lower()] = value.strip()
        parts.append((headers, data))
    return parts


def header_param(header: str, name: str) -> str | None:
    """`name=value` or `name="value"` from a header such as Content-Disposition."""
    m = re.search(rf'(?:^|;)\s*{name}=(?:"([^"]*)"|([^;\s]*))', header)
    return None if m is None else urllib.parse.unquote(m[1] if m[1] is not None else m[2])


def split_body(raw: bytes, content_type: str) -> tuple[Any, dict[int, Attachment]]:
    """The JSON payload (None for an empty body) and the files (new attachments, by n) of a body."""
    if not content_type.startswith("multipart/"):
        return (json.loads(raw) if raw else None), {}
    payload: Json = {}
    files: dict[int, Attachment] = {}
    for headers, data in parse_multipart(raw, content_type):
        disposition = headers.get("content-disposition", "")
        name = header_param(disposition, "name") or ""
        if name == "payload_json":
            payload = json.loads(data)
        elif m := re.fullmatch(r"files\[(\d+)\]", name):
            filename = header_param(disposition, "filename") or name
            ctype = headers.get("content-type", "application/octet-stream")
            files[int(m[1])] = Attachment(snowflake(), filename, data, ctype)
    return payload, files


async def read_body(request: web.Request) -> tuple[Json, dict[int, Attachment]]:
    """A request's JSON body, or a multipart one: payload_json plus files[n] (bytes kept exactly)."""
    payload, files = split_body(await request.read(), request.headers.get("Content-Type", ""))
    return payload or {}, files
