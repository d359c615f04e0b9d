"""darray's files on disk: private and verified.

The program cache, the probe verdicts (``_programs``, ``_probe``) and the ICD vendors folder
(``_icd``) live in folders created 0700, in files created 0600, whatever the umask. A folder
that another user owns or that group or others may write is refused with one warning (nothing
is kept on disk there; existing folders are never chmod-ed). A file is read only when it is a
regular file of the user's (not a link). :func:`seal` puts a hash of a binary and of what it is
for in front of it, so a swapped, truncated or corrupt file is never loaded.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import warnings
from pathlib import Path

import platformdirs

MAGIC = b"darray sealed 1\n"
_TMP = re.compile(r"\..+\.\d+\.[0-9a-f]{8}\.tmp")  # write()'s temporary files
_warned: set[str] = set()


def user_root() -> Path:
    """darray's folder in the user cache dir (``~/.cache/darray`` on Linux)."""
    return Path(platformdirs.user_cache_dir("darray"))


def folder(path: Path, root: Path, purpose: str) -> Path | None:
    """``path`` (``root`` or a folder under it) ready for private files, else None.

    Missing folders, ``root``'s missing parents included, are created 0700. ``root`` and each
    folder from it down to ``path`` must be the user's own and writable by no one else, else
    None with one warning per folder naming ``purpose``. None without a warning where the file
    system refuses (read-only, no permission)."""
    chain = [root]
    for part in path.relative_to(root).parts:
        chain.append(chain[-1] / part)
    try:
        for p in chain:
            why = "" if _make(p) else _untrusted(p)
            if why:
                if str(p) not in _warned:
                    _warned.add(str(p))
                    warnings.warn(f"darray: {purpose} is not kept in {p}: that folder is {why} (darray writes only "
                                  "to folders of yours that no one else may write)", RuntimeWarning, stacklevel=2)
                return None
    except OSError:
        return None
    return path


def _make(p: Path) -> bool:
    """Create ``p`` and its missing parents 0700; whether ``p`` was created here."""
    if os.path.lexists(p):
        return False
    _make(p.parent)
    try:
        os.mkdir(p, 0o700)
    except FileExistsError:
        return False
    os.chmod(p, 0o700)
    return True


def _untrusted(p: Path) -> str:
    """Why ``p`` may not hold darray's files ("" when it may)."""
    st = os.stat(p)
    if not stat.S_ISDIR(st.st_mode):
        return "not a folder"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"owned by another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"writable by group or others (mode {st.st_mode & 0o777:o})"
    return ""


def read(path: Path) -> bytes | None:
    """The content of ``path`` when it is a regular file of the user's (not a link), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, a 0600 file, atomically (a new temporary file, then ``os.replace``)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def keep_only(where: Path, files: dict[str, bytes]) -> None:
    """Make the folder ``where`` hold exactly ``files`` (name -> content): any other entry is
    removed and a file whose content differs is written again. The temporary files of a
    :func:`write` under way in another process stay (their names end in ``.tmp``)."""
    for entry in os.scandir(where):
        if (entry.name in files and entry.is_file(follow_symlinks=False)) or _TMP.fullmatch(entry.name):
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
    for name, data in files.items():
        if read(where / name) != data:
            write(where / name, data)


def _digest(data: bytes, label: str) -> bytes:
    return hashlib.sha256(label.encode() + b"\0" + data).digest()


def seal(data: bytes, label: str) -> bytes:
    """``data`` behind :data:`MAGIC` and the sha256 of ``label`` and ``data`` (undone by :func:`unseal`)."""
    return MAGIC + _digest(data, label) + data


def unseal(blob: bytes | None, label: str) -> bytes | None:
    """The data :func:`seal` wrapped for ``label``; None for anything else (another label's file,
    a truncated, altered or foreign one)."""
    head = len(MAGIC) + 32
    if blob is None or len(blob) <= head or not blob.startswith(MAGIC):
        return None
    data = blob[head:]
    return data if blob[len(MAGIC):head] == _digest(data, label) else None
