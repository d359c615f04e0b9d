"""Pickling: a DArray pickles as a host copy and where it lived; loading puts it on the same kind
of place (the same platform and device name, ``cpu`` for ``cpu``), else on the loading process's
default place (a Dask worker's, say).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._array import DArray
from ..ops import _dispatch as D
from ..place import CLPlace, Place, default, devices, parse, probe, runtime
from ..transfer.convert import from_numpy


def _kind(place: Place) -> Any:
    """What a pickle records of a place: ``"cpu"``, or the device's (platform, name)."""
    return D.implementation("pickle.record", place)(place)


@D.register("pickle.record", "cpu")
def _record_cpu(place: Place) -> Any:
    return "cpu"


@D.register("pickle.record", "cl")
def _record_cl(place: CLPlace) -> Any:
    info = runtime(place).info
    return (info.platform, info.name)


def _rebuild(host: np.ndarray, kind: Any) -> DArray:
    """Unpickle: ``host`` onto the place ``kind`` names when this process has it and it passes its
    probe, else onto the default place."""
    return from_numpy(host, parse(kind) if isinstance(kind, str) else _device(kind))


def _device(kind: Any) -> Place:
    """The first device with the recorded (platform, name) that passes its probe, else the default place."""
    for info in devices():
        if (info.platform, info.name) == tuple(kind) and probe(info.index).ok:
            return CLPlace(info.index)
    return default()


def reduce(x: DArray) -> tuple:
    """``DArray.__reduce__``: a host copy and the kind of place."""
    return _rebuild, (x.get(), _kind(x.place))
