"""nginx routes each table to one process (issue 25): the generated configuration is one
nginx accepts, the deployment's holds the same routing map, and the map takes the table id
from exactly the paths that are about a table."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from app.serving.routing import TABLE_ROUTE, nginx_config
from tests.serving.cluster_client import nginx_missing

ROOT = Path(__file__).resolve().parents[2]


def route_of(path: str) -> str | None:
    """The table a path routes by, read from the map's own regular expression."""
    pattern = re.search(r"~(\^\S+) \$table;", TABLE_ROUTE).group(1)  # type: ignore[union-attr]
    found = re.match(pattern.replace("?<table>", "?P<table>"), path)
    return found.group("table") if found else None


def test_a_tables_pages_api_and_websocket_route_by_its_id() -> None:
    for path in ("/t/AbC_1-x", "/t/AbC_1-x/act", "/api/tables/AbC_1-x/commands", "/ws/tables/AbC_1-x"):
        assert route_of(path) == "AbC_1-x", path
    assert route_of("/lobby/created/AbC_1-x") == "AbC_1-x"


def test_everything_else_goes_to_any_process() -> None:
    for path in ("/", "/lobby", "/tables", "/tables/rows", "/api/tables", "/static/umbra.js", "/healthz"):
        assert route_of(path) is None, path
    assert "default $request_id;" in TABLE_ROUTE  # a fresh random key per request


def test_the_deployment_routes_the_same_way() -> None:
    deployed = (ROOT / "deploy" / "nginx.conf").read_text()
    assert TABLE_ROUTE.strip() in deployed
    assert "hash $umbra_route consistent;" in deployed and "least_conn" not in deployed
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf" in compose


@pytest.mark.skipif(bool(nginx_missing()), reason="nginx not installed")
def test_nginx_accepts_the_generated_configuration(tmp_path: Path) -> None:
    from app.serving.cluster import find_nginx

    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / kind).mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        nginx_config("127.0.0.1", 8765, ["127.0.0.1:9001", "127.0.0.1:9002"], tmp_path, max_body=1 << 20)
    )
    checked = subprocess.run([find_nginx(), "-t", "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
