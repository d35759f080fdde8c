"""libdevice: NVIDIA's bitcode math library, linked into device modules that
call `__nv_*` functions."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.targets.nvptx.machine import configure_device_module
from omp2gpu.targets.nvptx.toolkit import find_file, toolkit_roots

LIBDEVICE_PATH = "nvvm/libdevice/libdevice.10.bc"
LIBDEVICE_PREFIX = "__nv_"


class LibdeviceNotFound(FileNotFoundError):
    pass


def find_libdevice() -> Path | None:
    """libdevice.10.bc from a CUDA installation or NVIDIA's pip wheels."""
    return find_file(LIBDEVICE_PATH)


@lru_cache(maxsize=None)
def _libdevice_bitcode(path: Path) -> bytes:
    return path.read_bytes()


def calls_libdevice(module: llvm.ModuleRef) -> bool:
    """Whether `module` declares any libdevice function."""
    return any(f.is_declaration and f.name.startswith(LIBDEVICE_PREFIX) for f in module.functions)


def link_libdevice(module: llvm.ModuleRef, path: Path | None = None) -> bool:
    """Link libdevice into `module` when it calls `__nv_*` functions; returns
    whether it did. What came from libdevice is made internal, so the
    optimiser inlines it and drops the rest; the module's own symbols keep
    their linkage (kernels, and globals the host finds by name)."""
    if not calls_libdevice(module):
        return False
    path = path or find_libdevice()
    if path is None:
        searched = ", ".join(str(root / LIBDEVICE_PATH) for root in toolkit_roots())
        raise LibdeviceNotFound(f"libdevice.10.bc not found (looked in {searched} and the "
                                "nvidia-cuda-nvcc / nvidia-nvvm wheels); set CUDA_HOME")
    library = llvm.parse_bitcode(_libdevice_bitcode(Path(path)))
    configure_device_module(library)  # it says nvptx64-nvidia-gpulibs and an older layout
    functions = {f.name for f in library.functions if not f.is_declaration}
    variables = {g.name for g in library.global_variables if not g.is_declaration}
    module.link_in(library)
    for function in module.functions:
        if function.name in functions:
            function.linkage = "internal"
    for variable in module.global_variables:
        if variable.name in variables:
            variable.linkage = "internal"
    return True
