"""Device buffers given to an MPI that cannot read device memory, staged through host
memory in native programs (runtime/mpi/device_buffers.c; docs/native-executables.md,
"MPI programs").

A native program that calls one of the WRAPPED functions is linked with device_buffers.c,
compiled by the system's C compiler with the MPI's own <mpi.h> (its handles' types differ
between MPIs) and kept in the disk cache. The program's calls of those functions are
renamed to the wrappers (omp2gpu_MPI_X, which call PMPI_X as a PMPI tool's MPI_X does):
only the program's own calls are wrapped, never the MPI library's or another library's,
and the wrappers are hidden, so a shared library exports nothing more. They ask
libomp2gpu which device's memory a buffer is (__omp2gpu_device_memory) and pass the call
straight through for any other memory, for a CUDA-aware MPI, or without a GPU.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.diagnostics import CompileError
from omp2gpu.disk_cache import cache_dir, compiler_key, write_atomically
from omp2gpu.runtime_files import runtime_root
from omp2gpu.targets import native_runtime
from omp2gpu.targets.mpi import Mpi

# The calls that take buffers and are wrapped; others given device memory need a
# CUDA-aware MPI (README, "Several devices, and MPI programs").
WRAPPED = ("MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce",
           "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall")
WRAPPER_PREFIX = "omp2gpu_"
SOURCE = Path("mpi") / "device_buffers.c"
# hidden: the wrappers bind to the program's renamed calls at link time and are never exported
C_FLAGS = ("-O2", "-fPIC", "-std=gnu11", "-fvisibility=hidden")


def wrap_calls(module: llvm.ModuleRef, mpi: Mpi) -> list[str]:
    """The program's calls of the WRAPPED functions (declarations in `module`) renamed to
    their wrappers; the wrappers' object to link with it, none when it calls none."""
    called = [function for function in module.functions if function.is_declaration and function.name in WRAPPED]
    if not called:
        return []
    wrappers = object_file(mpi)
    for function in called:
        function.name = WRAPPER_PREFIX + function.name
    return [str(wrappers)]


def object_file(mpi: Mpi) -> Path:
    """device_buffers.c compiled against this MPI's headers, from the disk cache (its key:
    the source, the headers, the MPI, and libomp2gpu's key, which names the C compiler)."""
    source = runtime_root() / SOURCE
    headers = [path for folder in mpi.include_dirs for path in sorted(Path(folder).glob("mpi*.h"))]
    runtime_key = native_runtime.build().static.parent.name
    key = compiler_key([source, *headers], salt=f"{runtime_key}|{mpi.wrapper}|{' '.join(C_FLAGS)}")
    cached = cache_dir() / f"mpi-device-buffers-{key}.o"
    if cached.is_file():
        return cached
    compiler = native_runtime.c_compiler()
    with tempfile.TemporaryDirectory(prefix="omp2gpu-mpi-") as scratch:
        made = Path(scratch) / "device_buffers.o"
        includes = [f"-I{folder}" for folder in mpi.include_dirs]
        done = subprocess.run([*compiler.split(), *C_FLAGS, *includes, "-c", str(source), "-o", str(made)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise CompileError(f"compiling the MPI staging of device buffers ({SOURCE}) with {mpi.wrapper}'s "
                               f"<mpi.h> failed: {(done.stderr or done.stdout).strip()[:2000]}")
        write_atomically(cached, made.read_bytes())
    if not cached.is_file():
        raise CompileError(f"cannot write the MPI staging of device buffers into {cached.parent}")
    return cached
