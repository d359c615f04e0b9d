"""Stream scheduler: every device command goes through :func:`launch` with what it reads and writes.

See ``_streams`` for the ordering rules. ``with da.stream(s):`` picks a stream,
``da.synchronize()`` waits for all, ``with da.profile() as p:`` records what happened.
"""
from __future__ import annotations

from ._profile import Profiler, profile
from ._run import Launch, levels, run
from ._streams import (Stream, all_streams, current_stream, launch, stream, synchronize, transfer_stream,
                       wait, wait_idle, wait_written)

__all__ = ["Stream", "stream", "current_stream", "transfer_stream", "launch", "synchronize", "wait", "wait_written",
           "wait_idle", "Launch", "levels", "run", "Profiler", "profile", "all_streams"]
