"""What a response body is sent as: gzip above a kilobyte when the client accepts it (issue
11), and, for the answers every viewer of a table asks for at each seq (``GET /view``), the
very bytes encoded and compressed once per seq for every request asking alike (issue 10)."""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response

GZIP_MINIMUM_BYTES = 1024
GZIP_LEVEL = 6
"""zlib's default: nearly level 9's size for a fraction of its CPU on two shared cores."""
API_GZIP_LEVEL = 1
"""The API's answers every move asks for (``Encoded``): a Darkest Night view of 30 KB packs to
8.3 KB in 86 µs at level 1, to 7.0 KB in 383 µs at level 6, made for each seat at each seq."""
JSON = "application/json"


@dataclass(eq=False, slots=True)
class Encoded:
    """A JSON body, and its gzip made the first time a client that accepts it asks."""

    raw: bytes
    packed: bytes | None = field(default=None)

    def response(self, request: Request) -> Response:
        """The body as this request takes it: gzipped (once, then kept) if it accepts gzip
        and the body is worth it, else as is. The app's gzip layer passes an answer that
        says its encoding through untouched."""
        if len(self.raw) < GZIP_MINIMUM_BYTES or "gzip" not in request.headers.get("accept-encoding", ""):
            return Response(self.raw, media_type=JSON)
        if self.packed is None:
            self.packed = gzip.compress(self.raw, compresslevel=API_GZIP_LEVEL, mtime=0)
        headers = {"content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(self.packed, media_type=JSON, headers=headers)
