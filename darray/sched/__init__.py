"""Stream scheduler: every device command goes through :func:`launch` with what it reads and writes.

See ``_streams`` for the ordering rules. ``with da.stream(s):`` picks a stream,
``da.synchronize()`` waits for all, ``run(batch, streams)`` sends independent launches out
level by level, ``with da.profile() as p:`` records what happened.
"""
from __future__ import annotations

from ._capture import Dynamic, Recorder, Slot, Step, capturing, extent, recording, refuse, suspended
from ._profile import Profiler, profile
from ._run import Launch, dependencies, levels, run
from ._streams import (
                       HOST,
                       Entry,
                       Stream,
                       all_streams,
                       current_stream,
                       default_stream,
                       enqueue_call,
                       is_done,
                       launch,
                       launch_call,
                       launch_kernel,
                       live,
                       run_host,
                       settled,
                       share,
                       stream,
                       synchronize,
                       transfer_stream,
                       wait,
                       wait_idle,
                       wait_written,
)

__all__ = ["HOST", "Stream", "Entry", "stream", "current_stream", "default_stream", "transfer_stream", "launch",
           "enqueue_call", "launch_call", "launch_kernel", "run_host", "synchronize", "wait", "wait_written",
           "wait_idle", "is_done", "live", "Launch", "dependencies", "levels", "run", "Profiler", "profile",
           "all_streams", "Dynamic", "Recorder", "Slot", "Step", "capturing", "extent", "recording", "settled",
           "share", "refuse", "suspended"]
