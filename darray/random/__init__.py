"""darray.random: a counter-based generator (Philox4x32-10) with no state on the device.

``rng = da.random.default_rng(seed)`` holds a 64-bit key (from ``numpy.random.SeedSequence``)
and a 64-bit counter. Each draw is one kernel (``kernels/philox.cl``) whose blocks are pure
functions of (key, counter); the counter then advances by the blocks the draw used. The
result is an ordinary array, so ``rng.random(n) * 2 - 1`` fuses the arithmetic after it.
The ``cpu`` place computes the same numbers with NumPy: every method is bit-identical on every
place and kernel form. normal and standard_normal use darray's own log, cos and sin (Box-Muller
from + - * / sqrt and bit operations, contraction off), not the libraries' whose last bits differ;
a device without correctly rounded float32 division and sqrt could differ in the last bit.
The other distributions are darray expressions over these draws (``_distributions``'s table)
or rejection samplers (``_samplers``). What is guaranteed: the Philox words, uniforms, integers,
normals and zipf (whose exp, expm1, log1p and log are darray's own, ``exp8``... of
``kernels/samplers.cl``) are the same bits on every place; gamma, Poisson, binomial,
hypergeometric, von Mises and logseries still call the OpenCL runtime's exp, expm1, log1p, pow
or cos, whose last bit may differ from NumPy's on some CPUs (seen with ``pow`` on an AVX-512
machine), so their numbers equal the ``cpu`` place's where those functions agree (the tests
check it on the machine they run on) and follow the same distribution everywhere; on one device
and driver they are the same numbers every run. ``RandomState`` and the module-level functions
(``seed``, ``rand``, ``randint``...) are NumPy's legacy API on one global ``RandomState``.

The streams are Philox, not NumPy's (MT19937 for the legacy API, PCG64 for ``default_rng``):
the same seed does not give NumPy's numbers (as with CuPy); it makes darray's own runs
reproducible. A ``size`` of None gives a 0-d array (NumPy returns a scalar). NumPy's other bit
generators (MT19937, PCG64, PCG64DXSM, SFC64) are absent: an AttributeError says why
(``darray._exclusions``).
"""
from __future__ import annotations

from numpy.random import SeedSequence

from .._exclusions import lookup as _lookup
from ._generator import BitGenerator, Generator, Philox, default_rng
from ._legacy import FUNCTIONS, RandomState, get_bit_generator, set_bit_generator

__all__ = ["BitGenerator", "Generator", "Philox", "RandomState", "SeedSequence", "default_rng", "get_bit_generator",
           "set_bit_generator", *FUNCTIONS]
globals().update(FUNCTIONS)
__getattr__ = _lookup("random")  # absent NumPy names say why (darray._exclusions)
