"""Planted misbehaviour for the harness's own test: each function fails in one of the counted ways."""

from __future__ import annotations

import time


def raise_key_error(_: object) -> tuple[str, int]:
    raise KeyError("planted")


def sleep_forever(_: object) -> tuple[str, int]:
    while True:
        time.sleep(1)


def allocate_too_much(_: object) -> tuple[str, int]:
    block = bytearray(1 << 40)  # 1 TiB: refused at once under the child's address-space limit
    return "ok", len(block)


def accept(_: object) -> tuple[str, int]:
    return "ok", 0
