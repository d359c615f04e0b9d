"""darray's files on disk (darray.place._private): private folders and files, refused foreign or
shared folders, sealed binaries; end to end through the program cache, the probe verdicts and
the ICD vendors folder in fresh interpreters."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from darray.place import _icd, _private

BUILD = """
    import os, warnings
    os.umask({umask})
    import numpy as np, pyopencl as cl, darray as da
    def build(add):
        rt = da.place.runtime(da.place.parse("cl"))
        kernel = rt.programs.kernel("__kernel void k(__global int *x) {{ x[get_global_id(0)] += %d; }}" % add, "k")
        x = np.zeros(4, np.int32)
        buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
        queue = cl.CommandQueue(rt.context, rt.device)
        kernel(queue, (4,), None, buf)
        cl.enqueue_copy(queue, x, buf)
        queue.finish()
        return x.tolist()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(build(3), build(4))
        {then}
    print(sum("darray:" in str(w.message) for w in caught), [str(w.message) for w in caught])
"""


def _run(tmp_path: Path, code: str, **env: str) -> list[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("OCL_ICD_VENDORS", "DARRAY_CACHE_DIR")}
    full.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), HOME=str(tmp_path / "home"), **env)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()


def _modes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.lstat().st_mode for p in [root, *root.rglob("*")]}


def test_modes_under_umask_000(cl_place, tmp_path):
    """Under ``umask 000`` every folder darray creates is 0700 (the missing parents of
    DARRAY_CACHE_DIR too) and every file 0600: programs, probe verdicts, the vendors folder."""
    nested = tmp_path / "a" / "b" / "cache"
    then = 'os.environ.pop("DARRAY_CACHE_DIR"); print(build(5))'  # now the user cache dir's programs folder
    out = _run(tmp_path, BUILD.format(umask=0, then=then), DARRAY_CACHE_DIR=str(nested))
    assert out[:2] == ["[3, 3, 3, 3] [4, 4, 4, 4]", "[5, 5, 5, 5]"] and out[2].startswith("0 ")
    for root in (tmp_path / "a", tmp_path / "xdg" / "darray"):
        modes = _modes(root)
        for name, mode in modes.items():
            assert stat.S_IMODE(mode) == (0o700 if stat.S_ISDIR(mode) else 0o600), (root, name, oct(mode))
    assert len(list(nested.glob("*.bin"))) == 2 and len(list((nested / "probes").glob("*.json"))) == 1
    assert len(list((tmp_path / "xdg" / "darray" / "programs").glob("*.bin"))) == 1
    if _icd.runtime_library() is not None:
        assert list((tmp_path / "xdg" / "darray" / "vendors").glob("*/*.icd"))


@pytest.mark.parametrize("mode", [0o777, 0o770])
def test_shared_cache_dir_is_refused(cl_place, tmp_path, mode):
    """A DARRAY_CACHE_DIR that group or others may write is refused with one warning: programs are
    built and run, probes run, nothing is written there and its mode stays as it was."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    out = _run(tmp_path, BUILD.format(umask=0o22, then="print(da.place.probe(0).ok in (True, False))"),
               DARRAY_CACHE_DIR=str(shared))
    assert out[:2] == ["[3, 3, 3, 3] [4, 4, 4, 4]", "True"]
    assert out[2].startswith("1 ") and "writable by group or others" in out[2] and str(shared) in out[2]
    assert list(shared.iterdir()) == [] and stat.S_IMODE(shared.stat().st_mode) == mode


@pytest.fixture
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(_private, "_warned", set())


def test_folder_refuses_foreign_and_shared(tmp_path, monkeypatch, fresh_warnings):
    root = tmp_path / "root"
    assert _private.folder(root / "x" / "y", root, "tests") == root / "x" / "y"
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o700 for p in (root, root / "x", root / "x" / "y"))
    (root / "x").chmod(0o730)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _private.folder(root / "x" / "y", root, "tests") is None
        assert _private.folder(root / "x", root, "tests") is None  # the same folder: no second warning
    assert len(caught) == 1 and "tests is not kept in" in str(caught[0].message)
    assert stat.S_IMODE((root / "x").stat().st_mode) == 0o730  # never chmod-ed
    (root / "x").chmod(0o700)
    (root / "file").write_text("")
    with pytest.warns(RuntimeWarning, match="not a folder"):
        assert _private.folder(root / "file", root, "tests") is None
    monkeypatch.setattr(_private.os, "getuid", lambda: os.stat(root).st_uid + 1)
    with pytest.warns(RuntimeWarning, match="owned by another user"):
        assert _private.folder(root / "x", root, "tests") is None


def test_folder_the_file_system_refuses(tmp_path, monkeypatch, fresh_warnings):
    """A folder that cannot be made (read-only file system, no permission): None, no warning."""
    def refuse(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(_private.os, "mkdir", refuse)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _private.folder(tmp_path / "c" / "d", tmp_path / "c", "tests") is None
    assert not (tmp_path / "c").exists()


def test_read_write(tmp_path):
    path = tmp_path / "f"
    _private.write(path, b"abc")
    assert path.read_bytes() == b"abc" and stat.S_IMODE(path.stat().st_mode) == 0o600
    _private.write(path, b"de")
    assert _private.read(path) == b"de" and [p.name for p in tmp_path.iterdir()] == ["f"]
    (tmp_path / "link").symlink_to(path)
    assert _private.read(tmp_path / "link") is None  # never through a link
    assert _private.read(tmp_path) is None and _private.read(tmp_path / "missing") is None


def test_seal():
    blob = _private.seal(b"binary", "key1")
    assert _private.unseal(blob, "key1") == b"binary"
    assert _private.unseal(blob, "key2") is None  # another program's file
    for bad in (blob[:-1], blob + b"x", blob[:len(_private.MAGIC) + 32], b"binary", b"", None,
                blob.replace(b"binary", b"binarY")):
        assert _private.unseal(bad, "key1") is None, bad


def test_keep_only(tmp_path):
    (tmp_path / "a.icd").write_text("old\n")
    (tmp_path / "planted.icd").write_text("/lib/evil.so\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x").write_text("")
    (tmp_path / "b.icd").symlink_to(tmp_path / "planted.icd")
    (tmp_path / ".b.icd.123.0badc0de.tmp").write_text("")  # another process's write() under way
    _private.keep_only(tmp_path, {"a.icd": b"new\n", "b.icd": b"lib\n"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".b.icd.123.0badc0de.tmp", "a.icd", "b.icd"]
    assert (tmp_path / "a.icd").read_bytes() == b"new\n" and not (tmp_path / "b.icd").is_symlink()
    assert (tmp_path / "b.icd").read_bytes() == b"lib\n"
