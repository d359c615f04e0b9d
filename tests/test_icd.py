"""Registration of the CPU runtime darray ships with (darray.place._icd): after a plain
``import darray`` Intel's runtime is listed, whatever ``OCL_ICD_VENDORS`` held before, and the
vendors that variable named stay visible."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from darray.place import _icd, _private

LIST_PLATFORMS = """
import json, os, darray as da
print(json.dumps({"vendors": os.environ.get("OCL_ICD_VENDORS"),
                  "platforms": [d.platform for d in da.place.devices()]}))
"""


def _platforms(tmp_path: Path, **env: str | None) -> dict:
    """What a fresh ``import darray`` lists, run outside the checkout with ``env`` applied
    (a None value removes the variable)."""
    full = dict(os.environ)
    for key, value in env.items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    proc = subprocess.run([sys.executable, "-c", LIST_PLATFORMS], env=full, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _need_runtime() -> Path:
    lib = _icd.runtime_library()
    if lib is None:
        if os.environ.get("DARRAY_REQUIRE_OPENCL") == "1":
            pytest.fail("DARRAY_REQUIRE_OPENCL=1 but Intel's CPU runtime (the cpu extra) is not installed")
        pytest.skip("Intel's CPU runtime (the cpu extra) is not installed")
    return lib


def _pocl_library() -> Path | None:
    """The PoCL library pyopencl bundles (found through PYOPENCL_HOME, not the vendors folder)."""
    import pyopencl

    libs = sorted((Path(pyopencl.__file__).parent / ".libs").glob("libpocl*.so*"))
    return libs[0] if libs else None


def test_registered_with_vendors_unset(tmp_path):
    _need_runtime()
    got = _platforms(tmp_path, OCL_ICD_VENDORS=None, OPENCL_VENDOR_PATH=None)
    assert any("Intel" in p for p in got["platforms"]), got
    assert got["vendors"] and Path(got["vendors"]).is_dir(), got


def test_other_folder_stays_visible(tmp_path):
    """With OCL_ICD_VENDORS naming another folder, its vendors and Intel's runtime are both listed.
    The other folder names PoCL's library, which pyopencl also finds on its own: it shows twice."""
    _need_runtime()
    pocl = _pocl_library()
    baseline = _platforms(tmp_path, OCL_ICD_VENDORS=None)["platforms"]
    if pocl is None or not any("Portable" in p for p in baseline):
        pytest.skip("pyopencl's bundled PoCL is not here (pocl-binary-distribution, in the test extra)")
    other = tmp_path / "vendors"
    other.mkdir()
    (other / "pocl-again.icd").write_text(f"{pocl}\n")
    got = _platforms(tmp_path, OCL_ICD_VENDORS=str(other))
    assert any("Intel" in p for p in got["platforms"]), got
    assert got["platforms"].count("Portable Computing Language") == baseline.count("Portable Computing Language") + 1
    assert got["vendors"] != str(other)


def test_children_keep_the_same_folder(tmp_path):
    """A child process inherits OCL_ICD_VENDORS pointing at darray's folder; registering again
    there changes nothing (Intel's runtime is already in it)."""
    _need_runtime()
    first = _platforms(tmp_path, OCL_ICD_VENDORS=None)
    again = _platforms(tmp_path, OCL_ICD_VENDORS=first["vendors"])
    assert again == first


def test_vendors_folder_contents(tmp_path, monkeypatch):
    """The folder holds the loader's usual vendors (an OCL_ICD_VENDORS folder or library) plus
    Intel's, one ``.icd`` file each; the same list gives the same folder."""
    monkeypatch.setattr(_private, "user_root", lambda: tmp_path / "cache" / "darray")
    monkeypatch.setattr(_icd, "runtime_library", lambda: Path("/opt/intel/libintelocl.so"))
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.icd").write_text("/usr/lib/libB.so\n")
    (other / "a.icd").write_text("libA.so.1\n")
    (other / "empty.icd").write_text("\n")
    (other / "notes.txt").write_text("not an icd")
    monkeypatch.setenv("OCL_ICD_VENDORS", str(other))
    folder = _icd.register()
    assert folder is not None and os.environ["OCL_ICD_VENDORS"] == str(folder)
    libs = sorted(p.read_text().strip() for p in folder.glob("*.icd"))
    assert libs == ["/opt/intel/libintelocl.so", "/usr/lib/libB.so", "libA.so.1"]
    assert _icd.register() == folder and os.environ["OCL_ICD_VENDORS"] == str(folder)  # already there: kept

    monkeypatch.setenv("OCL_ICD_VENDORS", "/some/libvendor.so")  # a library, not a folder
    lib_folder = _icd.register()
    assert sorted(p.read_text().strip() for p in lib_folder.glob("*.icd")) == [
        "/opt/intel/libintelocl.so", "/some/libvendor.so"]

    monkeypatch.delenv("OCL_ICD_VENDORS")
    monkeypatch.setenv("OPENCL_VENDOR_PATH", str(other))  # the loader's own fallback variable
    assert _icd.register() == folder


def test_nothing_to_register(tmp_path, monkeypatch):
    monkeypatch.setattr(_private, "user_root", lambda: tmp_path / "cache" / "darray")
    monkeypatch.setenv("OCL_ICD_VENDORS", "/elsewhere")
    monkeypatch.setattr(_icd, "runtime_library", lambda: None)
    assert _icd.register() is None and os.environ["OCL_ICD_VENDORS"] == "/elsewhere"
    monkeypatch.setattr(_icd, "runtime_library", lambda: Path("/opt/intel/libintelocl.so"))
    monkeypatch.setenv("DARRAY_REGISTER_ICD", "0")
    assert _icd.register() is None and os.environ["OCL_ICD_VENDORS"] == "/elsewhere"
    assert not (tmp_path / "cache").exists()


def test_runtime_library_found_from_site_packages(tmp_path, monkeypatch):
    """The library is looked up where intel-opencl-rt installs it: ``../../`` from the
    site-packages folder holding its dist-info."""
    site = tmp_path / "lib" / "python3.x" / "site-packages"
    (site / "intel_opencl_rt-2026.2.0.dist-info").mkdir(parents=True)
    (tmp_path / "lib" / _icd.LIBRARY).write_text("")
    monkeypatch.setattr(sys, "path", ["", str(tmp_path / "elsewhere"), str(site)])
    assert _icd.runtime_library() == (tmp_path / "lib" / _icd.LIBRARY).resolve()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "lib" / "python3.x" / "dist-packages")])
    assert _icd.runtime_library() is None


PLANTED = """
import json, os, sys
import darray as da  # registers: the planted file must be gone before OpenCL starts
planted = os.path.exists(sys.argv[1])
print(json.dumps({"vendors": os.environ.get("OCL_ICD_VENDORS"), "planted": planted,
                  "platforms": [d.platform for d in da.place.devices()]}))
"""


def test_planted_icd_is_removed(tmp_path):
    """darray's vendors folder holds only what darray wrote: an ``.icd`` planted there (here
    naming PoCL's library, which would show as a second PoCL platform if loaded) is removed
    before OpenCL starts, whether this process registers or a parent already pointed
    OCL_ICD_VENDORS at the folder; an altered list drops the folder's inherited use."""
    _need_runtime()
    xdg = tmp_path / "xdg"
    base = {k: v for k, v in os.environ.items() if k not in ("OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH")}
    base["XDG_CACHE_HOME"] = str(xdg)

    def run(planted: Path, **env: str) -> dict:
        proc = subprocess.run([sys.executable, "-c", PLANTED, str(planted)], env={**base, **env}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    first = run(tmp_path / "nothing")
    folder = Path(first["vendors"])
    assert folder.parent == xdg / "darray" / "vendors" and folder.stat().st_mode & 0o777 == 0o700
    ours = {p.name: p.read_bytes() for p in folder.iterdir()}
    pocl = _pocl_library()
    for env in ({}, {"OCL_ICD_VENDORS": str(folder)}):
        (folder / "planted.icd").write_text(f"{pocl or '/nonexistent/libdarray-planted.so'}\n")
        (folder / "dir.icd").mkdir()
        again = run(folder / "planted.icd", **env)
        assert again == {**first, "planted": False}
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == ours

    (folder / _icd.LIST).write_text(f"{pocl or '/nonexistent/libdarray-planted.so'}\n")  # altered: hash differs
    (folder / "planted.icd").write_text(f"{pocl or '/nonexistent/libdarray-planted.so'}\n")
    assert run(folder / "planted.icd", OCL_ICD_VENDORS=str(folder)) == {**first, "planted": False}
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == ours
