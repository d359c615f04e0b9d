"""Command line: ``python -m darray info | demo | bench``.

- ``info [--reprobe]``: the OpenCL devices with their properties and probe verdicts, the
  default place, allocator stats.
- ``demo``: a short showcase, every step checked against NumPy and timed (``darray._demo``);
  exits non-zero on any FAIL.
- ``bench [--quick] [--json PATH] [--only NAME] [--plot PATH] [--compare OLD.json]``: the
  benchmark suite in ``benchmarks/`` (the package ``darray.benchmarks``): one table of figures
  and ratios from the same run, a progress bar on a terminal, a chart of the ratios against
  their targets, the change against an earlier run.

``--device PLACE`` (any subcommand) sets ``DARRAY_DEVICE`` for the run.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ._demo import cmd_demo

# -- info ------------------------------------------------------------------------------------


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def cmd_info(args: argparse.Namespace) -> int:
    import darray as da
    from darray.place import _programs

    print(f"darray {da.__version__} (python {sys.version.split()[0]}, numpy {np.__version__})")
    devs = da.place.devices()
    print(f"OpenCL devices: {len(devs)}")
    for d in devs:
        props = da.place.get_device_properties(d.index)
        print(f"  cl:{d.index}  {d.name}  [{d.platform}]")
        verdict = da.place.probe(d.index, fresh=args.reprobe)
        shown = "passed" if verdict.ok else f"FAILED: {verdict.reason}"
        print(f"        {'probe':<22} {shown}{' (cached)' if verdict.cached else ''}")
        for key, value in props.items():
            if key in ("index", "name", "platform"):
                continue
            shown = _bytes(value) if key.endswith("_bytes") and key != "max_parameter_bytes" else value
            print(f"        {key:<22} {shown}")
    place = da.place.default()
    name = f" ({da.place.get_device_name(place.index)})" if isinstance(place, da.CLPlace) else ""
    print(f"default place: {place}{name}")
    print(f"current place: {da.place.current()}")
    cache = _programs.cache_dir()
    print(f"program cache: {cache if cache is not None else 'disabled (DARRAY_CACHE_DIR=)'}")
    print(f"ICD vendors: {os.environ.get('OCL_ICD_VENDORS', '(loader default)')}")
    for var in ("DARRAY_DEVICE", "DARRAY_MEMORY_LIMIT", "DARRAY_CACHE_DIR", "DARRAY_LAZY", "DARRAY_MATMUL",
                "DARRAY_KERNEL_FORM"):
        if var in os.environ:
            print(f"  {var}={os.environ[var]}")
    print(f"allocator stats ({place}):")
    for key, value in da.alloc.stats(place).items():
        shown = _bytes(value) if key.endswith("_bytes") else value
        print(f"  {key:<20} {shown}")
    return 0


# -- bench -----------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    import darray.benchmarks as benchmarks

    if args.list:
        for c in benchmarks.registry():
            print(c.key)
        return 0
    results, data = benchmarks.run(quick=args.quick, json_path=args.json, only=args.only, plot_path=args.plot,
                                   compare_path=args.compare)
    if data["errors"]:
        return 1
    if args.strict and data["targets_missed"]:
        return 2
    return 0


# -- entry point -----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--device", metavar="PLACE", default=argparse.SUPPRESS,
                        help="the place to use: cpu, cl, cl:N (sets DARRAY_DEVICE)")
    parser = argparse.ArgumentParser(prog="python -m darray", parents=[common],
                                     description="darray: NumPy-compatible N-d arrays on OpenCL")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{info,demo,bench}")
    info = sub.add_parser("info", parents=[common], help="OpenCL devices, the default place, allocator stats")
    info.add_argument("--reprobe", action="store_true",
                      help="probe every device again instead of reading cached verdicts")
    info.set_defaults(func=cmd_info)
    demo = sub.add_parser("demo", parents=[common], help="a showcase checked against NumPy, with timings")
    demo.add_argument("--only", nargs="*", metavar="STEP", help="run the steps whose title contains one of these")
    demo.set_defaults(func=cmd_demo)
    bench = sub.add_parser("bench", parents=[common], help="the benchmark suite (benchmarks/)")
    bench.add_argument("--json", metavar="PATH", help="write every figure to PATH as JSON")
    bench.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats")
    bench.add_argument("--only", nargs="*", metavar="NAME",
                       help="run the cases whose family.name contains one of these")
    bench.add_argument("--list", action="store_true", help="list the cases and exit")
    bench.add_argument("--plot", metavar="PATH", help="draw the ratios against their targets into PATH (png/svg/pdf)")
    bench.add_argument("--compare", metavar="OLD", help="print the change of every figure against OLD (a --json file)")
    bench.add_argument("--strict", action="store_true", help="exit 2 when a target is missed")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    device = getattr(args, "device", None)
    if device:
        os.environ["DARRAY_DEVICE"] = device
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
