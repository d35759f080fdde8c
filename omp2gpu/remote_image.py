"""The device image a remote server runs (docs/remote.md): the program's device image
object (native_image.py) linked on its own as a shared object, embedded in the program as
data with a constructor registering it with libomp2gpu (`__omp2gpu_register_remote_code`,
runtime/offload/remote_device.c), which sends it to a server at the image's first use there.
In the shared object the image's registration calls the server's
`__omp2gpu_serve_register_image` instead of libomp2gpu's, and its other references (the CPU
device's runtime) bind to the server's own libomp2gpu when it dlopens it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.native_image import REGISTER, _bytes
from omp2gpu.offload import abi
from omp2gpu.targets import host, native_runtime

REGISTER_REMOTE = abi.ENTRY_REGISTER_REMOTE_CODE
SERVER_REGISTER = "__omp2gpu_serve_register_image"


def shared_image(image_object: Path, scratch: Path) -> bytes | None:
    """The image object as a shared object for a server; None where it cannot be made (the
    program then has no code for remote devices, which they say when asked to run it)."""
    renamed, shared = scratch / "remote-image.o", scratch / "remote-image.so"
    steps = (["objcopy", f"--redefine-sym={REGISTER}={SERVER_REGISTER}", str(image_object), str(renamed)],
             [*native_runtime.c_compiler().split(), "-shared", "-o", str(shared), str(renamed)])
    for command in steps:
        if subprocess.run(command, capture_output=True, check=False).returncode != 0:
            return None
    return shared.read_bytes()


def registration_object(shared: bytes) -> bytes:
    """An object holding `shared` as data and a constructor registering it."""
    module = host.prepare(llvm.parse_assembly(""))
    text = "\n".join([
        f'target triple = "{module.triple}"', f'target datalayout = "{module.data_layout}"',
        f'@.omp2gpu.remote_image = private constant [{len(shared)} x i8] c"{_bytes(shared)}", align 16',
        f"declare void @{REGISTER_REMOTE}(ptr, i64)",
        "define internal void @.omp2gpu.register_remote() {",
        f"  call void @{REGISTER_REMOTE}(ptr @.omp2gpu.remote_image, i64 {len(shared)})",
        "  ret void", "}",
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
        "[{ i32, ptr, ptr } { i32 65535, ptr @.omp2gpu.register_remote, ptr null }]"]) + "\n"
    return host.object_code(llvm.parse_assembly(text), 0)


def remote_objects(image_object: Path, scratch: Path) -> list[Path]:
    """The objects a link adds so remote servers can run the image: [] where none."""
    shared = shared_image(image_object, scratch)
    if shared is None:
        return []
    path = scratch / "remote-image-registration.o"
    path.write_bytes(registration_object(shared))
    return [path]
