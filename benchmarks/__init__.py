"""darray benchmark suite (`python -m darray bench`).

One module per family registers its cases with ``harness.case``; ``FAMILIES`` lists the
modules, in the order they run. A later family adds its module here (e.g. ``"elementwise"``,
``"reduction"``, ``"linalg"``, ``"lazy"``, ``"fft"``, ``"sparse"``). The copy bandwidth the
``memory`` family measures is shared as ``run.shared["copy_GBps"]`` (see
:func:`memory.device_copy_bandwidth`) so later families can report effective bandwidth as a
fraction of it.
"""
from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from . import report
from .harness import (
    FAMILIES,
    Result,
    case,
    describe,
    format_table,
    load_families,
    registry,
    report_json,
    run_cases,
    write_json,
)

__all__ = ["FAMILIES", "case", "load_families", "registry", "run"]


def _progress(total: int) -> Any:
    """A tqdm bar over the cases on a terminal (tqdm from the ``bench`` extra), else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="case", leave=False)


def run(*, quick: bool = False, json_path: str | None = None, only: list[str] | None = None,
        echo: Callable[[str], None] | None = None, plot_path: str | None = None,
        compare_path: str | None = None) -> tuple[list[Result], dict]:
    """Run the suite (or the cases whose ``family.name`` contains one of ``only``); print the
    table, then the change against the run in ``compare_path`` and the chart to ``plot_path``
    (see ``report``)."""
    import pyopencl as cl

    import darray as da

    warnings.filterwarnings("ignore", category=cl.CompilerWarning)  # the raw pyopencl references' build logs
    out = echo or (lambda s: print(s, flush=True))
    cases = registry()
    if only:
        cases = [c for c in cases if any(o in c.key for o in only)]
        if not cases:
            raise SystemExit(f"darray bench: no case matches {only}; cases: {[c.key for c in registry()]}")
    place = da.place.default()
    header = f"darray bench on {describe(place)}" + (" --quick" if quick else "")
    out(f"{header}: {len(cases)} cases")
    old = report.load(compare_path) if compare_path else None  # a bad file fails before the run
    t0 = time.perf_counter()
    bar = _progress(len(cases))
    try:
        results = run_cases(cases, quick=quick, place=place, echo=None if bar else out, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    out("")
    out(header)
    out(format_table(results))
    data = report_json(results, place=place, quick=quick, seconds=seconds)
    missed = data["targets_missed"]
    out(f"\n{len(results)} cases in {seconds:.1f} s; targets missed: {', '.join(missed) if missed else 'none'}"
        + (f"; errors: {', '.join(data['errors'])}" if data["errors"] else ""))
    for r in results:
        for n in r.notes:
            if r.error or not n.startswith("Traceback"):
                out(f"note {r.key}: {n.rstrip()}")
    if json_path:
        write_json(json_path, data)
        out(f"wrote {json_path}")
    if old is not None:
        out(f"\nchange against {compare_path}:")
        for line in report.compare(old, data):
            out(line)
    if plot_path:
        out(f"wrote {plot_path} ({report.plot(data, plot_path)} ratios)")
    sys.stdout.flush()
    return results, data
