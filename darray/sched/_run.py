"""Run a batch of launches level by level, each level spread over several streams.

A launch depends on an earlier one of the batch when one writes what the other reads or
writes. Launches whose dependencies are all in earlier levels form the next level (the
root-node sets of a DAG); within a level they go round-robin over the streams. The event
bookkeeping of ``launch`` then orders them: levels only choose streams.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from ..place import CLPlace
from ._streams import Enqueue, Stream, launch

if TYPE_CHECKING:
    from ..alloc import Allocation


@dataclass(frozen=True)
class Launch:
    """One command for :func:`run`: what ``launch`` takes, minus the stream."""

    name: str
    enqueue: Enqueue
    place: CLPlace
    reads: Sequence["Allocation"] = field(default=())
    writes: Sequence["Allocation"] = field(default=())
    nbytes: int = 0


def levels(batch: Sequence[Launch]) -> list[list[int]]:
    """Indices of ``batch`` grouped by dependency level (level 0 depends on nothing in the batch)."""
    level: list[int] = []
    last_write: dict[int, int] = {}          # allocation id -> index of its last writer
    reads_since: dict[int, list[int]] = {}   # allocation id -> readers since that write
    for i, item in enumerate(batch):
        deps = [last_write[id(a)] for a in item.reads if id(a) in last_write]
        for a in item.writes:
            if id(a) in last_write:
                deps.append(last_write[id(a)])
            deps.extend(reads_since.get(id(a), ()))
        level.append(1 + max((level[d] for d in deps), default=-1))
        for a in item.reads:
            reads_since.setdefault(id(a), []).append(i)
        for a in item.writes:
            last_write[id(a)] = i
            reads_since[id(a)] = []
    out: list[list[int]] = [[] for _ in range(max(level, default=-1) + 1)]
    for i, lv in enumerate(level):
        out[lv].append(i)
    return out


def run(batch: Sequence[Launch], streams: Sequence[Stream]) -> list[tuple]:
    """Launch ``batch`` level by level over ``streams``; returns the launch entries in batch order."""
    events: list[tuple | None] = [None] * len(batch)
    for group in levels(batch):
        for k, i in enumerate(group):
            item = batch[i]
            events[i] = launch(item.name, item.enqueue, place=item.place, reads=item.reads,
                               writes=item.writes, stream=streams[k % len(streams)], nbytes=item.nbytes)
    return events  # type: ignore[return-value]
