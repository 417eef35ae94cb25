"""Secret tokens: invite links, device sessions and the game master's link.

Only SHA-256 hashes are stored; the tokens themselves are shown once, at creation (or,
for a device session, set in that device's cookie).
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_table_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
