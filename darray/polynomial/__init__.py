"""darray.polynomial: NumPy's ``numpy.polynomial`` package on DArrays.

The modules ``polynomial``, ``chebyshev``, ``legendre``, ``laguerre``, ``hermite``, ``hermite_e`` and
``polyutils`` carry NumPy's functions, the classes ``Polynomial``, ``Chebyshev``, ``Legendre``, ``Laguerre``,
``Hermite`` and ``HermiteE`` its convenience classes. A basis is one row of data (``_basis``: its recurrence,
domain, window and weight) feeding one generic implementation: coefficient algebra on the host (``_algebra``),
evaluation, Vandermonde matrices and fits on DArrays (``_evaluate``). Loaded on first use of
``darray.polynomial``. (NumPy's old ``polyval``, ``polyfit``, ``poly1d``... stay in the main namespace.)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial, polyutils
from ._classes import Chebyshev, Hermite, HermiteE, Laguerre, Legendre, Polynomial


def set_default_printstyle(style: Any) -> None:
    """Print series with ``'unicode'`` or ``'ascii'`` terms (darray's classes print through NumPy's printers,
    so this sets NumPy's style as well). See also: numpy.polynomial.set_default_printstyle."""
    np.polynomial.set_default_printstyle(style)


__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev", "legendre", "Legendre",
           "hermite", "Hermite", "hermite_e", "HermiteE", "laguerre", "Laguerre", "polyutils"]
