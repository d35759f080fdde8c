"""Device buffers given to an MPI that cannot read GPU memory, staged through host
memory (runtime/mpi/device_buffers.c), on the JIT path. The wrappers ask libomp2gpu which
memory is a device's, and this path runs without it: they pass every call through here.
Native programs stage (targets/mpi_device_buffers.py); this file goes with the JIT path.

A program that passes MPI device addresses (`use_device_ptr`) needs a CUDA-aware MPI;
with any other, the wrapped calls below copy such buffers to the host and back around
the real call (PMPI_*), as a PMPI tool would. The wrappers are compiled with the MPI's
own <mpi.h> (its handles' types differ between MPIs), JIT-compiled, and bound in place
of the program's MPI_* references (llvm.add_symbol is looked up before the loaded
libraries). They pass every call straight through when the MPI is CUDA-aware
(MPIX_Query_cuda_support, or OMP2GPU_MPI_CUDA_AWARE=1), when no GPU driver is loaded,
or with OMP2GPU_MPI_STAGING=0.
"""

from __future__ import annotations

from pathlib import Path

from llvmlite import binding as llvm

from omp2gpu import cpu_driver
from omp2gpu.disk_cache import cache_dir, cached_text, compiler_key
from omp2gpu.runtime_files import include_files, runtime_root
from omp2gpu.targets.mpi import Mpi
from omp2gpu.targets.mpi_device_buffers import SOURCE, WRAPPED

_engines: list = []                 # the wrappers' code lives as long as its engine


def interpose(mpi: Mpi, imports) -> list[str]:
    """Bind the wrappers of the WRAPPED calls the program makes; the names bound."""
    imported = set(imports)
    names = [name for name in WRAPPED if name in imported]
    if not names:
        return []
    engine = _engine(mpi)
    for name in names:
        llvm.add_symbol(name, engine.get_function_address(f"omp2gpu_{name}"))
    return names


def _engine(mpi: Mpi):
    if not _engines:
        _engines.append(cpu_driver.native_engine_of_ir("omp2gpu-mpi-staging",
                                                       [(SOURCE.name, _wrappers_ir(mpi))]))
    return _engines[0]


def _wrappers_ir(mpi: Mpi) -> str:
    """device_buffers.c as LLVM IR, compiled against this MPI's headers (cached)."""
    source = runtime_root() / SOURCE
    headers = [path for folder in mpi.include_dirs for path in sorted(Path(folder).glob("mpi*.h"))]
    key = compiler_key([source, *headers, *include_files()], salt=mpi.wrapper)
    return cached_text(cache_dir() / f"cpu-mpi-staging-{key}.ll",
                       lambda: cpu_driver.compile_runtime_source(source, mpi.include_dirs))
