"""Pickling: a DArray pickles as a host copy and where it lived; loading puts it on the same kind
of place (the same platform and device name, ``cpu`` for ``cpu``), else on the loading process's
default place (a Dask worker's, say).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._array import DArray
from .._convert import from_numpy
from ..place import CLPlace, CPUPlace, Place, default, devices, probe, runtime


def _kind(place: Place) -> Any:
    """What a pickle records of a place: ``"cpu"``, or the device's (platform, name)."""
    if isinstance(place, CPUPlace):
        return "cpu"
    info = runtime(place).info
    return (info.platform, info.name)


def _rebuild(host: np.ndarray, kind: Any) -> DArray:
    """Unpickle: ``host`` onto the place ``kind`` names when this process has it and it passes its
    probe, else onto the default place."""
    if kind == "cpu":
        return from_numpy(host, CPUPlace())
    for info in devices():
        if (info.platform, info.name) == tuple(kind) and probe(info.index).ok:
            return from_numpy(host, CLPlace(info.index))
    return from_numpy(host, default())


def reduce(x: DArray) -> tuple:
    """``DArray.__reduce__``: a host copy and the kind of place."""
    return _rebuild, (x.get(), _kind(x.place))
