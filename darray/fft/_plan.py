"""pyvkfft plans (VkFFT apps) in a bounded LRU, and one transform through the scheduler.

pyvkfft is imported on first use, so ``import darray`` works without it. A plan is keyed by
(shape, dtype, axes, VkFFT norm, r2c, place); building one compiles OpenCL kernels
(0.3-2 s on a CPU device), recorded as a compile in ``da.profile()``. :func:`run` wraps the
operands' buffers as pyvkfft reads pyopencl arrays (a sub-buffer when the array does not start its buffer)
and calls the app inside ``sched.launch_call``: the transform waits for pending writes of its
input, and later readers of its output wait for it. An app with a scratch buffer of VkFFT's
own carries a one-block token allocation that each of its transforms writes, so two streams
never use that scratch at once. VkFFT builds a wrong app now and then for lengths with a prime
factor above 13 (its Rader kernels: 2 builds in 30 for length 17 on Intel's CPU runtime), so
such apps are checked against numpy.fft both ways when built, and built again when wrong.
"""
from __future__ import annotations

import atexit
import collections
import functools
import math
import threading
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any, cast

import numpy as np

from .. import sched
from .._array import DArray
from ..alloc import Allocation, allocate
from ..place import CLPlace, runtime
from ..sched._profile import record_compile

MAX_PLANS = 16  # apps kept per process (each holds compiled kernels, some a scratch buffer)
BUILDS = 6  # tries at an app that passes its check (a wrong build tends to repeat once)
INSTALL = ("darray.fft on an OpenCL place needs pyvkfft: pip install 'darray[fft]' (pyvkfft builds from source: "
           "it needs the OpenCL headers and ICD loader, e.g. apt-get install opencl-headers ocl-icd-opencl-dev, "
           "and VKFFT_BACKEND=opencl in the environment)")

_plans: collections.OrderedDict[tuple, Plan] = collections.OrderedDict()
_lock = threading.Lock()
# A call's arguments (place, kind, shape, dtype, s, axes, norm) -> what ``fft._core.transform`` does
# for them when that is one app's call on the input as it is (``_core.Recipe``): looked up first, so
# such a call builds no plan key, cooks no axes and lists no passes. Emptied with the plans.
recipes: dict[tuple, Any] = {}


@functools.cache
def vkfft() -> ModuleType:
    """``pyvkfft.opencl``, imported on first use; ImportError with the install line without it."""
    try:
        import pyvkfft.opencl as vk
    except ImportError as err:
        raise ImportError(f"{INSTALL} ({err})") from err
    atexit.register(_release)  # apps freed while pyvkfft's library is still loaded
    return vk


@functools.cache
def max_dims() -> int:
    """How many axes one VkFFT app takes after non-transformed neighbours are collapsed."""
    return int(vkfft().vkfft_max_fft_dimensions())


class Plan:
    """A VkFFT app and, when VkFFT gave it a scratch buffer, the token that orders its uses."""

    __slots__ = ("app", "token")

    def __init__(self, app: Any, token: Allocation | None) -> None:
        self.app, self.token = app, token


def plan(place: CLPlace, shape: tuple[int, ...], dtype: np.dtype, axes: tuple[int, ...], *, r2c: bool,
         norm: int) -> Plan:
    """The plan of an out-of-place transform of a C-contiguous ``shape`` over ``axes``.

    ``dtype``: complex (c2c) or the real dtype (``r2c``: ``shape`` is the real array's, the
    last axis is the halved one). ``norm``: VkFFT's, 1 divides the inverse by the size, 0 never.
    """
    key = (shape, dtype.str, axes, norm, r2c, place)
    with _lock:
        found = _plans.get(key)
        if found is not None:
            _plans.move_to_end(key)
            return found
    vk = vkfft()
    queue = sched.current_stream(place).queue
    what = f"vkfft {'r2c' if r2c else 'c2c'} {dtype} {shape} axes={axes} norm={norm}"
    t0 = time.perf_counter()
    for _ in range(BUILDS):
        app = vk.VkFFTApp(shape, dtype, queue, axes=axes, norm=norm, r2c=r2c, inplace=False)
        queue.finish()  # whatever VkFFT uploaded at build time is there before another queue uses the app
        if not _beyond_radix(shape, axes) or _sound(app, queue, shape, dtype, axes, r2c=r2c, norm=norm):
            break
    else:
        raise RuntimeError(f"darray fft: VkFFT built a wrong plan {BUILDS} times ({what}) on {place}")
    record_compile(what, time.perf_counter() - t0, False)
    with sched.suspended():  # the token outlives a da.jit trace that builds the plan
        found = Plan(app, allocate(place, 1) if app.tmp_buffer_nbytes else None)
    with _lock:
        _plans[key] = found
        _plans.move_to_end(key)
        while len(_plans) > MAX_PLANS:
            _plans.popitem(last=False)
            recipes.clear()  # they hold plans: none outlives its place in the LRU
    return found


def _beyond_radix(shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether a transformed length has a prime factor above 13 (VkFFT's Rader or Bluestein kernels)."""
    for a in axes:
        n = shape[a]
        for p in (2, 3, 5, 7, 11, 13):
            while n % p == 0:
                n //= p
        if n > 1:
            return True
    return False


def _sound(app: Any, queue: Any, shape: tuple[int, ...], dtype: np.dtype, axes: tuple[int, ...], *, r2c: bool,
           norm: int) -> bool:
    """Whether ``app`` transforms random data as numpy.fft does, forward and backward."""
    import pyopencl.array as cla

    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape) + (0 if r2c else 1j * rng.standard_normal(shape))
    x = x.astype(dtype)
    spec = (np.fft.rfftn(x, axes=axes) if r2c else np.fft.fftn(x, axes=axes)).astype(np.result_type(dtype, 1j))
    back = x * (1 if norm else math.prod(shape[a] for a in axes))
    for src, want, call in ((x, spec, app.fft), (spec, back, app.ifft)):
        got = cla.empty(queue, want.shape, want.dtype)
        call(cla.to_device(queue, src), got, queue=queue)
        if not np.abs(got.get() - want).max() <= 1e-3 * np.abs(want).max():
            return False
    return True


def cached() -> int:
    """The number of plans held now."""
    return len(_plans)


def clear() -> None:
    """Drop every cached plan."""
    with _lock:
        _plans.clear()
        recipes.clear()


def _release() -> None:
    """At exit: wait for the transforms still queued, then free the apps (before the library goes)."""
    from .. import sched

    try:
        sched.synchronize()
    finally:
        clear()


def aligned(x: DArray) -> bool:
    """Whether VkFFT can take ``x`` as it is: materialised, C-contiguous, starting at an offset
    a sub-buffer may have on its device."""
    if x._node is not None or not x._dim.is_c_contiguous:
        return False
    return (x._data().offset + x._dim.offset * x.dtype.itemsize) % _align(x.place) == 0


@functools.cache
def _align(place: CLPlace) -> int:
    """The byte alignment of a sub-buffer's origin on ``place``."""
    return runtime(place).device.mem_base_addr_align // 8


class Operand:
    """What pyvkfft's ``fft``/``ifft`` read of a pyopencl array (``data``, ``shape``, ``dtype``,
    ``size``, ``strides``), made in a microsecond where ``pyopencl.array.Array`` takes 40."""

    __slots__ = ("data", "shape", "dtype", "size", "strides")

    def __init__(self, x: DArray, base: Any = None) -> None:
        """Over ``x``'s bytes (``x`` passed :func:`aligned`): its buffer, or a sub-buffer where
        ``x`` does not start it; ``base``: a buffer starting where x's allocation starts (a
        ``da.jit`` replay's), in place of the allocation's own."""
        alloc = x._alloc
        start = x._dim.offset * x.dtype.itemsize + (0 if base is not None else alloc.offset)
        buffer = alloc.buffer if base is None else base
        self.data = buffer if start == 0 else buffer.get_sub_region(start, x.nbytes)
        self.shape, self.dtype, self.size, self.strides = x.shape, x.dtype, x.size, x.strides


def run(plan: Plan, src: DArray, dst: DArray, *, inverse: bool, name: str, clobbers: bool = False) -> None:
    """``dst = plan(src)`` (``inverse``: the backward transform) on the queue of the current stream;
    ``clobbers``: VkFFT overwrites ``src`` too (its c2r does)."""
    app = plan.app

    def call(queue: Any, bases: Sequence[Any] = (None, None)) -> None:
        app.queue = queue  # the stream's queue (pyvkfft warns when it is not the app's)
        (app.ifft if inverse else app.fft)(Operand(src, bases[0]), Operand(dst, bases[1]), queue=queue)

    writes = [dst._data()] + [src._data()] * clobbers + [plan.token] * (plan.token is not None)
    rec = sched.capturing()
    if rec is not None:  # a da.jit trace: the call is replayed over the bound buffers
        rec.library(name, call, [src._alloc, dst._alloc], reads=[src._alloc], writes=writes)
        return
    sched.launch_call(name, call, place=cast(CLPlace, src.place), reads=[src._data()], writes=writes,
                      nbytes=src.nbytes + dst.nbytes)
