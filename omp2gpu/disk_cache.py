"""omp2gpu's disk cache: compiled runtimes, machine code and PTX, kept between runs."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import llvmlite

from omp2gpu import __version__, config


def cache_dir() -> Path:
    """The cache directory, when it is safe to use: $OMP2GPU_CACHE_DIR, else
    $XDG_CACHE_HOME/omp2gpu, else ~/.cache/omp2gpu, created 0700. One owned by another
    user or writable by others is not used (another user could plant code that this
    run would execute): a private temporary directory, removed at exit, stands in for
    it, after one warning that names it."""
    chosen = config.settings()
    if chosen.cache_dir:
        wanted = Path(chosen.cache_dir)
    else:
        base = chosen.xdg_cache_home or os.path.join(os.path.expanduser("~"), ".cache")
        wanted = Path(base) / "omp2gpu"
    return _checked_cache_dir(wanted, current_uid())


def current_uid() -> int:
    """Who must own the cache (a hook the tests replace to pretend another owner)."""
    return os.geteuid()


@lru_cache(maxsize=None)
def _checked_cache_dir(wanted: Path, uid: int) -> Path:
    problem = _unsafe_because(wanted, uid)
    if problem is None:
        return wanted
    print(f"omp2gpu: warning: the cache directory {wanted} {problem}; it is not used "
          "(a temporary directory stands in for it this run)", file=sys.stderr, flush=True)
    return _private_directory()


def _unsafe_because(directory: Path, uid: int) -> str | None:
    """Why `directory` must not hold cached code, or None when it may (created 0700 now
    when missing; a directory that cannot be created is no problem: writes just fail)."""
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        directory.mkdir(mode=0o700)
        os.chmod(directory, 0o700)      # a umask of 0777 would leave it unusable
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        status = directory.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode):
        return "is not a directory"
    if status.st_uid != uid:
        return f"is owned by another user (uid {status.st_uid})"
    if status.st_mode & 0o022:
        return (f"is writable by other users (mode {stat.S_IMODE(status.st_mode):04o}; "
                f"`chmod 700 {directory}` makes it usable)")
    return None


@lru_cache(maxsize=None)
def _private_directory() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="omp2gpu-cache-"))       # 0700, this user's
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


# --- the runtimes' LLVM IR: text files whose first line is their checksum -----------
#
# A cached .ll starts with `; sha256 <hex of the rest>`; a file whose checksum does not
# match (truncated, corrupted, replaced) or that another user owns is remade, never
# used. The line is an LLVM comment: the file stays valid IR for anyone reading it.

_CHECKSUM_PREFIX = "; sha256 "


def cached_text(cached: Path, make) -> str:
    """cached's text when intact, else make()'s, written to cached for next time; an
    unwritable cache only costs the remaking."""
    text = _verified_text(cached)
    if text is not None:
        return text
    text = make()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    write_atomically(cached, f"{_CHECKSUM_PREFIX}{digest}\n{text}".encode("utf-8"))
    return text


def own_bytes(path: Path) -> bytes | None:
    """The file's bytes when the current user owns it (a file that another user slipped
    into the cache is never used), else None."""
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_uid != current_uid():
                return None
            return handle.read()
    except OSError:
        return None


def _verified_text(cached: Path) -> str | None:
    data = own_bytes(cached)
    if data is None:
        return None
    first, _, rest = data.partition(b"\n")
    expected = (_CHECKSUM_PREFIX + hashlib.sha256(rest).hexdigest()).encode()
    if first != expected:
        return None
    try:
        return rest.decode("utf-8")
    except UnicodeDecodeError:
        return None


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it to `path`, so that
    a concurrent reader sees the old file or the new one, never half of one. An
    unwritable cache is no error: it only costs the remaking next time."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def compiler_key(inputs: list[Path], salt: str = "") -> str:
    """A cache key that changes whenever `inputs` (runtime sources, headers) or the
    compiler itself (its Python modules, its version, llvmlite's) change."""
    digest = hashlib.sha256(f"{_compiler_digest()}|{salt}".encode())
    for path in inputs:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


@lru_cache(maxsize=None)
def _compiler_digest() -> str:
    """omp2gpu's version, llvmlite's, and every module of the package, read once per
    process (a few milliseconds that each key would otherwise spend again)."""
    digest = hashlib.sha256(f"{__version__}|{llvmlite.__version__}".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# --- code entries (the GPU's PTX), checked when read back ---------------------
#
# An entry records its objects' lengths and a SHA-256 of them, so that a truncated or
# corrupt file reads as a miss (and is written again); it is written to a temporary
# file and renamed, so a run beside another never reads half of one. The entries take
# at most CODE_CACHE_BYTES: a write removes the least recently used beyond that (a read
# refreshes an entry's time). OMP2GPU_CODE_CACHE=0 turns them off: nothing is read or
# written (the runtimes' IR is still cached).

CODE_CACHE_SWITCH = config.Settings.code_cache.name
CODE_CACHE_BYTES = 512 << 20
ENTRY_SUFFIX = ".omp2gpu-code"
_ENTRY_MAGIC = b"omp2gpu code 1\n"


def code_cache_enabled() -> bool:
    return config.settings().code_cache


def entry_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key}{ENTRY_SUFFIX}"


def read_entry(path: Path) -> tuple[dict, tuple[bytes, ...]] | None:
    """(the entry's names, its objects), or None where there is no whole, intact entry."""
    data = own_bytes(path)
    if data is None:
        return None
    header_end = data.find(b"\n", len(_ENTRY_MAGIC))
    if not data.startswith(_ENTRY_MAGIC) or header_end < 0:
        return None
    payload = data[header_end + 1:]
    try:
        header = json.loads(data[len(_ENTRY_MAGIC):header_end])
        lengths = [int(length) for length in header["lengths"]]
        intact = sum(lengths) == len(payload) and hashlib.sha256(payload).hexdigest() == header["sha256"]
        names = dict(header["names"])
    except (ValueError, KeyError, TypeError):
        return None
    if not intact:
        return None
    objects, start = [], 0
    for length in lengths:
        objects.append(payload[start:start + length])
        start += length
    try:
        os.utime(path)                  # recently used: the last to be pruned
    except OSError:
        pass
    return names, tuple(objects)


def write_entry(path: Path, names: dict, objects: tuple[bytes, ...]) -> None:
    """Write an entry (an unwritable cache is no error), then keep the entries within
    CODE_CACHE_BYTES."""
    payload = b"".join(objects)
    header = {"lengths": [len(data) for data in objects],
              "sha256": hashlib.sha256(payload).hexdigest(), "names": names}
    write_atomically(path, _ENTRY_MAGIC + json.dumps(header).encode() + b"\n" + payload)
    prune(path.parent, CODE_CACHE_BYTES)


def cached_entry_text(kind: str, key: str, make) -> str:
    """The text kept under (kind, key), else make()'s, kept for next time."""
    path = entry_path(kind, key)
    entry = read_entry(path)
    if entry is not None and len(entry[1]) == 1:
        return entry[1][0].decode("utf-8")
    text = make()
    write_entry(path, {}, (text.encode("utf-8"),))
    return text


def prune(directory: Path, max_bytes: int) -> None:
    """Remove the least recently used entries until those left take at most max_bytes."""
    entries = []
    for path in directory.glob(f"*{ENTRY_SUFFIX}"):
        try:
            status = path.stat()
        except OSError:
            continue                    # removed by another run meanwhile
        entries.append((status.st_mtime, status.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size
