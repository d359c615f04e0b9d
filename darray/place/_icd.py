"""Make the OpenCL ICD loader see the CPU runtime darray ships with (Intel's, from pip).

The ``cpu`` extra installs Intel's CPU OpenCL runtime (``intel-opencl-rt``) into the Python
prefix, but its ``.icd`` file carries a placeholder path and the loader does not look in the
prefix. Before pyopencl first lists platforms, :func:`register` writes a vendors folder of
darray's own (in the user cache dir) that holds the loader's usual vendors (the folder or
library ``OCL_ICD_VENDORS`` named, else ``OPENCL_VENDOR_PATH``, else ``/etc/OpenCL/vendors``)
plus Intel's runtime, and points ``OCL_ICD_VENDORS`` at it. The PoCL that pyopencl bundles is
found through ``PYOPENCL_HOME`` and stays visible. Nothing happens when the runtime is not
installed or ``DARRAY_REGISTER_ICD=0``; doing it again gives the same folder.

The folder is private (``_private``) and holds only what darray wrote: one ``.icd`` file per
library and the list of them (:data:`LIST`), whose hash names the folder. Anything else found
there (a planted ``.icd`` whose library would run code when the loader opens it) is removed
before the loader is pointed at it, also when a parent process already pointed it there.
``DARRAY_CACHE_DIR`` does not move or disable it: without it the loader would not see Intel's
runtime.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from . import _private

LIBRARY = "libintelocl.so"     # Intel's CPU runtime, installed by intel-opencl-rt as <prefix>/lib/...
SYSTEM_VENDORS = "/etc/OpenCL/vendors"
LIST = "libraries"             # the libraries of a vendors folder, one a line (the loader reads only *.icd)


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


def _vendors_root() -> Path:
    return _private.user_root() / "vendors"


def _digest(libraries: list[str]) -> str:
    return hashlib.sha256("\n".join(libraries).encode()).hexdigest()[:16]


def vendors_folder(libraries: list[str]) -> Path | None:
    """darray's vendors folder holding one ``.icd`` file per library, their :data:`LIST` and
    nothing else (named by content, so every process that registers the same libraries shares
    it); None when the folder is refused or cannot be written."""
    root = _private.user_root()
    folder = _private.folder(_vendors_root() / _digest(libraries), root,
                             "the ICD vendors folder (so Intel's CPU runtime is not registered)")
    if folder is None:
        return None
    files = {f"{i:02d}-{Path(lib).stem}.icd": f"{lib}\n".encode() for i, lib in enumerate(libraries)}
    files[LIST] = "".join(f"{lib}\n" for lib in libraries).encode()
    try:
        _private.keep_only(folder, files)
    except OSError:
        return None  # the loader's usual vendors only
    return folder


def _listed(folder: Path) -> list[str] | None:
    """The libraries of darray's vendors ``folder`` as its :data:`LIST` names them, when they
    hash to the folder's name; None for an altered or foreign folder."""
    raw = _private.read(folder / LIST)
    libs = raw.decode(errors="replace").splitlines() if raw is not None else None
    return libs if libs and _digest(libs) == folder.name else None


def register() -> Path | None:
    """Point the ICD loader at darray's vendors folder (the loader's usual vendors plus Intel's
    CPU runtime) and return it; None (environment untouched) when there is nothing to add.

    When ``OCL_ICD_VENDORS`` already names one of darray's folders (set by a parent process),
    that folder is cleaned of anything darray did not write and kept; one whose list was
    altered is dropped (the variable is removed) and the loader's defaults are used instead."""
    if os.environ.get("DARRAY_REGISTER_ICD") == "0":
        return None
    lib = runtime_library()
    if lib is None:
        return None
    source = os.environ.get("OCL_ICD_VENDORS", "")
    ours = Path(source) if source and Path(source).parent == _vendors_root() else None
    libs = _listed(ours) if ours is not None else None
    if libs is None:
        if ours is not None:
            del os.environ["OCL_ICD_VENDORS"]  # an altered folder of darray's: from the loader's defaults
        libs = current_vendors()
        if _has(libs, lib):
            return None
    if not _has(libs, lib):
        libs = [*libs, str(lib)]
    folder = vendors_folder(libs)
    if folder is not None:
        os.environ["OCL_ICD_VENDORS"] = str(folder)
    elif ours is not None:
        os.environ.pop("OCL_ICD_VENDORS", None)
    return folder


def _has(libs: list[str], lib: Path) -> bool:
    return _same(str(lib)) in {_same(x) for x in libs}


def _same(lib: str) -> str:
    try:
        return str(Path(lib).resolve())
    except OSError:
        return lib
