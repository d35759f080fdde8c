"""libomp2gpu, the offload runtime native programs link (runtime/offload/, with the CPU
device's worker pool runtime/cpu_device/pool.c): built by the system's C compiler (`cc`,
or $CC) the first time a native program is linked, as a static archive and a shared
library, and kept in the disk cache under a key of its sources and the compiler's
version, so an edit to the runtime builds it again and nothing else does.

    libomp2gpu.a    linked into executables and shared libraries (no run-time path
                    to a cache directory: the program can be copied anywhere)
    libomp2gpu.so   the same, for a program that wants to share one copy
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from omp2gpu import config
from omp2gpu.diagnostics import CompileError
from omp2gpu.disk_cache import cache_dir
from omp2gpu.offload import abi
from omp2gpu.runtime_files import runtime_root
from omp2gpu.targets import openmp_runtime

SOURCE_FOLDER = "offload"
POOL_SOURCE = "cpu_device/pool.c"
C_FLAGS = ("-O2", "-fPIC", "-std=gnu11", "-fvisibility=default")
SYSTEM_LIBRARIES = ("-lpthread", "-ldl", "-lm")
# Defined when a source that names it is compiled for libomp2gpu.so (a shared object has no
# .preinit_array: runtime/offload/env_allocator.c)
SHARED_LIBRARY_MACRO = "OMP2GPU_SHARED_LIBRARY"
# The program's calls to the OpenMP runtime's waits (taskwait, barriers, ...) bound to the
# runtime's __wrap_NAME, which also wait for the thread's target tasks whose kernels run
# ahead (docs/async.md, runtime/offload/openmp_waits.c): every link of the runtime.
WAIT_WRAPPER_FLAGS = tuple(f"-Wl,--wrap={name}" for name in abi.RUN_AHEAD_WAITS)


@dataclass(frozen=True)
class NativeRuntime:
    static: Path                 # libomp2gpu.a
    shared: Path                 # libomp2gpu.so
    header_dir: Path             # runtime/offload (offload.h: the image table's layout)
    static_for_shared: Path      # libomp2gpu-dso.a: the archive a `-shared` link takes whole


def c_compiler() -> str:
    """$CC, else cc, else gcc; a located error with the fix when there is none. A $CC that is
    omp2gpu's own driver (a build run with CC=omp2gpu-cc) is passed over: it links with this."""
    own = config.settings().cc or ""
    if own and "omp2gpu" in Path(own.split()[0]).name:
        own = ""
    for candidate in (own, "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate.split()[0]):
            return candidate
    raise CompileError("native programs are linked by the system's C compiler, and none was found "
                       "(cc, gcc, clang, or $CC)",
                       hint="install one (e.g. apt install gcc) or set CC to a C compiler")


def sources() -> list[Path]:
    root = runtime_root()
    return [*sorted((root / SOURCE_FOLDER).glob("*.c")), root / POOL_SOURCE]


def ucx_flags() -> tuple[str, ...]:
    """The libucx wheel's headers and library folder (remote devices, docs/remote.md): the
    transport loads libucp with dlopen, from there unless OMP2GPU_UCX_LIB says; none without
    the wheel (remote devices then say UCX is missing)."""
    try:
        import libucx
    except ImportError:
        return ()
    root = Path(libucx.__file__).parent
    if not (root / "include" / "ucp" / "api" / "ucp.h").is_file():
        return ()
    return (f"-I{root / 'include'}", f'-DOMP2GPU_UCX_DIR="{root / "lib"}"')


def _key(compiler: str) -> str:
    flags = (compiler, *C_FLAGS, *ucx_flags(), *WAIT_WRAPPER_FLAGS, *openmp_runtime.link_flags())
    digest = hashlib.sha256(" ".join(flags).encode())
    version = subprocess.run([*compiler.split(), "--version"], capture_output=True, text=True, check=False)
    digest.update(version.stdout.encode())
    digest.update(Path(__file__).read_bytes())        # the recipe: what is built, and how
    for path in [*sources(), *sorted((runtime_root() / SOURCE_FOLDER).glob("*.h"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


@cache
def build() -> NativeRuntime:
    """The runtime's archive and shared library, built now unless the cache has them."""
    compiler = c_compiler()
    folder = cache_dir() / f"libomp2gpu-{_key(compiler)}"
    runtime = NativeRuntime(folder / "libomp2gpu.a", folder / "libomp2gpu.so", runtime_root() / SOURCE_FOLDER,
                            folder / "libomp2gpu-dso.a")
    if all(path.is_file() for path in (runtime.static, runtime.shared, runtime.static_for_shared)):
        return runtime
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".libomp2gpu-"))
    try:
        objects, shared_objects = [], []
        for source in sources():
            obj = work / f"{source.stem}.o"
            _run([*compiler.split(), *C_FLAGS, *ucx_flags(), "-c", str(source), "-o", str(obj)],
                 "compile " + source.name)
            objects.append(str(obj))
            shared_objects.append(str(obj))
            if SHARED_LIBRARY_MACRO.encode() in source.read_bytes():    # its shared-library version differs
                shared_objects[-1] = str(work / f"{source.stem}.shared.o")
                _run([*compiler.split(), *C_FLAGS, *ucx_flags(), f"-D{SHARED_LIBRARY_MACRO}", "-c", str(source),
                      "-o", shared_objects[-1]], "compile " + source.name)
        _run(["ar", "rcs", str(work / "libomp2gpu.a"), *objects], "archive libomp2gpu.a")
        _run(["ar", "rcs", str(work / "libomp2gpu-dso.a"), *shared_objects], "archive libomp2gpu-dso.a")
        # it calls the OpenMP runtime (target tasks, the wrapped waits): linked with it, so it
        # loads anywhere, and with the wrap flags for its __real_GOMP_* references
        _run([*compiler.split(), "-shared", "-o", str(work / "libomp2gpu.so"), *shared_objects, *WAIT_WRAPPER_FLAGS,
              *openmp_runtime.link_flags(), *SYSTEM_LIBRARIES], "link libomp2gpu.so")
        os.replace(work, folder)          # whole or not at all, even with builds racing
    except OSError:
        if not all(path.is_file() for path in (runtime.static, runtime.shared, runtime.static_for_shared)):
            raise CompileError(f"cannot write the offload runtime into {folder}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return runtime


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CompileError(f"building the offload runtime failed ({what}): "
                           f"{(done.stderr or done.stdout).strip()[:2000]}")
