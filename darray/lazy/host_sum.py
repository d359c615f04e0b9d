"""Float sums and means on host-backed devices with the bits of the chunked row kernels.

The order reproduced (``reduce_render._render_rows``, ``_lanes``, ``_join``, ``_finish_rows``): each
of an output's ``P`` parts (``C = ceil(K / P)`` elements, the last one shorter, parts past ``K``
empty) folds in ``LANES`` lanes: lane ``l`` takes element ``LANES * r + l`` of each full row ``r``
of the part; ``BLOCK`` rows sum into a block, ``BLOCK`` blocks into a super-block, super-blocks
into the lane, each from +0.0; the tail (fewer than ``LANES`` elements) then adds into lane 0 one
by one; the lanes join as a tree ((0+1)+(2+3))+((4+5)+(6+7)). With ``P > 1`` (stage ``rows``) an
output's partials fold the same way (one part of ``P`` elements). A mean divides by ``K`` in the
accumulator's dtype. A complex sum is two real sums in that order (``add`` on float2/double2); a
complex mean divides as ``cdiv`` (Smith's algorithm) by ``(K, 0)``.

How: one gather per stage (indices cached per layout) lays every sequence of a level along axis 0
of a C-contiguous array whose columns are the (work-item, lane) pairs: NumPy's ``add.reduce``
along axis 0 adds row after row there (over a single column it would sum pairwise: there are
always ``LANES`` columns; ``add.reduceat`` sums pairwise within its segments), so a level is one
reduce; the lanes are laid out in bit-reversed order, so the tree join is one add of two halves
per level. Padding (short and empty parts, partial blocks, the lanes beside a tail) reads a +0.0
put after the data: like the kernel's +0.0 start, it changes a sum only where that is -0.0; the
last stage's lanes end with one more +0.0 (or the results get it added), as no kernel result is
-0.0. Only where the device's compiler keeps the written order (:func:`_ordered`).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._array import DArray
from ..place import CLPlace, runtime
from . import at_once, host
from . import reduce as _rows
from .reduce_render import BLOCK, LANES

_F4, _F8 = np.dtype(np.float32), np.dtype(np.float64)
_REAL: dict[np.dtype, np.dtype] = {_F4: _F4, _F8: _F8, np.dtype(np.complex64): _F4, np.dtype(np.complex128): _F8}
_ZERO: dict[np.dtype, np.ndarray] = {dt: np.zeros(1, dt) for dt in set(_REAL.values())}
_STAGES = ("first", "rows")
MAX = 8192  # at most this many elements (and ``host.usable``'s limit): past it the copy of the kernel's order
# costs more than the kernel (float64 on Intel's runtime, 2 cores: 28 us against 31 at 8192, 33 against 29 at 10^4)
_add = np.add
_reduce = np.add.reduce


class _Fold(NamedTuple):
    """One stage's layout: ``idx`` gathers the source as ``levels`` (the rows: (rows, W), (BLOCK,
    blocks, W) or (BLOCK, BLOCK, super-blocks, W), W = LANES * n; ``size`` elements) then ``tails``
    rows of W (lane 0: the tails); ``n`` work-items; ``lanes_first``: columns (lane, work-item),
    else (work-item, lane); ``padded``: some index reads the +0.0 after the source's data;
    ``signed``: the lanes end with that +0.0 (no result is -0.0)."""

    idx: np.ndarray
    levels: tuple[int, ...]
    size: int
    tails: int
    n: int
    lanes_first: bool
    padded: bool
    signed: bool


def _bitrev(lanes: int) -> np.ndarray:
    """Lane order whose halves, then halves of the sums, pair as ``_join`` does."""
    bits = lanes.bit_length() - 1
    return np.array([int(f"{q:0{bits}b}"[::-1], 2) if bits else 0 for q in range(lanes)])


def _layout(starts: np.ndarray, lengths: np.ndarray, step: int, pad: int, last: bool) -> _Fold:
    """The gather of ``n`` work-items, item ``w`` folding source elements ``starts[w] + i * step``
    for ``i < lengths[w]``; ``pad``: the index of the +0.0 after the source's data; ``last``: the
    last stage (where padded anyway, its lanes end with the +0.0: no result is -0.0, as none of
    the kernel's is)."""
    n = len(starts)
    rows, tail = lengths // LANES, lengths % LANES
    r_max, t_max = int(rows.max()), int(tail.max())
    blocks = -(-r_max // BLOCK)
    if blocks <= 1:  # one block: the tails continue lane 0's sequence (levels (rows + tails, W))
        depth = r_max
    elif blocks <= BLOCK:  # blocks of BLOCK rows (levels (blocks, BLOCK, W)), then the tails
        depth = blocks * BLOCK
    else:  # super-blocks of BLOCK blocks (levels (super-blocks, BLOCK, BLOCK, W)), then the tails
        depth = -(-blocks // BLOCK) * BLOCK ** 2
    # columns (lane, work-item) keep the joins' adds contiguous; (work-item, lane) keep the gather's
    # reads near each other where parts are long (and work-items few): at 32768 float64 in parts of
    # 256, the gather took 25 us the first way, 17 the second
    lanes_first = int(lengths.max()) * step < 8 * LANES
    r = np.arange(depth)[:, None, None]
    lane = _bitrev(LANES)[None, :, None]
    body = np.where(r < rows, starts + (LANES * r + lane) * step, pad)  # (depth, LANES, n)
    i = np.arange(t_max)[:, None]
    tails = np.full((t_max, LANES, n), pad)
    tails[:, 0] = np.where(i < tail, starts + (LANES * rows + i) * step, pad)  # lane 0 is slot 0
    padded = bool((body == pad).any() or (tails == pad).any())
    signed = last and padded
    if signed:
        tails = np.concatenate((tails, np.full((1, LANES, n), pad)))
    if not lanes_first:
        body, tails = body.transpose(0, 2, 1), tails.transpose(0, 2, 1)
    w = LANES * n
    if blocks <= 1:
        levels: tuple[int, ...] = (r_max + len(tails), w)
    else:  # finest level first: each level is then one reduce along axis 0 (a middle axis costs 3x more)
        nested = (depth // BLOCK, BLOCK, w) if blocks <= BLOCK else (depth // BLOCK ** 2, BLOCK, BLOCK, w)
        body = body.reshape(nested).transpose(*range(len(nested) - 2, -1, -1), len(nested) - 1)
        levels = body.shape
    idx = np.concatenate((body.reshape(-1), tails.reshape(-1))).astype(np.intp)
    size = int(np.prod(levels)) if blocks > 1 else len(idx)
    return _Fold(idx, levels, size, 0 if blocks <= 1 else len(tails), n, lanes_first, padded, signed)


def _layouts(m: int, k: int, parts: int, nc: int) -> tuple[_Fold, _Fold | None]:
    """Stage 1 (the ``parts`` parts of each of ``m * nc`` real outputs over ``k`` elements, ``nc``
    components interleaved: work-item ``o * parts + q``) and, with ``parts > 1``, stage 2 (the
    partials of each output)."""
    c = -(-k // parts)
    k0 = np.arange(parts) * c
    length = np.clip(k - k0, 0, c)
    outputs = np.arange(m * nc)
    base = outputs // nc * (k * nc) + outputs % nc
    starts = (base[:, None] + k0 * nc).reshape(-1)
    first = _layout(starts, np.tile(length, m * nc), nc, m * nc * k, parts == 1)
    if parts == 1:
        return first, None
    n = m * nc
    return first, _layout(np.arange(n) * parts, np.full(n, parts), 1, n * parts, True)


_plans: dict[tuple[int, int, int, int], tuple[_Fold, _Fold | None]] = {}
_cached = [0]  # bytes of the cached indices
BUDGET = 1 << 26  # at most this many bytes of indices cached (the engine's limit keeps a layout near 1 MiB)


def _plan(m: int, k: int, parts: int, nc: int) -> tuple[_Fold, _Fold | None]:
    """:func:`_layouts`, cached (they depend on the sizes only), within ``BUDGET`` bytes."""
    key = (m, k, parts, nc)
    found = _plans.get(key)
    if found is None:
        found = _layouts(m, k, parts, nc)
        nbytes = sum(f.idx.nbytes for f in found if f is not None)
        if _cached[0] + nbytes > BUDGET or len(_plans) >= 256:
            _plans.clear()
            _cached[0] = 0
        if nbytes <= BUDGET:
            _plans[key] = found
            _cached[0] += nbytes
    return found


def _fold(src: np.ndarray, f: _Fold, out: np.ndarray, zero: bool) -> None:
    """One stage: gather ``src`` by ``f``, fold the levels and join the lanes into ``out`` (n,);
    ``zero``: then add +0.0 (the last stage, where its lanes do not end with it: no result is -0.0)."""
    g = src.take(f.idx, mode="clip")  # (the indices are in range: clip skips the check)
    top = g.reshape(f.levels) if len(f.levels) == 2 else g[:f.size].reshape(f.levels)
    while top.ndim > 2:  # rows into blocks, blocks into super-blocks
        top = _reduce(top, 0)
    if f.tails:
        top = np.concatenate((top, g[f.size:].reshape(f.tails, f.levels[-1])))
    acc = _reduce(top, 0)
    if f.n == 1:  # one output: the join in scalars of the dtype (Python floats for float64: the same
        lanes = acc.reshape(-1)  # adds), cheaper than a ufunc call per level
        a = lanes.tolist() if lanes.dtype == _F8 else list(lanes)
        while len(a) > 1:
            half = len(a) // 2
            a = [x + y for x, y in zip(a[:half], a[half:])]
        out[0] = a[0] + 0.0 if zero else a[0]
        return
    if f.lanes_first:
        half = acc.shape[0] // 2
        while half > f.n:
            acc = _add(acc[:half], acc[half:])
            half //= 2
        _add(acc[:half], acc[half:], out=out)
    else:
        acc = acc.reshape(f.n, LANES)
        half = LANES // 2
        while half > 1:
            acc = _add(acc[:, :half], acc[:, half:])
            half //= 2
        _add(acc[:, 0], acc[:, 1], out=out)
    if zero:
        _add(out, _ZERO[out.dtype], out=out)


def fold(v: np.ndarray, parts: int, out: np.ndarray, *, mean: bool = False) -> None:
    """The chunked row kernel's sums (means: divided by ``k``) of the rows of ``v`` into ``out``.

    ``v``: C-contiguous (m, k), float32, float64, complex64 or complex128 (the accumulator dtype);
    ``parts``: the plan's P (``reduce.partitions``); ``out``: (m,) of ``v``'s dtype."""
    m, k = v.shape
    real = _REAL[v.dtype]
    nc = 2 if v.dtype.kind == "c" else 1
    first, second = _plan(m, k, parts, nc)
    flat = v.reshape(-1).view(real)
    src = np.concatenate((flat, _ZERO[real])) if first.padded else flat
    res = out.view(real)
    zero = not (second or first).signed  # the kernel's folds start at +0.0: no result is -0.0
    if second is None:
        _fold(src, first, res, zero)
    else:
        partials = np.empty(first.n + 1, real)
        partials[-1] = 0
        _fold(src, first, partials[:-1], False)
        _fold(partials, second, res, zero)
    if not mean:
        return
    count = real.type(k)
    if nc == 1:
        np.divide(res, count, out=res)
        return
    x, y = res[0::2], res[1::2]  # cdiv by (count, 0): rat = 0 / count, scl = 1 / (count + 0 * rat)
    scl = real.type(1) / count
    re, im = (x + y * real.type(0)) * scl, (y - x * real.type(0)) * scl
    x[...], y[...] = re, im


_orders: dict[int, tuple[CLPlace, bool]] = {}


def _ordered(place: CLPlace) -> bool:
    """Whether ``place``'s compiler keeps the row kernels' fold order as written: PoCL's (LLVM
    without reassociation) and Intel's CPU compiler, whose loop vectoriser reassociated the lanes'
    sums (groups under 16 work-items, AVX-512) until the fold loops asked it not to
    (``reduce_render.KEEP_ORDER``); every layout measured bit for bit on both. Other runtimes'
    float sums stay with the kernels."""
    found = _orders.get(id(place))
    if found is None or found[0] is not place:
        info = runtime(place).info
        ordered = "Portable Computing Language" in info.platform or "Intel" in info.platform
        if len(_orders) >= 256:
            _orders.clear()
        found = _orders[id(place)] = (place, ordered)
    return found[1]


def reduce(x: DArray, axes: tuple[int, ...], out_dt: np.dtype, shape: tuple[int, ...], k: int, m: int,
           *, mean: bool) -> DArray | None:
    """``sum`` (``mean``) of ``x`` over ``axes`` into a new array of ``shape`` computed as it is called,
    with the chunked row kernel's bits, or None (the kernel's to do): for a settled C-contiguous
    ``x`` of float32/64 or complex64/128 summed in ``out_dt`` of its kind (4 or 8 bytes per real),
    over trailing axes in order, where ``host.usable`` admits its size and the plan is a row
    kernel (``first`` or ``rows``; not ``columns``, ``group``, the GPU trees)."""
    dt, place = x._dtype, x._place
    if dt not in _REAL or out_dt not in _REAL or dt.kind != out_dt.kind or type(place) is not CLPlace \
            or x.size > MAX or not _ordered(place) or not host.usable(place, x.size):
        return None
    ndim = len(x.shape)
    if axes != tuple(range(ndim - len(axes), ndim)) or (axes and k == 1 and m >= _rows.MIN_COLUMNS):
        return None  # (k == 1: the innermost axis in memory is kept, a column kernel's)
    v = host.view(x)
    if v is None or not x._dim.is_c_contiguous or not _rows._chunked(place):  # (the module's: tests patch it)
        return None
    kept = tuple(range(ndim - len(axes)))
    _, parts, _, _, red = _rows._cpu_plan(place, m, k, False, kept, axes, "sum", out_dt, mean, True)
    if red.stage not in _STAGES:
        return None
    made = at_once.fresh(place, shape, out_dt) if shape else (None, np.empty(1, out_dt))  # 0-d: held (``at_once.held``)
    if made is None:
        return None
    src = v.reshape(m, k) if dt == out_dt else v.reshape(m, k).astype(out_dt)
    host.quietly(fold, src, parts, made[1].reshape(m), mean=mean)
    return made[0] if made[0] is not None else at_once.held(made[1][0], out_dt, place)
