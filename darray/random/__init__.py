"""darray.random: a counter-based generator (Philox4x32-10) with no state on the device.

``rng = da.random.default_rng(seed)`` holds a 64-bit key (from ``numpy.random.SeedSequence``)
and a 64-bit counter. Each draw is one kernel (``kernels/philox.cl``) whose blocks are pure
functions of (key, counter); the counter then advances by the blocks the draw used. The
result is an ordinary array, so ``rng.random(n) * 2 - 1`` fuses the arithmetic after it.
The ``cpu`` place computes the same numbers with NumPy: every method is bit-identical on every
place and kernel form. normal and standard_normal use darray's own log, cos and sin (Box-Muller
from + - * / sqrt and bit operations, contraction off), not the libraries' whose last bits differ;
a device without correctly rounded float32 division and sqrt could differ in the last bit.

The streams are darray's own: the same seed does not give NumPy's numbers. A ``size`` of
None gives a 0-d array (NumPy returns a scalar).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._convert import asarray
from ..ops.creation import default_float
from ..ops.elementwise import log
from ..ops.indexing import take
from ..ops.searching import searchsorted
from ..ops.sorting import argsort
from ..place import Place, PlaceLike, parse
from ._philox import blocks, draw

__all__ = ["Generator", "Philox", "default_rng"]


def _shape(size: Any, op: str) -> tuple[int, ...]:
    """The shape of ``size`` (None: 0-d); ValueError naming ``size`` when it is negative or not integers."""
    dims = () if size is None else (size,) if np.ndim(size) == 0 else tuple(size)
    for d in dims:
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool) or d < 0:
            raise ValueError(f"darray random.{op}: size must be non-negative integers, got {size!r}")
    return tuple(int(d) for d in dims)


def _place(device: PlaceLike, place: PlaceLike, op: str) -> Place:
    if device is not None and place is not None:
        raise ValueError(f"darray random.{op}: give device= or place=, not both")
    return parse(device if device is not None else place)


def _float(dtype: Any, place: Place, op: str) -> np.dtype:
    dt = default_float(place) if dtype is None else _dt.as_dtype(dtype, f"random.{op}")
    if dt not in (_dt.float32, _dt.float64):
        raise ValueError(f"darray random.{op}: dtype must be float32 or float64, got {dt}")
    return dt


def _finite(op: str, **values: Any) -> None:
    for name, v in values.items():
        if np.ndim(v) != 0 or not np.isfinite(v):
            raise ValueError(f"darray random.{op}: {name} must be a finite scalar, got {v!r}")


def _out_args(out: Any, size: Any, dtype: Any, device: PlaceLike, place: PlaceLike, op: str) -> tuple:
    """(size, dtype, device) of a draw into ``out`` (NumPy's rules: TypeError for another dtype
    or a non-array, ValueError for another size or a device besides out's)."""
    if out is None:
        return size, dtype, device
    if not isinstance(out, DArray):
        raise TypeError(f"darray random.{op}: out must be a DArray, got {type(out).__name__}")
    if size is not None and _shape(size, op) != out.shape:
        raise ValueError(f"darray random.{op}: size {size} differs from out's shape {out.shape}")
    if dtype is not None and _dt.as_dtype(dtype, f"random.{op}") != out.dtype:
        raise TypeError(f"darray random.{op}: dtype {dtype} differs from out's dtype {out.dtype}")
    if device is not None or place is not None:
        raise ValueError(f"darray random.{op}: out decides the place; give no device= or place=")
    return out.shape, out.dtype, out.place


class Philox:
    """Philox4x32-10's 64-bit key from ``numpy.random.SeedSequence(seed)`` (None: fresh entropy;
    a SeedSequence as it is): the bit generator of a :class:`Generator` (``default_rng(Philox(s))``).
    See also: numpy.random.Philox (darray: no state beyond the key; the counter is the Generator's).
    It has what Dask's random module asks of a bit generator (``_seed_seq``, construction from a
    SeedSequence), so ``dask.array.random.default_rng(da.random.default_rng(s))`` draws darray chunks."""

    def __init__(self, seed: Any = None) -> None:
        if not isinstance(seed, np.random.SeedSequence):
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
                raise ValueError(f"darray random: seed must be a non-negative integer or None, got {seed!r}")
            seed = np.random.SeedSequence(seed)
        self._seed_seq = seed
        k0, k1 = (int(k) for k in seed.generate_state(2, np.uint32))
        self.key = (k0, k1)

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        return self._seed_seq

    def __repr__(self) -> str:
        return f"Philox(key={self.key[0]:08x}{self.key[1]:08x})"


class Generator:
    """Draws from Philox4x32-10 with a 64-bit key and counter. See also: numpy.random.Generator.

    Methods take ``device=`` (or ``place=``); the default is the current place. ``size=None``
    gives a 0-d array where NumPy returns a scalar."""

    def __init__(self, bit_generator: Philox, counter: int = 0) -> None:
        self.bit_generator, self.counter = bit_generator, counter
        self.key, self.seed_seq = bit_generator.key, bit_generator.seed_seq

    def __repr__(self) -> str:
        return f"Generator(Philox4x32-10, key={self.key[0]:08x}{self.key[1]:08x}, counter={self.counter})"

    def _draw(self, kind: str, shape: tuple[int, ...], dtype: np.dtype, place: Place, out: DArray | None = None,
              **bounds: int) -> DArray:
        """The draw ``kind`` into a new array, or into ``out`` (straight, when C-contiguous)."""
        size = int(np.prod(shape, dtype=np.int64))
        direct = out if out is None or out._dim.is_c_contiguous else None
        drawn = draw(kind, self.key, self.counter, shape, dtype, place, out=direct, **bounds)
        self.counter = (self.counter + blocks(kind, size)) % 2**64
        if out is not None and direct is None:
            out[...] = drawn
        return drawn if out is None else out

    def spawn(self, n: int) -> list[Generator]:
        """``n`` independent generators (keys from ``SeedSequence.spawn``). See also: numpy.random.Generator.spawn."""
        return [Generator(Philox(s)) for s in self.seed_seq.spawn(n)]

    def random(self, size: Any = None, dtype: Any = None, out: DArray | None = None, *, device: PlaceLike = None,
               place: PlaceLike = None) -> DArray:
        """Floats in [0, 1) from the top 24 (float32) or 53 (float64) bits; never 1.0. ``out``: an
        array to fill (its shape, dtype and place are the draw's).

        See also: numpy.random.Generator.random (default dtype: float64, float32 on a device without it)."""
        size, dtype, device = _out_args(out, size, dtype, device, place, "random")
        at = _place(device, place, "random")
        dt = _float(dtype, at, "random")
        return self._draw("random32" if dt == _dt.float32 else "random64", _shape(size, "random"), dt, at, out)

    def uniform(self, low: float = 0.0, high: float = 1.0, size: Any = None, dtype: Any = None, *,
                device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """``low + (high - low) * random()``: floats in [low, high).

        See also: numpy.random.Generator.uniform (darray: scalar bounds, ``low <= high``, a ``dtype``)."""
        _finite("uniform", low=low, high=high)
        if low > high:
            raise ValueError(f"darray random.uniform: low > high ({low} > {high})")
        u = self.random(size, dtype, device=device, place=place)
        return u * (high - low) + low

    def standard_normal(self, size: Any = None, dtype: Any = None, out: DArray | None = None, *,
                        device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Normal(0, 1) floats by Box-Muller (darray's own log, cos and sin: the same bits on every
        place); ``out`` as in :meth:`random`. See also: numpy.random.Generator.standard_normal."""
        size, dtype, device = _out_args(out, size, dtype, device, place, "standard_normal")
        at = _place(device, place, "standard_normal")
        dt = _float(dtype, at, "standard_normal")
        shape = _shape(size, "standard_normal")
        return self._draw("normal32" if dt == _dt.float32 else "normal64", shape, dt, at, out)

    def normal(self, loc: float = 0.0, scale: float = 1.0, size: Any = None, dtype: Any = None, *,
               device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """``loc + scale * standard_normal()``. See also: numpy.random.Generator.normal (darray:
        scalar parameters, a ``dtype``)."""
        _finite("normal", loc=loc, scale=scale)
        if scale < 0:
            raise ValueError(f"darray random.normal: scale < 0 ({scale})")
        z = self.standard_normal(size, dtype, device=device, place=place)
        return z * scale + loc

    def integers(self, low: int, high: int | None = None, size: Any = None, dtype: Any = _dt.int64,
                 endpoint: bool = False, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Integers in [low, high) (``endpoint=True``: [low, high]); ``high=None`` draws from [0, low).

        Unbiased: Lemire's multiply-shift on 64 bits with rejection; a rejected element redraws
        from further counters of its own block, so results do not depend on the device or the
        work partition. See also: numpy.random.Generator.integers (darray: scalar bounds)."""
        low, high = (0, low) if high is None else (low, high)
        dt = _dt.as_dtype(dtype, "random.integers")
        for name, v in (("low", low), ("high", high)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                raise ValueError(f"darray random.integers: {name} must be an integer, got {v!r}")
        if dt.kind not in "iu":
            raise ValueError(f"darray random.integers: dtype must be an integer type, got {dt}")
        low, top = int(low), int(high) - (not endpoint)
        info = np.iinfo(dt)
        if low > top:
            raise ValueError(f"darray random.integers: low >= high ({low} >= {high})" if not endpoint else
                             f"darray random.integers: low > high ({low} > {high})")
        if low < info.min or top > info.max:
            raise ValueError(f"darray random.integers: [low, high] = [{low}, {top}] is out of range for {dt}")
        at = _place(device, place, "integers")
        return self._draw("integers", _shape(size, "integers"), dt, at, low=low, rng=top - low)

    def _order(self, n: int, place: Place) -> DArray:
        """A uniformly random permutation of range(n): the stable argsort of n random 64-bit keys."""
        keys = self._draw("integers", (n,), _dt.uint64, place, rng=2**64 - 1)
        return argsort(keys)

    def permutation(self, x: Any, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """A permuted ``arange(x)`` (int ``x``) or a permuted copy of ``x`` along axis 0.

        See also: numpy.random.Generator.permutation (axis 0 only)."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            if x < 0:
                raise ValueError(f"darray random.permutation: x must be non-negative, got {x}")
            return self._order(int(x), _place(device, place, "permutation"))
        arr = x if isinstance(x, DArray) else asarray(x, device=_place(device, place, "permutation"))
        if arr.ndim == 0:
            raise ValueError("darray random.permutation: x must be an integer or an array of at least 1 dimension")
        return take(arr, self._order(arr.shape[0], arr.place), axis=0)

    def shuffle(self, x: DArray, /) -> None:
        """Permute ``x`` in place along axis 0. See also: numpy.random.Generator.shuffle (axis 0 only)."""
        if not isinstance(x, DArray) or x.ndim == 0:
            raise ValueError("darray random.shuffle: x must be a darray array of at least 1 dimension")
        x[...] = take(x, self._order(x.shape[0], x.place), axis=0)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None, *,
               device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Samples of ``a`` (an array, along axis 0, or ``arange(a)`` for an int).

        With ``p``: inverse-CDF sampling (searchsorted of uniforms in the cumulative weights);
        without replacement and ``p``: the n smallest ``-log(u) / p`` (Efraimidis-Spirakis).
        See also: numpy.random.Generator.choice (axis 0 only; its numbers differ)."""
        at = _place(device, place, "choice")
        pop, n = _population(a, at)
        at = at if pop is None else pop.place
        shape = _shape(size, "choice")
        count = int(np.prod(shape, dtype=np.int64))
        if not replace and count > n:
            raise ValueError(f"darray random.choice: size {count} is larger than the population {n} "
                             f"without replacement")
        if n == 0 and count:
            raise ValueError("darray random.choice: a is empty but size is not")
        weights = None if p is None else self._weights(p, n)
        if weights is not None and not replace and count > np.count_nonzero(weights):
            raise ValueError("darray random.choice: fewer non-zero entries in p than size without replacement")
        if weights is None:
            idx = self.integers(0, n, shape, device=at) if replace else self._order(n, at)[:count].reshape(shape)
        elif replace:
            cdf = np.cumsum(weights)
            cdf /= cdf[-1]
            u = self.random(shape, default_float(at), device=at)
            idx = searchsorted(asarray(cdf.astype(u.dtype), device=at), u, side="right")
        else:
            u = self.random((n,), default_float(at), device=at)
            keys = -log(1 - u) / asarray(weights.astype(u.dtype), device=at)  # inf where p is 0: never drawn first
            idx = argsort(keys)[:count].reshape(shape)
        return idx if pop is None else take(pop, idx.reshape(-1), axis=0).reshape(shape + pop.shape[1:])

    @staticmethod
    def _weights(p: Any, n: int) -> np.ndarray:
        """``p`` as float64 on the host, checked: 1-d of length n, non-negative, summing to 1."""
        w = np.asarray(p.get() if isinstance(p, DArray) else p, dtype=np.float64)
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError(f"darray random.choice: p must be 1-d of the length of a ({n}), got shape {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("darray random.choice: p must be finite and non-negative")
        if abs(w.sum() - 1) > np.sqrt(np.finfo(np.float64).eps):
            raise ValueError(f"darray random.choice: p must sum to 1, got {w.sum()}")
        return w


def _population(a: Any, place: Place) -> tuple[DArray | None, int]:
    """(the array to sample along axis 0, or None for ``arange(a)``; the population size)."""
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and a >= 0:
        return None, int(a)
    pop = a if isinstance(a, DArray) else asarray(a, device=place)
    if pop.ndim == 0:
        raise ValueError(f"darray random.choice: a must be a non-negative integer or an array of at least "
                         f"1 dimension, got {a!r}")
    return pop, pop.shape[0]


def default_rng(seed: Any = None) -> Generator:
    """A Generator keyed by ``numpy.random.SeedSequence(seed)`` (None: fresh entropy); a
    Generator passes through, a :class:`Philox` is used as it is. See also:
    numpy.random.default_rng (darray's streams differ)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed if isinstance(seed, Philox) else Philox(seed))
