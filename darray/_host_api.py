"""NumPy's settings, formatting, constants and host-side helpers, shared with darray.

darray prints through NumPy (``repr(x)`` formats a host copy), so NumPy's print options are
darray's: ``set_printoptions``, ``printoptions`` and the ``format_float_*`` functions are NumPy's
own, and ``array2string``/``array_repr``/``array_str`` format a host copy. The error-state
functions (``errstate``, ``seterr``...) are NumPy's too. Differs from NumPy: darray's device
kernels never warn or raise on floating-point errors, and its ``cpu`` place computes with NumPy's
warnings silenced, so these settings change nothing in darray. ``vectorize`` runs the Python
function on the host.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ._array import DArray
from .dim import broadcast_shapes
from .npyio import forwards
from .transfer.convert import asarray, to_numpy

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions
format_float_positional = np.format_float_positional
format_float_scientific = np.format_float_scientific
base_repr = np.base_repr
binary_repr = np.binary_repr
errstate = np.errstate
seterr = np.seterr
geterr = np.geterr
seterrcall = np.seterrcall
geterrcall = np.geterrcall
setbufsize = np.setbufsize
getbufsize = np.getbufsize
info = np.info

euler_gamma = np.euler_gamma
little_endian = sys.byteorder == "little"
False_ = np.False_
True_ = np.True_
ScalarType = np.ScalarType
sctypeDict = np.sctypeDict
typecodes = np.typecodes


def _host(a: Any) -> Any:
    return to_numpy(a) if isinstance(a, DArray) else a


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """The array's text, formatted by NumPy from a host copy. See also: numpy.array2string."""
    return np.array2string(_host(a), *args, **kwargs)


def array_repr(arr: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``array(...)`` text of a host copy. See also: numpy.array_repr."""
    return np.array_repr(_host(arr), *args, **kwargs)


def array_str(a: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``str`` of a host copy. See also: numpy.array_str."""
    return np.array_str(_host(a), *args, **kwargs)


forwards(np.array2string, array2string)
forwards(np.array_repr, array_repr)
forwards(np.array_str, array_str)


class vectorize:  # noqa: N801  (NumPy's name)
    """``numpy.vectorize`` over host copies: DArray arguments are copied to the host, NumPy calls
    ``pyfunc`` per element, and array results come back as DArrays on the place of the first
    DArray argument. Differs from NumPy: runs on the host (a Python call per element, as NumPy's)."""

    def __init__(self, pyfunc: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self._vectorized = np.vectorize(pyfunc, *args, **kwargs)
        self.pyfunc = pyfunc
        self.__doc__ = pyfunc.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        place = next((a.place for a in (*args, *kwargs.values()) if isinstance(a, DArray)), None)
        result = self._vectorized(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
        if isinstance(result, tuple):
            return tuple(asarray(r, device=place) for r in result)
        return asarray(result, device=place)


class broadcast:  # noqa: N801  (NumPy's name)
    """NumPy's ``broadcast`` object: the broadcast ``shape``, ``ndim``, ``size`` and ``numiter`` of the
    arguments; iterating yields tuples of their elements (from host copies)."""

    def __init__(self, *args: Any) -> None:
        self._args = args
        self.shape = broadcast_shapes(*[np.shape(a) if not isinstance(a, DArray) else a.shape for a in args])
        self.ndim = self.nd = len(self.shape)
        self.size = int(np.prod(self.shape))
        self.numiter = len(args)
        self.index = 0

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        arrays = np.broadcast_arrays(*[np.asarray(_host(a)) for a in self._args])
        for values in zip(*[a.reshape(-1) for a in arrays]):
            self.index += 1
            yield values

    def reset(self) -> None:
        self.index = 0


__all__ = ["set_printoptions", "get_printoptions", "printoptions", "format_float_positional",
           "format_float_scientific", "base_repr", "binary_repr", "errstate", "seterr", "geterr", "seterrcall",
           "geterrcall", "setbufsize", "getbufsize", "info", "euler_gamma", "little_endian", "False_", "True_",
           "ScalarType", "sctypeDict", "typecodes", "array2string", "array_repr", "array_str", "vectorize",
           "broadcast"]
