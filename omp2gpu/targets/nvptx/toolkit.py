"""Where the CUDA toolkit's files are: a CUDA installation ($CUDA_HOME,
$CUDA_PATH, /usr/local/cuda, the one holding `nvcc` on PATH) or NVIDIA's pip
wheels (nvidia-cuda-nvcc, nvidia-nvvm; nvidia/cu13/... or
nvidia/cuda_nvcc/... inside site-packages)."""

from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path

from omp2gpu import config

# Wheels that carry ptxas or libdevice, CUDA 13 names first.
CUDA_WHEELS = ("nvidia-cuda-nvcc", "nvidia-nvvm", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-nvcc-cu11")


def toolkit_roots() -> list[Path]:
    """Candidate CUDA installation directories, most specific first."""
    roots = list(config.settings().cuda_roots)        # CUDA_HOME, CUDA_PATH
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        roots.append(str(Path(nvcc).resolve().parent.parent))
    roots.append("/usr/local/cuda")
    unique = []
    for root in roots:
        if root and Path(root) not in unique:
            unique.append(Path(root))
    return unique


@lru_cache(maxsize=None)
def wheel_files(suffix: str) -> tuple[Path, ...]:
    """Files of the installed CUDA wheels whose path ends with `suffix`
    (e.g. "bin/ptxas"); looked up once per process."""
    import importlib.metadata  # here: 12 ms of every start-up that only a GPU build needs
    found = []
    for name in CUDA_WHEELS:
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for entry in distribution.files or ():
            if entry.as_posix().endswith(suffix):
                found.append(Path(distribution.locate_file(entry)).resolve())
    return tuple(found)


def find_file(relative: str) -> Path | None:
    """`relative` (e.g. "nvvm/libdevice/libdevice.10.bc") under the first
    toolkit root or wheel that has it."""
    for root in toolkit_roots():
        candidate = root / relative
        if candidate.is_file():
            return candidate
    return next((path for path in wheel_files(relative) if path.is_file()), None)
