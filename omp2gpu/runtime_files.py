"""Where the bundled runtime (headers, host and device runtime sources) lives.

In a source checkout or editable install it is the top-level runtime/ folder;
an installed wheel carries a copy as package data under omp2gpu/_runtime.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def runtime_root() -> Path:
    package = Path(__file__).resolve().parent
    for candidate in (package / "_runtime", package.parent / "runtime"):
        if (candidate / "include" / "omp.h").is_file():
            return candidate
    raise FileNotFoundError("omp2gpu runtime/ folder not found next to the package")


def include_dir() -> Path:
    return runtime_root() / "include"


def include_files() -> list[Path]:
    """Every bundled header, in a stable order (cache keys read them)."""
    return sorted(p for p in include_dir().rglob("*") if p.is_file())


def host_runtime_dir() -> Path:
    return runtime_root() / "host"


def device_runtime_dir() -> Path:
    return runtime_root() / "device"
