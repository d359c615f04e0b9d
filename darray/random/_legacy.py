"""NumPy's legacy random API: :class:`RandomState` and the module-level functions bound to one
global RandomState (``da.random.seed(0)``, ``da.random.rand(3, 4)``...), drawing on the current
place (or ``device=``). A RandomState is a :class:`Generator` behind NumPy's legacy names.

Differs from NumPy: the stream is Philox4x32-10, not MT19937, so a seed does not give NumPy's
numbers (it makes darray's runs reproducible); ``get_state`` returns darray's own state (see
:meth:`RandomState.get_state`); ``tomaxint`` is absent.
"""
from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..place import PlaceLike
from ._generator import BitGenerator, Generator, Philox
from ._params import Param, finite_range, float_dtype, place_of, resolve

STATE_NAME = "Philox4x32-10"
# Generator methods a RandomState takes as they are (less the keywords NumPy's legacy API lacks)
_SHARED = ("beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f", "gamma",
           "geometric", "gumbel", "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
           "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
           "permutation", "poisson", "power", "rayleigh", "shuffle", "standard_cauchy", "standard_exponential",
           "standard_gamma", "standard_normal", "standard_t", "triangular", "vonmises", "wald", "weibull", "zipf")
_NOT_LEGACY = {"out", "method", "axis", "shuffle"}


def _generator(seed: Any) -> Generator:
    """A Generator from a legacy seed: None, a non-negative int, a sequence of them, or a BitGenerator."""
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    try:
        return Generator(Philox(None if seed is None else np.random.SeedSequence(seed)))
    except (TypeError, ValueError) as err:
        raise ValueError(f"darray random.seed: seed must be None, a non-negative integer or a sequence of "
                         f"them, got {seed!r} ({err})") from None


def _delegate(name: str) -> Callable[..., Any]:
    """RandomState's ``name``: Generator's, with NumPy's legacy parameters (and ``device=``/``place=``)."""
    target = getattr(Generator, name)
    sig = inspect.signature(target)
    sig = sig.replace(parameters=[p for p in sig.parameters.values() if p.name not in _NOT_LEGACY])

    def method(self: RandomState, *args: Any, **kwargs: Any) -> Any:
        bound = sig.bind(self, *args, **kwargs)
        return target(self._gen, *bound.args[1:], **bound.kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"{(target.__doc__ or '').splitlines()[0]}\n\nSee also: numpy.random.RandomState.{name} "
                      f"(differs: darray's stream is Philox, not MT19937).")
    method.__signature__ = sig  # type: ignore[attr-defined]
    return method


class RandomState:
    """NumPy's legacy generator on darray's Philox stream. See also: numpy.random.RandomState
    (differs: the numbers differ from NumPy's for a seed; the state is darray's own)."""

    def __init__(self, seed: Any = None) -> None:
        self._gen = _generator(seed)

    def __repr__(self) -> str:
        return f"RandomState({self._gen!r})"

    def seed(self, seed: Any = None) -> None:
        """Re-seed: the key from ``numpy.random.SeedSequence(seed)`` (None: fresh entropy), the counter 0."""
        self._gen = _generator(seed)

    def get_state(self, legacy: bool = True) -> dict[str, Any]:
        """darray's state: ``{"bit_generator": "Philox4x32-10", "state": {"key": (k0, k1), "counter": c}}``
        (the key's two 32-bit words, the 64-bit counter of the next draw); ``legacy`` is ignored (there
        is no MT19937 tuple). See also: numpy.random.RandomState.get_state."""
        return {"bit_generator": STATE_NAME, "state": {"key": self._gen.key, "counter": self._gen.counter}}

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore a state of :meth:`get_state`. See also: numpy.random.RandomState.set_state."""
        if not isinstance(state, dict):
            raise TypeError(f"darray random.set_state: state must be a dict of get_state, got {type(state).__name__}")
        inner = state.get("state")
        if state.get("bit_generator") != STATE_NAME or not isinstance(inner, dict) or set(inner) != {"key", "counter"}:
            raise ValueError(f"darray random.set_state: state must be for a {STATE_NAME} generator (get_state's form)")
        key, counter = tuple(int(k) for k in inner["key"]), int(inner["counter"])
        if len(key) != 2 or not all(0 <= k < 2**32 for k in key) or not 0 <= counter < 2**64:
            raise ValueError(f"darray random.set_state: key must be two 32-bit words and counter 64 bits, got {inner}")
        self._gen = Generator(Philox(self._gen.seed_seq, key=key[0] << 32 | key[1]), counter)

    def random_sample(self, size: Any = None, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Floats in [0, 1). See also: numpy.random.RandomState.random_sample."""
        return self._gen.random(size, device=device, place=place)

    random = ranf = sample = random_sample

    def rand(self, *args: int, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Floats in [0, 1) of shape ``args``. See also: numpy.random.RandomState.rand."""
        return self._gen.random(args or None, device=device, place=place)

    def randn(self, *args: int, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Normal(0, 1) floats of shape ``args``. See also: numpy.random.RandomState.randn."""
        return self._gen.standard_normal(args or None, device=device, place=place)

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int, *, device: PlaceLike = None,
                place: PlaceLike = None) -> DArray:
        """Integers in [low, high) (``high=None``: [0, low)). See also: numpy.random.RandomState.randint."""
        return self._gen.integers(low, high, size, dtype=_dt.as_dtype(dtype, "random.randint"), device=device,
                                  place=place)

    def random_integers(self, low: Any, high: Any = None, size: Any = None, *, device: PlaceLike = None,
                        place: PlaceLike = None) -> DArray:
        """Integers in [low, high] (``high=None``: [1, low]); deprecated as NumPy's.
        See also: numpy.random.RandomState.random_integers."""
        warnings.warn("darray random.random_integers is deprecated (as NumPy's): use randint(low, high + 1)",
                      DeprecationWarning, stacklevel=2)
        low, high = (1, low) if high is None else (low, high)
        return self._gen.integers(low, high, size, endpoint=True, device=device, place=place)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, *, device: PlaceLike = None,
                place: PlaceLike = None) -> DArray:
        """``low + (high - low) * random_sample()`` (high < low too, as NumPy's legacy uniform).
        See also: numpy.random.RandomState.uniform."""
        at = place_of(device, place, "uniform", low, high)
        dt = float_dtype(None, at, "uniform")
        (lo, hi), shape = resolve("uniform", (Param("low"), Param("high")), [low, high], size, at, dt,
                                  _finite_range)
        return self._gen.random(shape, dt, device=at) * (hi - lo) + lo


def _finite_range(h: list[np.ndarray]) -> str | None:
    finite_range("uniform", h)
    return None


for _name in _SHARED:
    setattr(RandomState, _name, _delegate(_name))

_GLOBAL = RandomState()
_FUNCTION_NAMES = ("seed", "get_state", "set_state", "rand", "randn", "randint", "random_integers", "random_sample",
                   "random", "ranf", "sample", "uniform", *_SHARED)
FUNCTIONS: dict[str, Callable[..., Any]] = {name: getattr(_GLOBAL, name) for name in _FUNCTION_NAMES}


def get_bit_generator() -> BitGenerator:
    """The bit generator of the global RandomState. See also: numpy.random.get_bit_generator."""
    return _GLOBAL._gen.bit_generator


def set_bit_generator(bitgen: BitGenerator) -> None:
    """Give the global RandomState ``bitgen`` (its counter starts at 0). See also: numpy.random.set_bit_generator."""
    if not isinstance(bitgen, BitGenerator):
        raise TypeError(f"darray random.set_bit_generator: a darray BitGenerator is needed, got "
                        f"{type(bitgen).__name__}")
    _GLOBAL._gen = Generator(bitgen)
