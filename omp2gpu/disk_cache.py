"""omp2gpu's disk cache: compiled runtimes and JIT machine code, kept between runs."""

from __future__ import annotations

import hashlib
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
