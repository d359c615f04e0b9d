"""Sizes of the caching allocator: 512-byte classes, the segment size a limit gives, and the
limit itself (``DARRAY_MEMORY_LIMIT``: bytes, or e.g. ``"512MB"``, ``"8 MiB"``)."""
from __future__ import annotations

import os
import re

CLASS = 512
SEGMENT = 2 << 20        # bytes: the segment size, unless the limit is small
MIN_SEGMENT = 64 << 10   # bytes: the smallest segment size a small limit gives
LIMIT_SHARE = 32         # under a small limit, a segment is at most this share of it


def round_class(nbytes: int) -> int:
    return max(CLASS, -(-nbytes // CLASS) * CLASS)


def segment_size(limit: int) -> int:
    """The segment size of a pool capped at ``limit`` bytes: ``SEGMENT``, or the largest power
    of two up to ``limit / LIMIT_SHARE`` where that is smaller (``MIN_SEGMENT`` at least)."""
    share = limit // LIMIT_SHARE
    if share >= SEGMENT:
        return SEGMENT
    return max(MIN_SEGMENT, 1 << max(share.bit_length() - 1, 0))


def parse_bytes(text: str) -> int:
    """``"512MB"``, ``"2GiB"``, ``"1000"`` -> bytes (KB/MB/GB are powers of 1024 as well)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*", text.lower())
    if not m:
        raise ValueError(f"darray alloc: cannot parse DARRAY_MEMORY_LIMIT={text!r}; use bytes or e.g. '512MB'")
    scale = 1024 ** " kmgt".index(m.group(2) or " ")
    return int(float(m.group(1)) * scale)


def env_limit(default: int) -> int:
    """``DARRAY_MEMORY_LIMIT`` in bytes, else ``default``."""
    env = os.environ.get("DARRAY_MEMORY_LIMIT", "").strip()
    return parse_bytes(env) if env else default
