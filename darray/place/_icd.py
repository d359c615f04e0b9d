"""Make the OpenCL ICD loader see the CPU runtime darray ships with (Intel's, from pip).

The ``cpu`` extra installs Intel's CPU OpenCL runtime (``intel-opencl-rt``) into the Python
prefix, but its ``.icd`` file carries a placeholder path and the loader does not look in the
prefix. Before pyopencl first lists platforms, :func:`register` writes a vendors folder of
darray's own (in the user cache dir) that holds the loader's usual vendors (the folder or
library ``OCL_ICD_VENDORS`` named, else ``OPENCL_VENDOR_PATH``, else ``/etc/OpenCL/vendors``)
plus Intel's runtime, and points ``OCL_ICD_VENDORS`` at it. The PoCL that pyopencl bundles is
found through ``PYOPENCL_HOME`` and stays visible. Nothing happens when the runtime is not
installed or ``DARRAY_REGISTER_ICD=0``; doing it again gives the same folder.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import platformdirs

LIBRARY = "libintelocl.so"     # Intel's CPU runtime, installed by intel-opencl-rt as <prefix>/lib/...
SYSTEM_VENDORS = "/etc/OpenCL/vendors"


def runtime_library() -> Path | None:
    """Intel's CPU runtime library, where ``intel-opencl-rt`` puts it: ``../../`` from the
    site-packages folder that holds its dist-info (the prefix's, a venv's or the user's)."""
    for entry in sys.path:
        site = Path(entry or ".")
        if site.name not in ("site-packages", "dist-packages"):
            continue
        lib = site.parent.parent / LIBRARY
        if lib.is_file() and any(site.glob("intel_opencl_rt-*.dist-info")):
            return lib.resolve()
    return None


def current_vendors(env: dict[str, str] | os._Environ = os.environ) -> list[str]:
    """The libraries the ICD loader would load without darray, as the loader reads its variables:
    ``OCL_ICD_VENDORS`` (a folder of ``.icd`` files, or one library), else ``OPENCL_VENDOR_PATH``,
    else ``/etc/OpenCL/vendors``."""
    source = env.get("OCL_ICD_VENDORS") or env.get("OPENCL_VENDOR_PATH") or SYSTEM_VENDORS
    path = Path(source)
    if not path.is_dir():
        return [source] if env.get("OCL_ICD_VENDORS") else []
    libs = []
    for icd in sorted(path.glob("*.icd")):
        try:
            lib = icd.read_text().strip()
        except OSError:
            continue
        if lib:
            libs.append(lib)
    return libs


def vendors_folder(libraries: list[str]) -> Path:
    """darray's vendors folder holding one ``.icd`` file per library (named by content, so every
    process that registers the same libraries shares it)."""
    digest = hashlib.sha256("\n".join(libraries).encode()).hexdigest()[:16]
    folder = Path(platformdirs.user_cache_dir("darray")) / "vendors" / digest
    if not (folder / "complete").exists():
        folder.mkdir(parents=True, exist_ok=True)
        for i, lib in enumerate(libraries):
            _write(folder / f"{i:02d}-{Path(lib).stem}.icd", lib + "\n")
        _write(folder / "complete", "")
    return folder


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def register() -> Path | None:
    """Point the ICD loader at darray's vendors folder (the loader's usual vendors plus Intel's
    CPU runtime) and return it; None (environment untouched) when there is nothing to add."""
    if os.environ.get("DARRAY_REGISTER_ICD") == "0":
        return None
    lib = runtime_library()
    if lib is None:
        return None
    libs = current_vendors()
    known = {_same(x) for x in libs}
    if _same(str(lib)) in known:
        return None
    try:
        folder = vendors_folder([*libs, str(lib)])
    except OSError:
        return None  # no writable cache dir: the loader's usual vendors only
    os.environ["OCL_ICD_VENDORS"] = str(folder)
    return folder


def _same(lib: str) -> str:
    try:
        return str(Path(lib).resolve())
    except OSError:
        return lib
