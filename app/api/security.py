"""Browser protections: a CSRF guard for cookie-authenticated requests, and the security
headers every HTTP response carries.

Table pages are authorised by the ``umbra_<table>`` cookie an invite link sets, so another
site must not be able to make a visitor's browser post with it. ``SameSite=Lax`` already
keeps the cookie off cross-site POSTs in current browsers; this guard is the second line,
for older browsers and same-site (sibling subdomain) attackers. A request that sends the
cookie with an unsafe method is refused unless the browser says it came from this origin:
``Sec-Fetch-Site`` when present (``same-origin`` or ``none``), else ``Origin`` when present
(this request's own scheme and ``Host``, or the configured public URL). Requests with
neither header (curl, API clients) pass, as do requests carrying a bearer token: a browser
cannot add an ``Authorization`` header to a cross-site request without a CORS preflight,
which this app never grants.

Websocket handshakes are checked by ``Origin`` alone (browsers always send it there): one
with an ``umbra_`` cookie, no ``token`` query parameter or bearer header, and a foreign
``Origin`` is closed before it is accepted (uvicorn answers the handshake with 403), so a
foreign page cannot read a seat's hidden view through the visitor's cookie.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.requests import cookie_parser

from app.http.tokens import COOKIE_PREFIX

Scope = dict[str, Any]

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TRUSTED_FETCH_SITES = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's /docs (Swagger UI) and /redoc pages load their scripts, styles and fonts from
# public CDNs and start them with an inline script. They show only the OpenAPI schema (no
# table data), so they get this looser policy instead of breaking; every other page,
# /openapi.json included, keeps the strict one.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; worker-src 'self' blob:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})


def _headers_with(csp: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-frame-options", b"DENY"),
        # Invite links carry seat tokens in their paths: never send them to other sites.
        (b"referrer-policy", b"same-origin"),
        (b"x-content-type-options", b"nosniff"),
    ]


HEADERS = _headers_with(CSP)
DOCS_HEADERS = _headers_with(DOCS_CSP)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP response gets (the CSP depends on the path); built once."""
    return DOCS_HEADERS if path in DOCS_PATHS else HEADERS


def normal_origin(scheme: str, netloc: str) -> str | None:
    """``scheme://host[:port]`` lower-cased, without the scheme's default port; None when
    it cannot be parsed (so it matches nothing)."""
    scheme = scheme.lower()
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or scheme not in DEFAULT_PORTS:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[scheme] else "")


def origin_of_url(url: str) -> str | None:
    parts = urlsplit(url.strip())
    return normal_origin(parts.scheme, parts.netloc) if parts.scheme and parts.netloc else None


class BrowserProtections:
    """The CSRF checks of the module, for ``app.api.gate.Gate`` (which sends the security
    headers and the refusals)."""

    def __init__(self, public_url: str = "") -> None:
        self.public_origin = origin_of_url(public_url) if public_url else None

    # -- the checks ---------------------------------------------------------------------

    def cross_site(self, scope: Scope) -> bool:
        """An unsafe request on the strength of an umbra cookie that a browser says (or
        shows) came from another site."""
        if scope.get("method", "GET").upper() not in UNSAFE_METHODS:
            return False
        headers = _headers(scope)
        if not _has_umbra_cookie(headers) or _has_bearer(headers):
            return False
        site = headers.get("sec-fetch-site")
        if site is not None:
            return site.strip().lower() not in TRUSTED_FETCH_SITES
        origin = headers.get("origin")
        return origin is not None and not self._own_origin(scope, headers, origin)

    def foreign_socket(self, scope: Scope) -> bool:
        headers = _headers(scope)
        if not _has_umbra_cookie(headers) or _has_bearer(headers):
            return False
        if parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token"):
            return False
        origin = headers.get("origin")
        return origin is not None and not self._own_origin(scope, headers, origin)

    def _own_origin(self, scope: Scope, headers: dict[str, str], origin: str) -> bool:
        """``origin`` is this server as the request reached it (scheme from the scope, so
        after uvicorn's trusted X-Forwarded-Proto; host from ``Host``), or the public URL."""
        claimed = origin_of_url(origin)
        if claimed is None:
            return False  # "null" (sandboxed frames, file: pages) or garbage
        if claimed == self.public_origin:
            return True
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        host = headers.get("host")
        if host is None and scope.get("server"):
            server_host, server_port = scope["server"]
            host = f"{server_host}:{server_port}" if server_port else server_host
        return host is not None and claimed == normal_origin(scheme, host)


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers, lower-cased names; repeated cookie headers joined."""
    headers: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", ()):
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        if name == "cookie" and name in headers:
            headers[name] += "; " + value
        else:
            headers.setdefault(name, value)
    return headers


def _has_umbra_cookie(headers: dict[str, str]) -> bool:
    cookie = headers.get("cookie")
    return bool(cookie) and any(name.startswith(COOKIE_PREFIX) for name in cookie_parser(cookie))


def _has_bearer(headers: dict[str, str]) -> bool:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and bool(value.strip())
