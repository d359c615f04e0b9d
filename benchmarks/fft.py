"""FFT family (issue 15): darray.fft (pyvkfft on the device) against numpy.fft and scipy.fft.

Figures, from one run, darray timed to the transform's completion on the device (wall):
- 2-D FFT of 1024x1024 complex64: >= 1.5x ``numpy.fft.fftn``; ``scipy.fft.fftn(workers=2)`` reported;
- 4096 transforms of 1024 complex64 along the last axis: >= 1.5x ``numpy.fft.fft``;
- ``rfft`` of 16M float32: reported against ``numpy.fft.rfft``;
- darray's overhead over calling the same pyvkfft app directly on the same buffers, 1024x1024:
  <= 5% (darray / direct - 1, in percent).
--quick: a quarter of each size.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da
from darray import sched
from darray.fft import _plan

from .harness import Run, case, compare


def _complex(shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(0)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)


def _require(run: Run) -> None:
    try:
        _plan.vkfft()
    except ImportError as err:
        run.skip(str(err))


def _versus(run: Run, what: str, mine: Callable[[], da.DArray], others: dict[str, Callable[[], Any]],
            targets: dict[str, str]) -> None:
    """Wall time of ``mine`` (to completion on the device) and its speed against each of ``others``
    (``targets``: the bound for some), timed in turns. The profiler's device time of a pyvkfft
    call is its marker's, so none is given."""
    _require(run)
    # the warm-up call builds the plan
    t = compare({"darray": lambda: mine().eval(), **others}, repeat=run.pick(7, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label=f"{what} (wall)")
    for name in others:
        run.ratio(f"darray/{name}", t[name] / t["darray"], label=f"{what}: speed vs {name} (wall, same run)",
                  target=targets.get(name))


@case("fft2_1024_complex64")
def fft2(run: Run) -> None:
    """``da.fft.fftn`` of 1024x1024 complex64 against numpy.fft.fftn and scipy.fft.fftn(workers=2)."""
    n = run.pick(1024, 512)
    host = _complex((n, n))
    x = da.asarray(host, device=run.place)
    others: dict[str, Callable[[], Any]] = {"numpy": lambda: np.fft.fftn(host)}
    try:
        import scipy.fft

        others["scipy_workers2"] = lambda: scipy.fft.fftn(host, workers=2)
    except ImportError:
        run.note("scipy is not installed: no scipy.fft figure")
    _versus(run, f"fftn {n}x{n} complex64", lambda: da.fft.fftn(x), others, {"numpy": ">= 1.5"})


@case("batched_4096x1024_complex64")
def batched(run: Run) -> None:
    """``da.fft.fft`` along the last axis of 4096x1024 complex64 against numpy.fft.fft."""
    host = _complex((run.pick(4096, 1024), 1024))
    x = da.asarray(host, device=run.place)
    _versus(run, f"{host.shape[0]} FFTs of 1024", lambda: da.fft.fft(x), {"numpy": lambda: np.fft.fft(host)},
            {"numpy": ">= 1.5"})


@case("rfft_16M_float32")
def rfft(run: Run) -> None:
    """``da.fft.rfft`` of 16M float32 against numpy.fft.rfft."""
    host = np.random.default_rng(0).standard_normal(run.pick(16 << 20, 4 << 20), dtype=np.float32)
    x = da.asarray(host, device=run.place)
    _versus(run, f"rfft of {host.size >> 20}M float32", lambda: da.fft.rfft(x),
            {"numpy": lambda: np.fft.rfft(host)}, {})


@case("overhead_1024_complex64")
def overhead(run: Run) -> None:
    """``da.fft.fftn`` against the same pyvkfft app called directly on the same buffers."""
    _require(run)
    n = run.pick(1024, 512)
    x = da.asarray(_complex((n, n)), device=run.place)
    out = da.fft.fftn(x).eval()
    app = _plan.plan(run.place, x.shape, x.dtype, (0, 1), r2c=False, norm=0).app  # the app darray uses
    queue = sched.current_stream(run.place).queue
    src, dst = _plan.Operand(x), _plan.Operand(out)  # as darray wraps them, once
    # direct calls bypass the scheduler, so da.synchronize() would not wait for them: queue.finish()
    t = compare({"darray": lambda: da.fft.fftn(x).eval(),
                 "direct": lambda: (app.fft(src, dst, queue=queue), queue.finish())},
                repeat=run.pick(9, 5), sync=["darray"])
    run.figure("direct_ms", t["direct"] * 1e3, "ms", label=f"pyvkfft app.fft on {n}x{n} complex64 (wall)")
    run.figure("overhead_pct", (t["darray"] / t["direct"] - 1) * 100, "%", label="darray over direct pyvkfft",
               target="<= 5")
