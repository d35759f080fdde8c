"""omp2gpu's disk cache: compiled runtimes and JIT machine code, kept between runs."""

from __future__ import annotations

import hashlib
import os
import tempfile
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
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a concurrent reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=f".{cached.stem}-", suffix=".tmp")
    except OSError:
        return text
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, cached)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
    return text


def compiler_key(inputs: list[Path], salt: str = "") -> str:
    """A cache key that changes whenever `inputs` (runtime sources, headers) or the
    compiler itself (its Python modules, its version, llvmlite's) change."""
    digest = hashlib.sha256(f"{__version__}|{llvmlite.__version__}|{salt}".encode())
    package = Path(__file__).resolve().parent
    for path in [*inputs, *sorted(package.rglob("*.py"))]:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]
