"""`omp2gpu serve`'s executable (runtime/remote/server.c, docs/remote.md): built by the
system's C compiler against libomp2gpu's archive (the devices' ops, the UCX transport) the
first time it is needed, and kept in the disk cache beside libomp2gpu under a key of its
source and the runtime's. Exported dynamically (-rdynamic), so the device images clients
send, shared objects the server dlopens, find the CPU device's runtime and the server's
`__omp2gpu_serve_register_image` in it."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from omp2gpu.disk_cache import cache_dir
from omp2gpu.runtime_files import runtime_root
from omp2gpu.targets import native_runtime, openmp_runtime

SOURCE = "remote/server.c"


def build(source: Path | None = None) -> Path:
    """The server executable (or another C program of libomp2gpu's remote parts, `source`:
    bench/remote/ping.c), built now unless the cache has it."""
    runtime = native_runtime.build()
    source = source or runtime_root() / SOURCE
    digest = hashlib.sha256(source.read_bytes() + str(runtime.static).encode()).hexdigest()[:20]
    executable = cache_dir() / f"omp2gpu-{source.stem}-{digest}"
    if executable.is_file():
        return executable
    compiler = native_runtime.c_compiler()
    executable.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=executable.parent, prefix=".omp2gpu-serve-")
    os.close(handle)
    try:
        native_runtime._run([*compiler.split(), *native_runtime.C_FLAGS, *native_runtime.ucx_flags(),
                             f"-I{runtime.header_dir}", str(source), "-o", partial, "-rdynamic",
                             "-Wl,--whole-archive", str(runtime.static), "-Wl,--no-whole-archive",
                             *native_runtime.WAIT_WRAPPER_FLAGS, *openmp_runtime.link_flags(),
                             *native_runtime.SYSTEM_LIBRARIES], "link the remote device server")
        os.chmod(partial, 0o755)
        os.replace(partial, executable)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return executable
