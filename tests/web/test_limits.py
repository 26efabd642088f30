"""Limits that keep one client from exhausting the server: bodies, texts, tables, connections."""

from __future__ import annotations

from collections.abc import Iterator

from web_support import LiveServer


def test_a_chunked_body_over_the_limit_is_413(server: LiveServer) -> None:
    def chunks() -> Iterator[bytes]:  # no content-length: sent chunked
        for _ in range(40):
            yield b" " * (10 * 1024)

    r = server.http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 320 KiB" in r.json()["detail"]

    def small() -> Iterator[bytes]:
        yield b'{"game": '
        yield b'"baha"}'

    r = server.http.post("/api/tables", content=small(), headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
