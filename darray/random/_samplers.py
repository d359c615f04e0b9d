"""Rejection and inversion samplers (gamma, Poisson, binomial...): ``kernels/samplers.cl`` and its NumPy mirror.

:func:`sample` draws ``kind`` with parameters ``params`` (NumPy's order; each a Python number,
passed to the kernel as a scalar, or a DArray on the place broadcastable to ``shape``) from
(key, counter ``base``): element i uses Philox counters (lo32(base + i), hi32(base + i), j, tag)
for its j-th block, so a draw advances the Generator's counter by :func:`counters` and its
numbers do not depend on the work split, kernel form or device. The ``cpu`` place (and an
OpenCL device without float64) computes the same algorithm with NumPy (``_host_samplers``).
Values are checked by the caller: ``sample`` assumes NumPy's valid ranges.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .. import sched
from .._array import DArray
from ..lazy import execute
from ..ops import _dispatch as D
from ..ops._kernel import origin, run, source
from ..ops.creation import ascontiguousarray
from ..ops.manipulation import broadcast_to
from ..place import CLPlace, DeviceInfo, Place, runtime
from ..place._probe import Program, add_programs
from ..transfer.convert import empty, from_numpy
from . import _host_discrete as HD
from . import _host_samplers as H
from ._philox import counter_arg, device_options, options

# kind -> its NumPy mirror (``_host_samplers``, ``_host_discrete``), in the interface's order
SAMPLERS: dict[str, Callable[..., np.ndarray]] = {
    "standard_gamma": H.standard_gamma, "poisson": H.poisson, "binomial": HD.binomial,
    "hypergeometric": HD.hypergeometric, "vonmises": H.vonmises, "zipf": HD.zipf, "logseries": HD.logseries}
KINDS = tuple(SAMPLERS)
TAG = {kind: i + 1 for i, kind in enumerate(KINDS)}  # word 3 of the kind's counters (the draws of _philox: 0)
Param = float | int | DArray


def counters(kind: str, size: int) -> int:
    """How far a draw of ``size`` elements of ``kind`` advances the Generator's counter: ``size``."""
    return size


def sample(kind: str, key: tuple[int, int], base: int, params: tuple[Param, ...], shape: tuple[int, ...],
           dtype: np.dtype, place: Place) -> DArray:
    """An array of ``shape`` and ``dtype`` (float32/float64 for standard_gamma and vonmises, int64
    for the others) of ``kind`` draws with ``params`` from (key, base) on ``place``."""
    if kind not in TAG:
        raise ValueError(f"darray random.sample: unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    size = math.prod(shape)
    return D.implementation("random.sample", place)(kind, key, base, params, shape, size, np.dtype(dtype), place)


def host_sample(kind: str, key: tuple[int, int], base: int, params: tuple[Param, ...], shape: tuple[int, ...],
                dtype: np.dtype) -> np.ndarray:
    """:func:`sample`'s numbers with NumPy, as a NumPy array."""
    flat = [np.broadcast_to(p.get() if isinstance(p, DArray) else np.float64(p), shape).astype(np.float64).reshape(-1)
            for p in params]
    with np.errstate(all="ignore"):  # rejected proposals may compute inf and NaN, as the kernel's do
        drawn = SAMPLERS[kind](H.Blocks(key, TAG[kind], base, math.prod(shape)), *flat)
    return drawn.reshape(shape).astype(dtype)


@D.register("random.sample", "cpu")
def _sample_cpu(kind: str, key: tuple[int, int], base: int, params: tuple[Param, ...], shape: tuple[int, ...],
                size: int, dtype: np.dtype, place: Place) -> DArray:
    """:func:`sample` through NumPy (``size``: the elements of ``shape``)."""
    return from_numpy(host_sample(kind, key, base, params, shape, dtype), place)


def _stirling() -> str:
    """``-D`` options of log Gamma's constants (``_host_samplers.STIRLING``, ``HALF_LOG_2PI``, ``LOGFACT``) and
    exp8's series (``EXP_C``)."""
    return " ".join([f"-D {name}_C=" + ",".join(float(x).hex() for x in values)
                     for name, values in (("LOGGAM", H.STIRLING), ("LOGFACT", H.LOGFACT), ("EXP", H.EXP_C))]
                    + [f"-D HALF_LOG_2PI={H.HALF_LOG_2PI.hex()}"])


@lru_cache(maxsize=256)
def _options(place: CLPlace, kind: str, ctype: str, arrays: tuple[bool, ...]) -> str:
    return _kind_options(options(place), kind, ctype, arrays)


def _kind_options(base: str, kind: str, ctype: str, arrays: tuple[bool, ...]) -> str:
    flags = [f"-D A{k}=1" for k, a in enumerate(arrays) if a]
    return " ".join([base, "-D DARRAY_SAMPLERS", f"-D KIND_{kind}", f"-D TAG={TAG[kind]}",
                     f"-D OUT={ctype}", f"-D CONVERT_OUT=convert_{ctype}8", _stirling(), *flags])


def _probe_programs(info: DeviceInfo, device: cl.Device) -> list[Program]:
    """What darray's probe builds of the random kernels: ``philox.cl`` as ``integers`` builds it,
    and, with float64, the zipf sampler (scalar parameter) and the binomial one (array parameter)."""
    base = device_options(info.fp64, device)
    out: list[Program] = [("kernels/philox.cl", source("philox.cl"), base,
                           ("integers", "random32", *(("normal64",) if info.fp64 else ())))]
    if info.fp64:
        both = source("philox.cl") + source("samplers.cl")
        out += [(f"kernels/samplers.cl ({kind})", both, _kind_options(base, kind, ctype, arrays), (kind,))
                for kind, ctype, arrays in (("zipf", "long", (False,)), ("binomial", "long", (True, False)))]
    return out


add_programs("random", _probe_programs)


def _without_fp64(place: CLPlace) -> bool:
    """True where the device has no float64 (the kernels compute in double): NumPy's numbers are copied there."""
    return not runtime(place).info.fp64


@D.register("random.sample", "cl")
def _sample_cl(kind: str, key: tuple[int, int], base: int, params: tuple[Param, ...], shape: tuple[int, ...],
               size: int, dtype: np.dtype, place: CLPlace) -> DArray:
    """:func:`sample` in one launch of ``kernels/samplers.cl`` (arguments as :func:`_sample_cpu`'s);
    NumPy's numbers copied to the device where it has no float64."""
    if _without_fp64(place):
        if sched.capturing() is not None:
            raise sched.refuse("this draw runs on the host on a device without float64",
                               "Draw outside the jitted function and pass the values in")
        return from_numpy(host_sample(kind, key, base, params, shape, dtype), place)
    out = empty(shape, dtype, place)
    if not size:
        return out
    slots: list = []
    reads = []
    for p in (*params, *[0.0] * (3 - len(params))):
        if isinstance(p, DArray):
            flat = ascontiguousarray(broadcast_to(p, shape), dtype=_dt.float64)
            alloc, offset = origin(flat)
            slots += [alloc.buffer, offset, np.float64(0)]
            reads.append(alloc)
        else:
            slots += [None, np.int64(0), np.float64(p)]
    arrays = tuple(isinstance(p, DArray) for p in params)
    kernel = runtime(place).programs.kernel(source("philox.cl") + source("samplers.cl"), kind,
                                            _options(place, kind, _dt.ctype(dtype), arrays))
    alloc, offset = origin(out)
    groups = -(-size // 8)
    ch = execute.CHUNK.get(execute.form(place), 1)
    args = [alloc.buffer, offset, np.int64(size), np.uint32(key[0]), np.uint32(key[1]), counter_arg(base),
            *slots, np.int64(groups), np.int64(ch)]
    run(kind, kernel, args, -(-groups // ch), place, reads=reads, writes=[alloc], nbytes=out.nbytes)
    return out
