"""The command line (`python -m darray info | demo | bench`) and the benchmark harness."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import darray as da
from darray import __main__ as cli
from darray import _demo
from darray.benchmarks import harness, report

MEMORY_CASES = {
    "memory.copy_bandwidth": {"raw_kernel_GBps", "darray_kernel_GBps", "darray_wall_GBps", "numpy_copyto_GBps"},
    "memory.pooled_alloc_1MiB": {"pooled_us", "raw_us", "darray_empty_us"},
    "memory.alloc_steady_state": {"device_allocations_after_first", "cache_hits_growth"},
    "memory.transfer_64MiB": {"h2d_GBps", "d2h_GBps", "numpy_copyto_GBps"},
    "scheduler.launch_overhead": {"raw_us", "darray_us", "overhead_us"},
    "scheduler.stream_overlap": {"one_stream_ms", "two_streams_ms", "overlap_fraction"},
}
RATIOS = {
    "memory.pooled_alloc_1MiB": {"pooled/raw"},
    "memory.transfer_64MiB": {"h2d/copyto", "d2h/copyto"},
    "memory.copy_bandwidth": {"darray/numpy", "darray_kernel/raw_kernel"},
}


def _require_opencl() -> None:
    if not da.place.is_available():
        if os.environ.get("DARRAY_REQUIRE_OPENCL") == "1":
            pytest.fail("DARRAY_REQUIRE_OPENCL=1 but no OpenCL device was found")
        pytest.skip("no OpenCL device")


def _run(tmp_path: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """``python -m darray ARGS`` from a neutral folder, so the darray under test is imported."""
    env = dict(os.environ)
    env.pop("DARRAY_DEVICE", None)
    return subprocess.run([sys.executable, "-m", "darray", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _explain(proc: subprocess.CompletedProcess) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"


def test_info(tmp_path):
    proc = _run(tmp_path, "info")
    assert proc.returncode == 0, _explain(proc)
    assert "default place:" in proc.stdout
    assert "allocator stats" in proc.stdout and "device_allocations" in proc.stdout
    for d in da.place.devices():
        assert d.name in proc.stdout


def test_demo_passes(tmp_path):
    _require_opencl()
    proc = _run(tmp_path, "demo")
    assert proc.returncode == 0, _explain(proc)
    steps = [line for line in proc.stdout.splitlines() if not line.startswith("demo:")]
    assert not [line for line in steps if line[25:29] == "FAIL"], _explain(proc)
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("demo:") and "0 FAIL" in last, last
    assert "compiles:" in proc.stdout  # the profile table


def test_demo_on_cpu_place(tmp_path):
    proc = _run(tmp_path, "demo", "--device", "cpu")
    assert proc.returncode == 0, _explain(proc)
    assert "demo on cpu" in proc.stdout


def test_bench_quick_json(tmp_path):
    _require_opencl()
    out, png = tmp_path / "bench.json", tmp_path / "bench.png"
    proc = _run(tmp_path, "bench", "--quick", "--json", str(out), "--plot", str(png))
    assert proc.returncode == 0, _explain(proc)
    data = json.loads(out.read_text())
    assert png.read_bytes()[:4] == b"\x89PNG" and f"wrote {png}" in proc.stdout
    assert data["quick"] is True
    assert data["errors"] == []
    assert {"environment", "cases", "targets_missed", "seconds"} <= set(data)
    assert data["environment"]["place"].startswith("cl:")
    for key, figures in MEMORY_CASES.items():
        assert key in data["cases"], f"{key} missing from {sorted(data['cases'])}"
        case = data["cases"][key]
        assert case["error"] is None and case["skipped"] is None
        assert figures <= set(case["figures"]), (key, sorted(case["figures"]))
    for key, ratios in RATIOS.items():
        assert ratios <= set(data["cases"][key]["ratios"]), (key, sorted(data["cases"][key]["ratios"]))
    targets = data["cases"]["memory.pooled_alloc_1MiB"]["targets"]["pooled/raw"]
    assert targets["op"] == "<=" and targets["value"] == 0.1 and isinstance(targets["met"], bool)
    # Not a timing: the caching allocator must not create device buffers in a steady state.
    assert data["cases"]["memory.alloc_steady_state"]["figures"]["device_allocations_after_first"] == 0
    assert data["cases"]["memory.alloc_steady_state"]["figures"]["cache_hits_growth"] > 0
    overlap = data["cases"]["scheduler.stream_overlap"]["figures"]["overlap_fraction"]
    assert 0.0 <= overlap <= 1.0
    assert "case" in proc.stdout and "target" in proc.stdout  # the table


def _report_data(value: float) -> dict:
    case = {"family": "fam", "figures": {"GBps": value * 10}, "units": {"GBps": "GB/s"}, "ratios": {"r": value},
            "labels": {"r": "a ratio"}, "targets": {"r": {"op": ">=", "value": 1.0, "met": value >= 1}},
            "error": None, "skipped": None}
    return {"environment": {"place": "cl:0"}, "cases": {"fam.one": case, "fam.two": {**case, "ratios": {}}}}


def test_bench_compare_and_plot(tmp_path):
    lines = report.compare(_report_data(0.5), _report_data(0.75))
    assert any("a ratio" in line and "+50.0%" in line for line in lines)
    assert any("GB/s" in line for line in lines)
    old = {**_report_data(1), "cases": {**_report_data(1)["cases"], "fam.gone": _report_data(1)["cases"]["fam.one"]}}
    assert report.compare(old, _report_data(1))[-1] == "only in the old run: fam.gone"
    assert report.plot(_report_data(2), str(tmp_path / "r.svg")) == 1
    assert (tmp_path / "r.svg").read_text().lstrip().startswith("<?xml")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a bench --json file"):
        report.load(str(bad))


def test_bench_list_and_only(capsys):
    assert cli.main(["bench", "--list"]) == 0
    listed = capsys.readouterr().out.split()
    assert set(MEMORY_CASES) <= set(listed)


def test_bad_subcommand_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as err:
        cli.main(["frobnicate"])
    assert err.value.code == 2
    with pytest.raises(SystemExit):
        cli.main([])


def test_device_option_sets_the_env(monkeypatch):
    monkeypatch.delenv("DARRAY_DEVICE", raising=False)
    args = cli.build_parser().parse_args(["--device", "cpu", "info"])
    assert args.device == "cpu"
    args = cli.build_parser().parse_args(["bench", "--device", "cl:0", "--quick"])
    assert args.device == "cl:0" and args.quick
    assert not hasattr(cli.build_parser().parse_args(["info"]), "device")


def test_demo_steps_are_registered_in_order():
    titles = [t for t, _ in _demo.DEMO_STEPS]
    assert titles[:3] == ["creation", "asarray round trip", "views, slice assignment"]
    assert len(set(titles)) == len(titles)


def test_demo_check_reports_differences():
    import numpy as np

    d = _demo.Demo(da.CPUPlace())
    d.check("same", np.arange(3), np.arange(3))
    assert not d.failures
    d.check("dtype", np.arange(3, dtype=np.int32), np.arange(3))
    d.check("shape", np.arange(3), np.arange(4))
    d.check("values", np.arange(3), np.arange(3) + 1)
    d.check("close", np.float32([1.0]), np.float32([1.0 + 1e-7]), rtol=1e-6)
    assert [f.split(":")[0] for f in d.failures] == ["dtype", "shape", "values"]


# -- harness ---------------------------------------------------------------------------------


def test_target_parse_and_met():
    t = harness.Target.parse(">= 0.8")
    assert t.met(0.8) and t.met(2) and not t.met(0.79) and not t.met(float("nan"))
    assert str(harness.Target.parse("<= 5")) == "<= 5"
    with pytest.raises(ValueError):
        harness.Target.parse("> 3")


def test_timeit_returns_median_seconds():
    calls = []
    t = harness.timeit(lambda: calls.append(1), warmup=2, repeat=3, number=4)
    assert len(calls) == 2 + 3 * 4
    assert 0 <= t < 0.1


def test_run_cases_reports_errors_and_skips_and_the_table_shows_them():
    def good(run):
        run.figure("a_us", 2.0, "us", target="<= 5")
        run.ratio("x/y", 0.5, target=">= 0.8")

    def bad(run):
        raise RuntimeError("boom")

    def skipped(run):
        run.skip("not here")

    cases = [harness.CaseDef("good", "t", good, needs_opencl=False),
             harness.CaseDef("bad", "t", bad, needs_opencl=False),
             harness.CaseDef("skip", "t", skipped, needs_opencl=False)]
    res = harness.run_cases(cases, quick=True, place=da.CPUPlace())
    assert res[0].met() == {"a_us": True, "x/y": False}
    assert res[1].error == "RuntimeError: boom"
    assert res[2].skipped == "not here"
    table = harness.format_table(res)
    assert "MISSED" in table and "ERROR RuntimeError: boom" in table and "skipped: not here" in table
    data = harness.report_json(res, place=da.CPUPlace(), quick=True, seconds=0.1)
    assert data["errors"] == ["t.bad"] and data["targets_missed"] == ["t.good:x/y"]
    json.dumps(data)


def test_loop_runs_the_body_then_finishes_once():
    calls = []
    fn = harness.loop(lambda: calls.append("body"), 3, lambda: calls.append("finish"))
    fn()
    assert calls == ["body"] * 3 + ["finish"]


def test_least_finds_the_first_k_that_converges():
    from darray.benchmarks.loops import least

    for first in (1, 2, 7, 450, 451, 1000):
        seen = []

        def converged(k, first=first, seen=seen):
            seen.append(k)
            return k >= first

        assert least(converged, 451) == first
        assert len(seen) <= 14


def _loops(names: set[str]) -> list:
    cases = [c for c in harness.registry() if c.family == "loops" and c.name in names]
    assert {c.name for c in cases} == names
    return harness.run_cases(cases, quick=True, place=da.place.default())


def test_loops_cases_report_their_ratios():
    """The cheap loops cases at --quick: figures and ratios with the issue's targets."""
    _require_opencl()
    res = {r.name: r for r in _loops({"chain_1k", "add_1k", "cg_256", "heat_jit"})}
    assert all(r.error is None for r in res.values()), {k: r.notes for k, r in res.items()}
    chain = res["chain_1k"]
    assert {"numpy_us", "eager_us", "jit_us"} <= set(chain.figures) and "eager/numpy" in chain.ratios
    assert str(chain.targets["jit/numpy"]) == ">= 0.5"
    assert str(res["add_1k"].targets["darray/pyopencl.array"]) == ">= 2"
    cg = res["cg_256"]
    assert cg.figures["darray_iterations"] > 0 and cg.figures["scipy_iterations"] > 0
    assert str(cg.targets["darray/scipy"]) == ">= 1"
    assert res["heat_jit"].skipped is None and str(res["heat_jit"].targets["jit/numpy"]) == ">= 1"


def test_find_root_case_skips_without_scipy_elementwise(monkeypatch):
    _require_opencl()
    monkeypatch.setitem(sys.modules, "scipy.optimize.elementwise", None)  # import raises ImportError
    (r,) = _loops({"find_root_1000"})
    assert r.error is None and "scipy.optimize.elementwise" in r.skipped
