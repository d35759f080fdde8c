"""omp2gpu's disk cache: compiled runtimes, machine code and PTX, kept between runs."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import llvmlite

from omp2gpu import __version__


def cache_dir() -> Path:
    """$OMP2GPU_CACHE_DIR, else $XDG_CACHE_HOME/omp2gpu, else ~/.cache/omp2gpu."""
    if os.environ.get("OMP2GPU_CACHE_DIR"):
        return Path(os.environ["OMP2GPU_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "omp2gpu"


def cached_text(cached: Path, make) -> str:
    """cached's text, else make()'s, written to cached for next time; an unwritable
    cache only costs the remaking."""
    try:
        return cached.read_text(encoding="utf-8")
    except OSError:
        pass
    text = make()
    write_atomically(cached, text.encode("utf-8"))
    return text


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it to `path`, so that
    a concurrent reader sees the old file or the new one, never half of one. An
    unwritable cache is no error: it only costs the remaking next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
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


# --- code entries: machine code and PTX, checked when read back ---------------------
#
# An entry records its objects' lengths and a SHA-256 of them, so that a truncated or
# corrupt file reads as a miss (and is written again); it is written to a temporary
# file and renamed, so a run beside another never reads half of one. The entries take
# at most CODE_CACHE_BYTES: a write removes the least recently used beyond that (a read
# refreshes an entry's time). OMP2GPU_CODE_CACHE=0 turns them off: nothing is read or
# written (the runtimes' IR is still cached).

CODE_CACHE_SWITCH = "OMP2GPU_CODE_CACHE"
CODE_CACHE_BYTES = 512 << 20
ENTRY_SUFFIX = ".omp2gpu-code"
_ENTRY_MAGIC = b"omp2gpu code 1\n"


def code_cache_enabled() -> bool:
    return os.environ.get(CODE_CACHE_SWITCH, "1") != "0"


def entry_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key}{ENTRY_SUFFIX}"


def read_entry(path: Path) -> tuple[dict, tuple[bytes, ...]] | None:
    """(the entry's names, its objects), or None where there is no whole, intact entry."""
    try:
        data = path.read_bytes()
    except OSError:
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
