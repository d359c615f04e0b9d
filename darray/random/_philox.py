"""Philox4x32-10 draws: the kernels of ``kernels/philox.cl`` and the same numbers through NumPy.

A draw of ``size`` elements from (key, base) uses ``blocks(kind, size)`` consecutive counters
from ``base``; the layout of words to elements is the one ``kernels/philox.cl`` describes.
:func:`draw` runs a draw on a place: the kernel on an OpenCL place, NumPy (uint32 and uint64
vector arithmetic, bit-identical to the kernel) on the ``cpu`` place.
"""
from __future__ import annotations

import decimal
import functools
import math
from typing import Any

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .. import lazy, sched
from .._array import DArray
from ..lazy import execute
from ..ops import _dispatch as D
from ..ops._kernel import launch, origin
from ..ops.creation import default_float
from ..place import CLPlace, Place, runtime
from ..transfer.convert import empty, from_numpy

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
LANES = 8  # blocks per group (one vector lane each)
PER_GROUP = {"random32": 32, "normal32": 32, "random64": 16, "normal64": 16, "integers": 16}
_MASK = np.uint64(0xFFFFFFFF)
# Box-Muller's series (Taylor coefficients, lowest power first) and their lengths per precision:
# LOG is R(z) of log(1 + f) = 2t + t z R(z) (t = f / (2 + f), z = t^2); SIN and COS are sin(2 pi y) / y
# and cos(2 pi y) in y^2 (|y| <= 1/8). The truncation errors are below half an ulp of each precision.
_SERIES = {"LOG": lambda j: 2 / (2 * j + 3),
           "SIN": lambda j: (-1) ** j * (2 * math.pi) ** (2 * j + 1) / math.factorial(2 * j + 1),
           "COS": lambda j: (-1) ** j * (2 * math.pi) ** (2 * j) / math.factorial(2 * j)}
_TERMS = {"float32": {"LOG": 5, "SIN": 6, "COS": 7}, "float64": {"LOG": 10, "SIN": 9, "COS": 10}}
# (mantissa bits, exponent bias, bits of the uniform integer, low bits of ln2_hi left zero so e * ln2_hi is exact)
_FORMAT = {"float32": (23, 127, 24, 12), "float64": (52, 1023, 53, 32)}


def philox(ctr: list[np.ndarray], key: tuple[int, int]) -> list[np.ndarray]:
    """The four uint32 words of Philox4x32-10 for counters ``ctr`` (four uint32 arrays) and ``key``."""
    c0, c1, c2, c3 = (np.asarray(c, np.uint32).astype(np.uint64) for c in ctr)
    k0, k1 = (np.uint64(k) for k in key)
    for _ in range(10):
        p0, p1 = c0 * np.uint64(M0), c2 * np.uint64(M1)
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _MASK, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _MASK
        k0, k1 = (k0 + np.uint64(W0)) & _MASK, (k1 + np.uint64(W1)) & _MASK
    return [c.astype(np.uint32) for c in (c0, c1, c2, c3)]


def blocks(kind: str, size: int) -> int:
    """Counters a draw of ``kind`` over ``size`` elements uses (whole groups of ``LANES``)."""
    return -(-size // PER_GROUP[kind]) * LANES


def _words(key: tuple[int, int], counters: np.ndarray, retry: int | np.ndarray = 0) -> list[np.ndarray]:
    """Philox words of the 64-bit ``counters`` with word 2 = ``retry``."""
    counters = counters.astype(np.uint64)
    retry = np.broadcast_to(np.asarray(retry, np.uint32), counters.shape)
    return philox([counters & _MASK, counters >> np.uint64(32), retry, np.zeros_like(retry)], key)


def _pair(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    return (hi.astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)


def _host_words(kind: str, key: tuple[int, int], base: int, size: int) -> list[np.ndarray]:
    """The words of a draw, each of shape (groups, LANES)."""
    count = blocks(kind, size)
    counters = (np.uint64(base) + np.arange(count, dtype=np.uint64)).reshape(-1, LANES)
    return _words(key, counters)


def _layout(parts: list[np.ndarray], size: int) -> np.ndarray:
    """Elements of a draw from its per-word (or per-pair) values, each (groups, LANES)."""
    return np.stack(parts, axis=1).reshape(-1)[:size]


def _unit32(w: np.ndarray) -> np.ndarray:
    return (w >> np.uint32(8)).astype(np.float32) * np.float32(2.0 ** -24)


def _unit64(x: np.ndarray) -> np.ndarray:
    return (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


@functools.cache
def _constants(name: str) -> dict[str, np.ndarray]:
    """Box-Muller's constants in precision ``name``: the series, ln2 as hi + lo, sqrt(2)."""
    t = np.dtype(name).type
    consts = {k: np.array([f(j) for j in range(_TERMS[name][k])], t) for k, f in _SERIES.items()}
    itype = np.dtype(f"u{np.dtype(name).itemsize}").type
    hi = np.array(math.log(2), t)
    hi = (hi.view(itype) & ~itype((1 << _FORMAT[name][3]) - 1)).view(t)
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        lo = float(decimal.Decimal(2).ln() - decimal.Decimal(float(hi)))
    consts["LN2"] = np.array([hi, lo], t)
    consts["SQRT2"] = np.array([math.sqrt(2)], t)
    return consts


def _build_constants(name: str) -> str:
    """The ``-D`` options that give ``kernels/philox.cl`` the constants of ``_constants(name)``."""
    suffix, prefix = ("f", "F32") if name == "float32" else ("", "F64")
    return " ".join(f"-D {prefix}_{k}_C=" + ",".join(float(x).hex() + suffix for x in v)
                    for k, v in _constants(name).items())


def _horner(c: np.ndarray, z: np.ndarray) -> np.ndarray:
    p = np.full_like(z, c[-1])
    for ci in c[-2::-1]:
        p = p * z + ci
    return p


def _box_muller(a: np.ndarray, b: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``BOX_MULLER`` of ``kernels/philox.cl`` with NumPy, the same operations in the same order:
    (r cos 2 pi v, r sin 2 pi v) for r = sqrt(-2 log x), x = 1 - a 2^-B, v = b 2^-B."""
    c = _constants(name)
    mant, bias, bits, _ = _FORMAT[name]
    ft, it = np.dtype(name).type, np.dtype(f"i{np.dtype(name).itemsize}").type
    ut, one = a.dtype.type, np.dtype(name).type(2.0 ** -bits)
    x = (ut(1 << bits) - a).astype(ft) * one
    word = x.view(it)
    m = ((word & it((1 << mant) - 1)) | it(bias << mant)).view(ft)
    big = m > c["SQRT2"][0]
    f = np.where(big, m * ft(0.5), m) - ft(1)
    e = ((word >> it(mant)) - it(bias) + big).astype(ft)
    t = f / (ft(2) + f)
    z = t * t
    r = np.sqrt(ft(-2) * (e * c["LN2"][0] + (e * c["LN2"][1] + (ft(2) * t + (t * z) * _horner(c["LOG"], z)))))
    q = (b + ut(1 << (bits - 3))) >> ut(bits - 2)
    y = (b.view(it) - (q << ut(bits - 2)).view(it)).astype(ft) * one
    y2 = y * y
    sn, cs = y * _horner(c["SIN"], y2), _horner(c["COS"], y2)
    k = q & ut(3)
    quarter = [k == 0, k == 1, k == 2]
    return r * np.select(quarter, [cs, -sn, -cs], sn), r * np.select(quarter, [sn, cs, -sn], -cs)


def _mulhilo(x: np.ndarray, s: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """High and low 64-bit halves of the 128-bit products ``x * s``."""
    a, b = x >> np.uint64(32), x & _MASK
    c, d = s >> np.uint64(32), s & _MASK
    bd, ad, bc = b * d, a * d, b * c
    mid = (bd >> np.uint64(32)) + (ad & _MASK) + (bc & _MASK)
    hi = a * c + (ad >> np.uint64(32)) + (bc >> np.uint64(32)) + (mid >> np.uint64(32))
    return hi, x * s


def _bounded(x: np.ndarray, rng: int, key: tuple[int, int], counters: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Lemire's unbiased draws in [0, rng] from the 64-bit ``x`` (retries as ``bounded`` in the kernel)."""
    if rng == 2**64 - 1:
        return x
    s = np.uint64(rng + 1)
    limit = np.uint64((2**64 - int(s)) % int(s))
    hi, lo = _mulhilo(x, s)
    retry = 1
    bad = np.flatnonzero(lo < limit)
    while bad.size:
        w = _words(key, counters[bad], retry)
        redo = np.where(half[bad] == 1, _pair(w[2], w[3]), _pair(w[0], w[1]))
        hi[bad], lo[bad] = _mulhilo(redo, s)
        bad = bad[lo[bad] < limit]
        retry += 1
    return hi


def host_draw(kind: str, key: tuple[int, int], base: int, size: int, dtype: np.dtype,
              low: int = 0, rng: int = 0) -> np.ndarray:
    """A draw computed with NumPy: the same numbers as the kernel ``kind``."""
    w = _host_words(kind, key, base, size)
    with np.errstate(over="ignore"):
        if kind == "random32":
            return _layout([_unit32(x) for x in w], size)
        if kind == "normal32":
            eight = np.uint32(8)
            return _layout([*_box_muller(w[0] >> eight, w[1] >> eight, "float32"),
                            *_box_muller(w[2] >> eight, w[3] >> eight, "float32")], size)
        pairs = [_pair(w[0], w[1]), _pair(w[2], w[3])]
        if kind == "random64":
            return _layout([_unit64(p) for p in pairs], size)
        if kind == "normal64":
            eleven = np.uint64(11)
            return _layout(list(_box_muller(pairs[0] >> eleven, pairs[1] >> eleven, "float64")), size)
        counters = np.uint64(base) + np.arange(len(pairs[0]) * LANES, dtype=np.uint64).reshape(-1, LANES)
        half = _layout([np.zeros_like(w[0]), np.ones_like(w[0])], size)
        drawn = _bounded(_layout(pairs, size), rng, key, _layout([counters, counters], size), half)
        return (drawn + np.uint64(low % 2**64)).view(np.int64).astype(dtype)


@functools.lru_cache(maxsize=64)
def options(place: CLPlace, ctype: str = "long") -> str:
    """Build options of ``kernels/philox.cl`` on ``place`` (``ctype``: T, the integers' output): fp64,
    Box-Muller's constants, and correctly rounded float32 division and sqrt where the device offers
    them (IEEE's results, as NumPy's)."""
    rt = runtime(place)
    return device_options(default_float(place) == np.float64, rt.device, ctype)


def device_options(fp64: bool, device: cl.Device, ctype: str = "long") -> str:
    """:func:`options` for a device with or without float64 (also what darray's probe builds)."""
    exact = device.single_fp_config & cl.device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT
    return " ".join([f"-D T={ctype}", *(["-D DARRAY_FP64=1", _build_constants("float64")] if fp64 else []),
                     _build_constants("float32"), *(["-cl-fp32-correctly-rounded-divide-sqrt"] if exact else [])])


def counter_arg(base: Any) -> Any:
    """A draw's counter ``base`` as the kernels take it (a ``da.jit`` replay's ``sched.Dynamic``
    as it is: the replay computes it)."""
    return base if isinstance(base, sched.Dynamic) else np.uint64(base % 2**64)


def draw(kind: str, key: tuple[int, int], base: int, shape: tuple[int, ...], dtype: np.dtype, place: Place, *,
         low: int = 0, rng: int = 0, out: DArray | None = None) -> DArray:
    """An array of ``shape`` filled by the draw ``kind`` from (key, base) on ``place``: a fresh one,
    or ``out`` (C-contiguous, of that shape and dtype, on that place), written in place."""
    size = int(np.prod(shape, dtype=np.int64))
    return D.implementation("random.draw", place)(kind, key, base, shape, size, dtype, place, low, rng, out)


@D.register("random.draw", "cpu")
def _draw_cpu(kind: str, key: tuple[int, int], base: int, shape: tuple[int, ...], size: int, dtype: np.dtype,
              place: Place, low: int, rng: int, out: DArray | None) -> DArray:
    """:func:`draw` through NumPy (:func:`host_draw`); ``size``: the elements of ``shape``."""
    drawn = host_draw(kind, key, base, size, dtype, low, rng).reshape(shape)
    if out is None:
        return from_numpy(drawn, place)
    out[...] = drawn
    return out


@D.register("random.draw", "cl")
def _draw_cl(kind: str, key: tuple[int, int], base: int, shape: tuple[int, ...], size: int, dtype: np.dtype,
             place: CLPlace, low: int, rng: int, out: DArray | None) -> DArray:
    """:func:`draw` in one launch of ``kernels/philox.cl`` (arguments as :func:`_draw_cpu`'s): its grouped entry
    point, or in the gpu kernel form its ``_blocks`` one."""
    if out is None:
        out = empty(shape, dtype, place)
    if size:
        alloc, offset = origin(out)
        lazy.before_write(alloc)  # pending graphs that read out run first
        args = [alloc.buffer, offset, np.int64(size), np.uint32(key[0]), np.uint32(key[1]), counter_arg(base)]
        if kind == "integers":
            args += [np.uint64(low % 2**64), np.uint64(rng)]
        ctype = _dt.ctype(dtype) if kind == "integers" else "long"
        gpu = execute.form(place) == "gpu"  # a block per step of a work-item: coalesced stores
        launch(f"{kind}_blocks" if gpu else kind, place, "philox.cl", options(place, ctype),
               blocks(kind, size) // (1 if gpu else LANES), args, reads=[], writes=[alloc], nbytes=out.nbytes)
    return out
