"""Places: parsing, equality, discovery, the current-place guard, default selection, program cache."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import darray as da
from darray.place import CLPlace, CPUPlace, _icd, _private


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with extra environment variables; fails the test on error."""
    full_env = {**os.environ, **env}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


# -- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize("text,want", [("cpu", CPUPlace()), ("CPU", CPUPlace()), (" cpu ", CPUPlace()),
                                       ("cl:0", CLPlace(0)), ("cl:3", CLPlace(3)), ("opencl:1", CLPlace(1)),
                                       (CLPlace(2), CLPlace(2)), (CPUPlace(), CPUPlace())])
def test_parse(text, want):
    assert da.place.parse(text) == want


def test_parse_cl_is_best_device(cl_place):
    assert isinstance(da.place.parse("cl"), CLPlace)
    assert da.place.parse("cl") == cl_place
    assert da.place.parse(None) == da.place.current()


@pytest.mark.parametrize("bad", ["", "gpu:0x", "gpu:0", "cl:", "cl:-1", "cl:a", "cuda:0", "cpu:0", "cl0", 0, 1.5,
                                 ["cl"]])
def test_parse_bad(bad):
    with pytest.raises(ValueError, match="cpu"):
        da.place.parse(bad)


@pytest.mark.parametrize("bad", [-1, True, 1.0, "0"])
def test_clplace_bad_index(bad):
    with pytest.raises(ValueError, match="index"):
        CLPlace(bad)


def test_equality_hash_repr():
    assert CLPlace(0) == CLPlace(0) and CLPlace(0) != CLPlace(1) and CLPlace(0) != CPUPlace()
    assert CPUPlace() == CPUPlace()
    assert len({CLPlace(0), CLPlace(0), CLPlace(1), CPUPlace(), CPUPlace()}) == 3
    assert {CLPlace(1): "a"}[da.place.parse("cl:1")] == "a"
    assert repr(CLPlace(3)) == "CLPlace(3)" and str(CLPlace(3)) == "cl:3"
    assert repr(CPUPlace()) == "CPUPlace()" and str(CPUPlace()) == "cpu"
    assert CLPlace().index == 0
    assert da.place.parse(str(CLPlace(2))) == CLPlace(2)
    with pytest.raises(AttributeError):
        CLPlace(0).index = 1  # frozen


def test_gpu_is_a_gpu_or_an_error():
    """``"gpu"`` (parse, ``device=``, ``use``) is the best GPU that passed the probe; without one,
    an error naming the devices found (ValueError, or DeviceError when a GPU failed the probe),
    never a CPU device. Asks the probe what this machine has; the next call works."""
    gpus = [d for d in da.place.devices() if d.type == "GPU" and da.place.probe(d.index).ok]
    if gpus:
        want = CLPlace(gpus[0].index)
        assert da.place.parse("gpu") == da.place.parse(" GPU ") == want
        assert da.asarray([1.0], device="gpu").place == want
        with da.place.use("gpu") as p:
            assert p == want and da.zeros(2).place == want
        return
    calls = (lambda: da.place.parse("gpu"), lambda: da.asarray([1.0], device="gpu"),
             lambda: da.place.use("gpu").__enter__(), lambda: da.zeros(2, device="gpu"))
    for call in calls:
        with pytest.raises((ValueError, da.DeviceError), match="'gpu' asks for a GPU") as err:
            call()
        for d in da.place.devices():
            assert f"cl:{d.index} ({d.name}" in str(err.value)
    assert da.place.current() == da.place.default()
    assert da.zeros(2, device="cpu").get().tolist() == [0.0, 0.0]


def _fake_devices(monkeypatch, gpu_ok: bool) -> list:
    """Discovery and probe replaced by a CPU device that passes and a GPU (cl:1) that passes or not."""
    from darray.place import _probe

    base = dict(platform="P", vendor="V", driver="1", global_mem_bytes=1 << 30, max_alloc_bytes=1 << 28,
                compute_units=4, max_work_group_size=256, max_parameter_bytes=1024, fp16=False, fp64=True,
                host_unified_memory=False, form="gpu", work_group=256)
    devs = [(da.place.DeviceInfo(index=0, name="cpu0", type="CPU", **base), None),
            (da.place.DeviceInfo(index=1, name="gpu1", type="GPU", **base), None)]
    monkeypatch.setattr(_probe, "found", lambda: devs)
    monkeypatch.setattr(_probe, "verdict", lambda info, dev, fresh=False: da.place.Verdict(
        info.type == "CPU" or gpu_ok, "" if info.type == "CPU" or gpu_ok else "simulated build failure"))
    return devs


def test_gpu_picks_the_gpu_that_passed(monkeypatch):
    _fake_devices(monkeypatch, gpu_ok=True)
    assert da.place.parse("gpu") == CLPlace(1)
    assert da.place.parse("cl") == CLPlace(1)  # GPUs first for "cl" too


def test_gpu_that_failed_its_probe_is_a_device_error(monkeypatch):
    _fake_devices(monkeypatch, gpu_ok=False)
    with pytest.raises(da.DeviceError, match="gpu1.*simulated build failure.*devices found: cl:0 \\(cpu0") as err:
        da.place.parse("gpu")
    assert err.value.status == "PROBE_FAILED"
    assert da.place.parse("cl") == CLPlace(0)
    assert da.place.parse("cpu") == CPUPlace()


# -- discovery ------------------------------------------------------------------------------

PROPERTY_KEYS = {"index", "platform", "name", "type", "vendor", "driver", "global_mem_bytes", "max_alloc_bytes",
                 "compute_units", "max_work_group_size", "fp16", "fp64", "host_unified_memory", "form"}


def test_discovery(cl_place):
    devs = da.place.devices()
    assert da.place.is_available() is True
    assert da.place.device_count() == len(devs) >= 1
    for i, info in enumerate(devs):
        assert info.index == i
        assert da.place.get_device_name(i) == info.name and info.name
        props = da.place.get_device_properties(i)
        assert PROPERTY_KEYS <= set(props)
        assert props["type"] in ("GPU", "CPU", "ACCELERATOR", "OTHER")
        assert props["global_mem_bytes"] >= props["max_alloc_bytes"] > 0 and props["compute_units"] >= 1
        assert isinstance(props["fp16"], bool) and isinstance(props["fp64"], bool)
        assert props["form"] in ("chunked", "item", "gpu")
        json.dumps(props)
    assert da.place.get_device_name() == devs[0].name


@pytest.mark.parametrize("bad", [-1, 99, 1.0, True, "0"])
def test_discovery_bad_index(bad):
    with pytest.raises(IndexError, match="device"):
        da.place.get_device_name(bad)
    with pytest.raises(IndexError, match="device"):
        da.place.get_device_properties(bad)


def test_missing_device_index(cl_place):
    missing = CLPlace(da.place.device_count() + 5)
    with pytest.raises(ValueError, match="no OpenCL device"):
        da.zeros(3, device=missing)
    with pytest.raises(ValueError, match="no OpenCL device"):
        with da.place.use(missing):
            pass
    assert da.place.current() == da.place.default()
    assert da.zeros(3, device=cl_place).get().sum() == 0


# -- the guard ------------------------------------------------------------------------------


def test_use_nested_and_restored(cl_place):
    outer = da.place.current()
    with da.place.use("cpu") as p:
        assert p == CPUPlace() and da.place.current() == CPUPlace()
        with da.place.use(cl_place):
            assert da.place.current() == cl_place
            assert da.zeros(2).place == cl_place
            with da.place.use("cpu"):
                assert da.ones(2).place == CPUPlace()
            assert da.place.current() == cl_place
        assert da.place.current() == CPUPlace()
        assert da.zeros(2).place == CPUPlace()
    assert da.place.current() == outer


def test_use_restored_on_exception(cl_place):
    outer = da.place.current()
    with pytest.raises(KeyError):
        with da.place.use("cpu"):
            with da.place.use(cl_place):
                raise KeyError("boom")
    assert da.place.current() == outer
    with pytest.raises(ValueError):
        with da.place.use("nowhere"):
            pass
    assert da.place.current() == outer


def test_use_is_per_thread(cl_place):
    seen: dict[str, object] = {}
    entered, release = threading.Event(), threading.Event()

    def other() -> None:
        entered.wait(10)
        seen["other"] = da.place.current()
        seen["array"] = da.zeros(1).place
        with da.place.use(cl_place):
            seen["inner"] = da.place.current()
            release.set()

    t = threading.Thread(target=other)
    t.start()
    with da.place.use("cpu"):
        entered.set()
        release.wait(10)
        assert da.place.current() == CPUPlace()
    t.join(10)
    assert seen["other"] == da.place.default() == seen["array"]
    assert seen["inner"] == cl_place


# -- default selection ----------------------------------------------------------------------


@pytest.mark.parametrize("env", ["cpu", "cl:N", "cl"])
def test_default_from_env(cl_place, env):
    env = env.replace("N", str(cl_place.index))  # a device that passed its probe here
    out = run_python("""
        import darray as da
        print(da.place.default(), da.place.current(), da.zeros(2).place)
    """, DARRAY_DEVICE=env).stdout.split()
    assert out == ["cpu" if env == "cpu" else str(cl_place)] * 3


def test_default_without_env_is_best_device(cl_place):
    env = {k: v for k, v in os.environ.items() if k != "DARRAY_DEVICE"}
    proc = subprocess.run([sys.executable, "-c", "import darray as da; print(da.place.default())"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(cl_place)


def test_default_without_devices_is_cpu_with_one_warning():
    out = run_python("""
        import warnings
        import pyopencl as cl
        cl.get_platforms = lambda: []  # no OpenCL platform at all
        import darray as da
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a, b = da.zeros(2), da.ones(2)
            print(da.place.default(), a.place, b.place, da.place.is_available(), da.place.device_count())
        print(len(caught), caught[0].category.__name__, "OpenCL" in str(caught[0].message))
        try:
            da.place.parse("cl")
        except ValueError as err:
            print("none was found" in str(err))
    """, DARRAY_DEVICE="").stdout.split()
    assert out == ["cpu", "cpu", "cpu", "False", "0", "1", "RuntimeWarning", "True", "True"]


def test_default_bad_env():
    proc = subprocess.run([sys.executable, "-c", "import darray as da; da.zeros(2)"],
                          env={**os.environ, "DARRAY_DEVICE": "tpu:0"}, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "ValueError" in proc.stderr and "tpu:0" in proc.stderr


def test_opencl_is_lazy():
    out = run_python("""
        import darray as da
        from darray.place import _discovery, _runtime
        x = da.zeros(3, device="cpu")
        da.place.parse("cl:0")
        print(_discovery._found is None, len(_runtime.runtimes()))
    """).stdout.split()
    assert out == ["True", "0"]


# -- program cache --------------------------------------------------------------------------


def test_program_cache_on_disk(cl_place, tmp_path):
    code = """
        import darray as da
        src = "__kernel void k(__global int *x) { x[get_global_id(0)] += 41; }"
        with da.profile() as p:
            da.place.runtime(da.place.parse("cl")).programs.kernel(src, "k")
            x = da.full((1 << 16,), 2, dtype=da.int32, device="cl")  # large: a kernel (small: NumPy's fill)
            da.place.finish_builds()  # (its first call ran on the host engine while the kernel built)
        print(x[:5].get().tolist(), [c.from_disk for c in p.compiles])
    """
    first = run_python(code, DARRAY_CACHE_DIR=str(tmp_path)).stdout.strip()
    assert first.startswith("[2, 2, 2, 2, 2]") and "False" in first and "True" not in first, first
    assert len(list(tmp_path.glob("*.bin"))) >= 2
    second = run_python(code, DARRAY_CACHE_DIR=str(tmp_path)).stdout.strip()
    assert second.startswith("[2, 2, 2, 2, 2]") and "True" in second and "False" not in second, second


def test_program_cache_in_memory(cl_place):
    programs = da.place.runtime(cl_place).programs
    src = "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }"
    k1 = programs.kernel(src, "twice")
    with da.profile() as p:
        k2 = programs.kernel(src, "twice")
    assert k1 is k2 and p.compiles == []
    k3 = programs.kernel(src, "twice", "-DUNUSED=1")
    assert k3 is not k1


def test_program_cache_builds_ahead(cl_place):
    """``ready`` queues a build on the build thread and answers at once; ``program`` waits for it (a
    "build" wait in the profile); ``finish_builds`` waits for everything queued."""
    programs = da.place.runtime(cl_place).programs
    sources = [f"__kernel void k(__global float *x) {{ x[get_global_id(0)] += {k}.5f + {id(programs)}.0f; }}"
               for k in range(3)]
    assert [programs.ready(s) for s in sources] == [False] * 3
    with da.profile() as p:
        k0 = programs.kernel(sources[0], "k")  # built by the build thread, or by this call if not started yet
    assert [s.what for s in p.syncs] in (["build"], [])  # ([]: the thread was done first)
    with da.profile() as p:
        programs.kernel(sources[0].replace("k(", "k2(").replace("+= ", "-= "), "k2")  # never queued: built here
    assert [s.what for s in p.syncs] == ["build"]
    assert da.place.finish_builds(60)
    assert all(programs.ready(s) for s in sources)
    with da.profile() as p:
        assert programs.kernel(sources[0], "k") is k0 and programs.kernel(sources[2], "k") is not None
    assert p.syncs == [] and p.compiles == []


def test_program_cache_builds_on_two_threads_at_once(cl_place):
    """The build thread and a caller building at the same time both succeed (they take turns)."""
    programs = da.place.runtime(cl_place).programs
    src = "__kernel void k(__global double *x) {{ x[get_global_id(0)] = tanh(x[0]) * {}.0 + {}.0; }}"
    queued = [src.format(k, id(programs)) for k in range(6)]
    direct = [src.format(k + 100, id(programs)) for k in range(6)]
    for q in queued:
        programs.ready(q)
    assert all(programs.kernel(d, "k") is not None for d in direct)
    assert da.place.finish_builds(120) and all(programs.ready(q) for q in queued)


def test_program_cache_queued_build_failure_is_raised_by_its_caller(cl_place):
    """A build that fails on the build thread is raised by the call that needs it, and is tried again
    by the next one (nothing of the failure is kept)."""
    programs = da.place.runtime(cl_place).programs
    bad = f"__kernel void k(__global float *x) {{ x[0] = undefined_{id(programs)}; }}"
    assert not programs.ready(bad)
    da.place.finish_builds(60)
    for _ in range(2):
        with pytest.raises(da.DeviceError, match="build failed"):
            programs.program(bad)
    assert bad not in [k for k, _ in programs._building]


def test_program_cache_key_has_compiler_settings(cl_place, monkeypatch):
    """Intel's CPU compiler reads CL_CONFIG_* variables (target ISA, vectoriser options): a binary
    built under other settings is not loaded from disk."""
    programs = da.place.runtime(cl_place).programs
    src = "__kernel void k(__global float *x) { x[0] = 1; }"
    before = programs._key(src, "")
    monkeypatch.setenv("CL_CONFIG_CPU_TARGET_ARCH", "corei7")
    assert programs._key(src, "") != before
    monkeypatch.delenv("CL_CONFIG_CPU_TARGET_ARCH")
    assert programs._key(src, "") == before


def test_program_cache_disabled(cl_place, tmp_path):
    """``DARRAY_CACHE_DIR=""`` keeps no program and no probe verdict on disk: the user's cache
    stays empty. Only a process that registers Intel's runtime itself (not a child of one that
    did) writes the ICD vendors folder there, privately: the loader needs it."""
    code = """
        import darray as da
        with da.profile() as p:
            da.place.runtime(da.place.parse("cl")).programs.kernel("__kernel void k(__global int *x) {}", "k")
        print([c.from_disk for c in p.compiles], da.place.probe(da.place.parse("cl").index).cached)
    """
    xdg = tmp_path / "xdg"
    env = {"DARRAY_CACHE_DIR": "", "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(xdg)}
    assert run_python(code, **env).stdout.strip() == "[False] False"
    assert run_python(code, **env).stdout.strip() == "[False] False"
    assert not (xdg / "darray").exists() and not (tmp_path / "home").exists()

    full = {k: v for k, v in {**os.environ, **env}.items() if k != "OCL_ICD_VENDORS"}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "[False] False", proc.stderr
    kept = {p.relative_to(xdg / "darray") for p in (xdg / "darray").rglob("*")}
    if _icd.runtime_library() is None:
        assert not kept
    else:
        assert {p.parts[0] for p in kept} == {"vendors"}
        for p in kept:
            assert (xdg / "darray" / p).stat().st_mode & 0o777 == (0o700 if len(p.parts) < 3 else 0o600)


PROGRAMS = """
    import json
    import numpy as np, pyopencl as cl, darray as da
    rt = da.place.runtime(da.place.parse("cl"))
    keys, values = {}, {}
    with da.profile() as p:
        for name, add in zip("abcd", (41, 5, 7, 9)):
            src = "__kernel void k(__global int *x) { x[get_global_id(0)] += %d; }" % add
            kernel = rt.programs.kernel(src, "k")
            x = np.full(3, 2, np.int32)
            buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
            queue = cl.CommandQueue(rt.context, rt.device)
            kernel(queue, (3,), None, buf)
            cl.enqueue_copy(queue, x, buf)
            queue.finish()
            keys[name], values[name] = rt.programs._key(src, ""), x.tolist()
    disk = {c.key: c.from_disk for c in p.compiles}
    print(json.dumps({n: [values[n], disk[k]] for n, k in keys.items()}))
    print(json.dumps(keys))
"""


def test_swapped_or_damaged_binary_is_rebuilt(cl_place, tmp_path):
    """A cached binary carries the hash of its content and key: one swapped for another
    program's file or raw binary, or truncated, is built again (right results) and rewritten,
    never loaded."""
    def run() -> tuple[dict, dict]:
        lines = run_python(PROGRAMS, DARRAY_CACHE_DIR=str(tmp_path)).stdout.splitlines()
        return json.loads(lines[-2]), json.loads(lines[-1])

    want = {"a": [43] * 3, "b": [7] * 3, "c": [9] * 3, "d": [11] * 3}
    built, keys = run()
    assert built == {n: [v, False] for n, v in want.items()}
    files = {n: tmp_path / f"{k}.bin" for n, k in keys.items()}
    sealed = {n: f.read_bytes() for n, f in files.items()}
    files["a"].write_bytes(sealed["b"])                                 # another program's file
    files["c"].write_bytes(sealed["b"][len(_private.MAGIC) + 32:])      # another program's raw binary
    files["d"].write_bytes(sealed["d"][:len(sealed["d"]) // 2])        # truncated
    assert run()[0] == {n: [v, n == "b"] for n, v in want.items()}
    for n, f in files.items():
        assert _private.unseal(f.read_bytes(), keys[n]) and f.stat().st_mode & 0o777 == 0o600  # rewritten
    assert run()[0] == {n: [v, True] for n, v in want.items()}


def test_corrupt_cache_file_is_rebuilt(cl_place, tmp_path):
    code = """
        import darray as da
        with da.profile() as p:
            x = da.full((3,), 7, dtype=da.int16, device="cl")
        print(x.get().tolist(), [c.from_disk for c in p.compiles])
    """
    run_python(code, DARRAY_CACHE_DIR=str(tmp_path))
    for f in tmp_path.glob("*.bin"):
        f.write_bytes(b"not a binary")
    out = run_python(code, DARRAY_CACHE_DIR=str(tmp_path)).stdout.strip()
    assert out.startswith("[7, 7, 7]"), out
    np.testing.assert_array_equal(da.full((3,), 7, dtype=da.int16, device=cl_place).get(), [7, 7, 7])
