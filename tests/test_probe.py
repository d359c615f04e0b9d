"""The probe (darray.place._probe): a device is used only after it built and ran a small kernel.

Failing devices are simulated in fresh interpreters by wrapping ``_probe._run`` (the build and
run) so that one platform fails with a build-log line (as PoCL 3.0 does on CPUs its LLVM does
not know) that no real runtime prints, so a device failing for real (PoCL on AMD Zen 5) is told
apart. Every such run uses its own ``DARRAY_CACHE_DIR`` so no made-up verdict reaches the
user's cache. Which devices pass is asked of the probe, never assumed.
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap

import pytest

import darray as da
from darray.place import _discovery, _probe

REASON = "error: darray test, a simulated build failure"
FAIL_PLATFORM = """
from darray.place import _probe
_real = _probe._run
def _run(device):
    if device.platform.name.strip() == {platform!r}:
        return _probe.Verdict(False, {reason!r})
    return _real(device)
_probe._run = _run
"""


def _python(code: str, tmp_path, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "DARRAY_DEVICE"}
    full.update(DARRAY_CACHE_DIR=str(tmp_path / "cache"), **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


def _default_platform(cl_place) -> str:
    return da.place.devices()[cl_place.index].platform


def _passing_others(platform: str) -> list[int]:
    """Indices of the devices on other platforms that pass their probe here, best first."""
    order = sorted(da.place.devices(), key=lambda d: (d.rank, d.index))
    return [d.index for d in order if d.platform != platform and da.place.probe(d.index).ok]


def test_default_device_passes(cl_place):
    verdict = da.place.probe(cl_place.index)
    assert verdict.ok and verdict.reason == ""
    assert da.place.is_available()


def test_failed_device_is_skipped_listed_and_refused(cl_place, tmp_path):
    platform = _default_platform(cl_place)
    others = _passing_others(platform)
    code = FAIL_PLATFORM.format(platform=platform, reason=REASON) + f"""
import warnings, darray as da
from darray.errors import DeviceError
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("default", da.place.default())
    x = da.ones(3)
print("warnings", len(caught))
print("message", caught[0].message if caught else "")
print("verdict", da.place.probe({cl_place.index}).ok, da.place.probe({cl_place.index}).reason)
try:
    da.zeros(3, device="cl:{cl_place.index}")
except DeviceError as err:
    print("refused", err.status, {REASON!r} in str(err))
"""
    out = _python(code, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.strip().splitlines())
    assert lines["default"] == (f"cl:{others[0]}" if others else "cpu")
    assert lines["warnings"] == "1"
    assert f"cl:{cl_place.index}" in lines["message"] and REASON in lines["message"]
    assert lines["verdict"] == f"False {REASON}"
    assert lines["refused"] == "PROBE_FAILED True"


def test_failed_device_from_env_raises(cl_place, tmp_path):
    code = FAIL_PLATFORM.format(platform=_default_platform(cl_place), reason=REASON) + """
import darray as da
da.zeros(3)
"""
    out = _python(code, tmp_path, DARRAY_DEVICE=f"cl:{cl_place.index}")
    assert out.returncode != 0
    assert "DeviceError" in out.stderr and REASON in out.stderr and f"cl:{cl_place.index}" in out.stderr


def test_no_device_passes(tmp_path):
    """Every device fails: the default is the cpu place with one warning, ``"cl"`` is refused
    with the reasons, and the demo runs on the cpu place and says why."""
    code = """
import warnings
from darray.place import _probe
_probe._run = lambda device: _probe.Verdict(False, "error: nothing builds here")
import darray as da
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x = da.arange(5) * 2
print(x.place, x.get().tolist(), len(caught), "nothing builds" in str(caught[0].message) if caught else None)
print(da.place.is_available())
try:
    da.place.parse("cl")
except Exception as err:
    print(type(err).__name__, "nothing builds" in str(err) or "none was found" in str(err))
from darray.__main__ import main
main(["demo", "--only", "creation"])
"""
    out = _python(code, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "cpu [0, 2, 4, 6, 8] 1 " + ("True" if da.place.device_count() else "False")
    assert lines[1] == "False"
    assert lines[2] == ("DeviceError True" if da.place.device_count() else "ValueError True")
    assert "demo on cpu" in lines[3] and "no usable OpenCL device" in lines[4]
    assert lines[-1].startswith("demo:") and "0 FAIL" in lines[-1]


def test_verdict_cached_on_disk(cl_place, tmp_path, monkeypatch):
    """The second process reads the verdict from disk and builds nothing (its build would fail)."""
    code = """
import darray as da
from darray.place import _probe
{patch}
v = da.place.probe({i})
print(v.ok, v.cached)
"""
    first = _python(code.format(patch="", i=cl_place.index), tmp_path)
    assert first.stdout.split() == ["True", "False"], first.stderr
    files = list((tmp_path / "cache" / "probes").glob("*.json"))
    assert files and all(json.loads(f.read_text())["ok"] in (True, False) for f in files)
    patch = "_probe._run = lambda device: 1 / 0"
    second = _python(code.format(patch=patch, i=cl_place.index), tmp_path)
    assert second.stdout.split() == ["True", "True"], second.stderr
    # --reprobe (fresh=True) runs the probe again and replaces the cached verdict
    patch = (f"_probe._run = lambda device: _probe.Verdict(False, {REASON!r})\n"
             f"da.place.probe({cl_place.index}, fresh=True)")
    third = _python(code.format(patch=patch, i=cl_place.index), tmp_path)
    assert third.stdout.split() == ["False", "False"], third.stderr
    out = _python("from darray.__main__ import main\nmain(['info', '--reprobe'])", tmp_path)
    assert f"cl:{cl_place.index}" in out.stdout and "passed" in out.stdout and REASON not in out.stdout, out.stderr


def test_verdict_file_parsed_defensively(cl_place, tmp_path, monkeypatch):
    """A verdict file is 0600 JSON holding its key; anything else in its place (not JSON, nested
    past the parser's depth, wrong types, another device's verdict) is ignored and the probe
    runs again."""
    info, device = _discovery.found()[cl_place.index]
    runs = []
    monkeypatch.setattr(_probe, "_run", lambda dev: runs.append(dev) or _probe.Verdict(True))
    monkeypatch.setattr(_probe, "_verdicts", {})
    monkeypatch.setenv("DARRAY_CACHE_DIR", str(tmp_path))
    assert _probe.verdict(info, device) == _probe.Verdict(True) and len(runs) == 1
    (path,) = (tmp_path / "probes").glob("*.json")
    assert path.stat().st_mode & 0o777 == 0o600 and (tmp_path / "probes").stat().st_mode & 0o777 == 0o700
    good = path.read_bytes()
    key = json.loads(good)["key"]
    for bad in (b"not json", b"\xff\xfe", b"[" * 3000, b"[]", json.dumps({"key": key, "ok": "yes", "reason": ""}),
                json.dumps({"key": key, "ok": True, "reason": 5}),
                json.dumps({"key": "0" * 32, "ok": False, "reason": ""})):
        path.write_bytes(bad.encode() if isinstance(bad, str) else bad)
        _probe._verdicts.clear()
        assert _probe.verdict(info, device) == _probe.Verdict(True), bad
    path.write_bytes(good)
    _probe._verdicts.clear()
    assert _probe.verdict(info, device) == _probe.Verdict(True, cached=True)
    assert len(runs) == 8


def test_changed_driver_reprobes(cl_place, monkeypatch):
    """The verdict is keyed by the driver string (and device, platform, darray version): a new
    driver runs the probe again."""
    info, device = _discovery.found()[cl_place.index]
    runs = []
    monkeypatch.setattr(_probe, "_run", lambda dev: runs.append(dev) or _probe.Verdict(True))
    monkeypatch.setattr(_probe, "_verdicts", {})
    monkeypatch.setenv("DARRAY_CACHE_DIR", "")
    assert _probe.verdict(info, device).ok and len(runs) == 1
    assert _probe.verdict(info, device).ok and len(runs) == 1  # kept in memory
    newer = dataclasses.replace(info, driver=info.driver + ".1")
    assert _probe.verdict(newer, device).ok and len(runs) == 2


@pytest.mark.parametrize("source,reason", [
    ("__kernel void probe(__global float *x) { x[0] = undefined_name; }", "error"),
    ("__kernel void other(__global float *x) {}", "INVALID_KERNEL_NAME"),
])
def test_broken_probe_source_fails_with_reason(cl_place, monkeypatch, source, reason):
    """A probe that does not build (the build log's error line) or does not run (the OpenCL
    status) gives a failed verdict, never an exception."""
    info, device = _discovery.found()[cl_place.index]
    monkeypatch.setattr(_probe, "SOURCE", source)
    found = _probe._run(device)
    assert not found.ok and reason.lower() in found.reason.lower(), found.reason


def test_wrong_results_fail(cl_place, monkeypatch):
    info, device = _discovery.found()[cl_place.index]
    monkeypatch.setattr(_probe, "SOURCE", _probe.SOURCE.replace("* 0.5f", "* 0.25f"))
    assert _probe._run(device) == _probe.Verdict(False, "the probe kernel computed wrong float32 results")


def test_info_lists_verdicts(cl_place, tmp_path):
    code = FAIL_PLATFORM.format(platform=_default_platform(cl_place), reason=REASON) + """
from darray.__main__ import main
main(["info"])
"""
    out = _python(code, tmp_path)
    assert out.returncode == 0, out.stderr
    assert f"FAILED: {REASON}" in out.stdout
    if _passing_others(_default_platform(cl_place)):
        assert "passed" in out.stdout


def test_require_opencl_stops_the_run(tmp_path):
    """Under DARRAY_REQUIRE_OPENCL=1, no passing device ends pytest at the start with the reasons."""
    (tmp_path / "conftest.py").write_text(
        "from darray.place import _probe\n"
        "_probe._run = lambda device: _probe.Verdict(False, 'error: nothing builds here')\n"
        f"exec(open({os.path.join(os.path.dirname(__file__), 'conftest.py')!r}).read())\n")
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                         env={**os.environ, "DARRAY_REQUIRE_OPENCL": "1", "DARRAY_CACHE_DIR": str(tmp_path / "c")},
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "no OpenCL device passed darray's probe" in text and "1 passed" not in text
    if da.place.device_count():
        assert "nothing builds here" in text


def _apart() -> list:
    """The devices probed out of process here (a better-ranked device of another platform passed)."""
    return [(info, dev) for info, dev in _discovery.found() if _probe._before(info)]


CRASH = """
import sys
from darray.place import _probe
_probe.CHILD = [sys.executable, "-c", "import os; os.abort()"]
"""


def test_crash_in_the_probe_process_leaves_the_device_out(cl_place, tmp_path):
    """A device whose out-of-process probe dies (simulated: the probe's process aborts) is left out
    with one warning naming it and why; the default place still works; asking for it by name raises
    DeviceError with the reason; ``info`` shows the verdict."""
    apart = _apart()
    if not apart:
        pytest.skip("no device here is probed out of process (one platform, or one passing device)")
    index = apart[0][0].index
    code = CRASH + f"""
import warnings, darray as da
from darray.errors import DeviceError
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("default", da.place.default(), float(da.ones(5).sum()))
    v = da.place.probe({index})
    da.place.probe({index})
print("verdict", v.ok, v.reason)
print("warnings", len(caught), "|".join(str(w.message) for w in caught))
try:
    da.zeros(3, device="cl:{index}")
except DeviceError as err:
    print("refused", err.status, "crashes when another OpenCL runtime" in str(err))
from darray.__main__ import main
main(["info"])
"""
    out = _python(code, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    got: dict = {}
    for line in lines:
        got.setdefault(*line.split(" ", 1)) if " " in line else None
    assert got["default"] == f"{cl_place} 5.0"
    assert got["verdict"].startswith("False crashes when another OpenCL runtime (") and "SIGABRT" in got["verdict"]
    assert got["warnings"].startswith("1 ") and f"leaving out cl:{index}" in got["warnings"]
    assert "crashes when another OpenCL runtime" in got["warnings"]
    assert got["refused"] == "PROBE_FAILED True"
    assert any("FAILED: crashes when another OpenCL runtime" in line for line in lines)
    # the crash verdict is kept on disk: a second process leaves the device out without a probe process
    again = _python(CRASH.replace("os.abort()", "print(1 / 0)") + f"""
import darray as da
v = da.place.probe({index})
print(v.ok, v.cached, "SIGABRT" in v.reason)
""", tmp_path)
    assert again.stdout.split() == ["False", "True", "True"], again.stderr


def test_failure_in_the_probe_process_is_the_verdict(cl_place, tmp_path, monkeypatch):
    """The probe's process reports each step; a failed step of the probed device is its verdict,
    one that exits early without a signal is a crash with its exit status; a time-out fails this
    process only (not written to disk)."""
    apart = _apart()
    if not apart:
        pytest.skip("no device here is probed out of process (one platform, or one passing device)")
    info, dev = apart[0]
    first = _probe._before(info)
    monkeypatch.setenv("DARRAY_CACHE_DIR", str(tmp_path))
    steps = len(first) * 2 + 1
    marks = [f'{_probe._probe_child.MARK}{{"step": {k}, "ok": {k != len(first)}, "reason": "error: bad"}}'
             for k in range(steps)]
    script = "print(" + repr("\n".join(marks)).replace("True", "true").replace("False", "false") + ")"
    monkeypatch.setattr(_probe, "CHILD", [sys.executable, "-c", script])
    got = _probe._run_apart(info, dev, first)
    assert not got.ok and got.reason.endswith("in the same process: error: bad"), got.reason
    monkeypatch.setattr(_probe, "CHILD", [sys.executable, "-c", "import sys; sys.exit(3)"])
    got = _probe._run_apart(info, dev, first)
    assert not got.ok and "exit status 3" in got.reason and "crashes when another OpenCL runtime" in got.reason
    monkeypatch.setattr(_probe, "CHILD", [sys.executable, "-c", "import time; time.sleep(30)"])
    monkeypatch.setattr(_probe, "TIMEOUT", 0.5)
    monkeypatch.setattr(_probe, "_verdicts", {})
    monkeypatch.setattr(_probe, "_warned", set())
    with pytest.warns(RuntimeWarning, match=f"leaving out cl:{info.index}"):
        got = _probe.verdict(info, dev)
    assert not got.ok and "ran out of time" in got.reason
    assert not list((tmp_path / "probes").glob("*.json")) or all(
        json.loads(p.read_text())["ok"] for p in (tmp_path / "probes").glob("*.json"))


def test_probe_process_runs_for_real(cl_place, tmp_path, monkeypatch):
    """The real probe process (every platform loaded, darray's programs built on the better devices,
    then on this one): a verdict, never an exception; where it passes, the device runs darray's
    random kernels in this process after the default device did."""
    apart = _apart()
    if not apart:
        pytest.skip("no device here is probed out of process (one platform, or one passing device)")
    info, dev = apart[0]
    got = _probe._run_apart(info, dev, _probe._before(info))
    assert got.ok or "same process" in got.reason, got.reason
    if got.ok and da.place.probe(info.index).ok:
        float(da.ones(100, device=cl_place).sum())
        x = da.random.default_rng(0).integers(0, 10, 50, device=da.CLPlace(info.index))
        np_x = da.random.default_rng(0).integers(0, 10, 50, device="cpu")
        assert x.get().tolist() == np_x.get().tolist()
