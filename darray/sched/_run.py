"""Run a batch of launches level by level, each level spread over several streams.

A launch depends on an earlier one of the batch when one writes what the other reads or
writes (read after write, write after read, write after write). Launches whose
dependencies are all in earlier levels form the next level: the root-node sets of the
seed's directed graph, peeled off one after the other. Within a level the launches are
independent, so they go to different streams: a launch keeps the stream of the
dependency it follows when that stream is still free in the level (a chain stays on one
stream and needs no cross-stream event), the others take the free streams in turn. The
event bookkeeping of ``launch`` then orders them: levels only choose streams.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from ..place import CLPlace
from ._streams import Allocation, Enqueue, Entry, Stream, launch


@dataclass(frozen=True)
class Launch:
    """One command for :func:`run`: what ``launch`` takes, minus the stream."""

    name: str
    enqueue: Enqueue
    place: CLPlace
    reads: Sequence[Allocation] = field(default=())
    writes: Sequence[Allocation] = field(default=())
    nbytes: int = 0


def dependencies(batch: Sequence[Launch]) -> list[list[int]]:
    """For each launch of ``batch``, the indices of the earlier launches it must follow."""
    out: list[list[int]] = []
    last_write: dict[int, int] = {}          # allocation id -> index of its last writer
    reads_since: dict[int, list[int]] = {}   # allocation id -> readers since that write
    for i, item in enumerate(batch):
        deps: set[int] = set()
        for a in item.reads:
            w = last_write.get(id(a))
            if w is not None:
                deps.add(w)
        for a in item.writes:
            w = last_write.get(id(a))
            if w is not None:
                deps.add(w)
            deps.update(r for r in reads_since.get(id(a), ()) if r != i)
        deps.discard(i)
        out.append(sorted(deps))
        for a in item.reads:
            reads_since.setdefault(id(a), []).append(i)
        for a in item.writes:
            last_write[id(a)] = i
            reads_since[id(a)] = []
    return out


def _levels(deps: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    level: list[int] = []
    for d in deps:
        level.append(1 + max((level[j] for j in d), default=-1))
    groups: list[list[int]] = [[] for _ in range(max(level, default=-1) + 1)]
    for i, lv in enumerate(level):
        groups[lv].append(i)
    return level, groups


def levels(batch: Sequence[Launch]) -> list[list[int]]:
    """Indices of ``batch`` grouped by dependency level (level 0 depends on nothing in the batch).

    Each level lists its indices in batch order; a launch is in the level after the
    deepest launch it depends on.
    """
    return _levels(dependencies(batch))[1]


def run(batch: Sequence[Launch], streams: Sequence[Stream]) -> list[Entry]:
    """Launch ``batch`` level by level over ``streams``; returns the launch entries in batch order.

    The results are those of launching the batch in order on one stream.
    """
    if not streams:
        raise ValueError("darray sched.run: needs at least one stream")
    deps = dependencies(batch)
    level, groups = _levels(deps)
    entries: list[Entry | None] = [None] * len(batch)
    chosen: list[int] = [0] * len(batch)   # index into streams
    n = len(streams)
    turn = 0
    for group in groups:
        used: set[int] = set()
        rest: list[int] = []
        for i in group:  # follow the stream of the deepest dependency when it is free
            if deps[i]:
                j = max(deps[i], key=lambda d: (level[d], d))
                k = chosen[j]
                if k not in used:
                    chosen[i] = k
                    used.add(k)
                    continue
            rest.append(i)
        for i in rest:   # the others take free streams in turn (all busy: round robin)
            for _ in range(n):
                k = turn % n
                turn += 1
                if k not in used or len(used) >= n:
                    break
            chosen[i] = k
            used.add(k)
        for i in group:
            item = batch[i]
            entries[i] = launch(item.name, item.enqueue, place=item.place, reads=item.reads, writes=item.writes,
                                stream=streams[chosen[i]], nbytes=item.nbytes)
    return cast("list[Entry]", entries)  # every launch has its entry now
