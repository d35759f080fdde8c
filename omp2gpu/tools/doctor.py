"""`omp2gpu doctor` (and `omp2gpu-cc --print-devices`): the devices a program built here
would number, and why a GPU is not among them, with the command that fixes it. The GPU's
answer comes from the offload runtime itself (libomp2gpu's __omp2gpu_gpu_status: the driver
missing, too old, not starting, no GPU), the reason its "no device" error gives too.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from dataclasses import dataclass

from omp2gpu import config
from omp2gpu.targets import native_runtime

GPU_EXTRA = "pip install 'omp2gpu[gpu]'"


def gpu_status() -> tuple[int, str]:
    """(number of usable GPUs, why none is usable or "")."""
    runtime = ctypes.CDLL(str(native_runtime.build().shared))
    runtime.__omp2gpu_gpu_status.restype = ctypes.c_int
    why = ctypes.create_string_buffer(512)
    count = runtime.__omp2gpu_gpu_status(why, len(why))
    return count, why.value.decode("utf-8", "replace")


@dataclass(frozen=True)
class GpuFacts:
    name: str
    compute_capability: tuple[int, int]      # (major, minor)
    multiprocessors: int


def gpu_facts(ordinal: int = 0) -> GpuFacts | None:
    """GPU `ordinal`'s name, compute capability and multiprocessor count, None where there
    is no such GPU (libomp2gpu's __omp2gpu_gpu_facts)."""
    runtime = ctypes.CDLL(str(native_runtime.build().shared))
    name, capability, multiprocessors = ctypes.create_string_buffer(256), ctypes.c_int(), ctypes.c_int()
    if runtime.__omp2gpu_gpu_facts(ordinal, name, ctypes.c_size_t(len(name)), ctypes.byref(capability),
                                   ctypes.byref(multiprocessors)):
        return None
    return GpuFacts(name.value.decode("utf-8", "replace"), divmod(capability.value, 10), multiprocessors.value)


def report() -> list[str]:
    """The lines `omp2gpu doctor` prints."""
    gpus, why = gpu_status()
    chosen = config.settings().devices or ""
    lines = ["devices a program built by omp2gpu numbers here (omp_get_num_devices):"]
    if chosen:
        lines.append(f"  OMP2GPU_DEVICES={chosen} chooses them, in that order")
        kinds = [kind.strip().lower() for kind in chosen.split(",") if kind.strip()]
    else:
        kinds = ["gpu"] if gpus else ["cpu"]
    number = 0
    for kind in kinds:
        if kind == "gpu":
            for ordinal in range(gpus):
                lines.append(f"  device {number}: GPU {ordinal} (CUDA)")
                number += 1
        elif kind == "cpu":
            lines.append(f"  device {number}: the CPU device ({os.cpu_count()} cores)")
            number += 1
    lines.append(f"  device {number}: the host (the initial device; omp_get_initial_device)")
    if gpus:
        lines.append(f"GPU: {gpus} usable" + ("" if chosen else "; the CPU device is not numbered where GPUs "
                                                                  "are (OMP2GPU_DEVICES=gpu,cpu adds it)"))
    else:
        lines.append(f"GPU: none usable: {why}")
        lines.append("  target regions run on the CPU device meanwhile (work-groups on this machine's cores)")
    has_cuda_python = importlib.util.find_spec("cuda") is not None
    lines.append("cuda-python: " + ("installed" if has_cuda_python else
                                    f"not installed; programs and omp2gpu.load do not need it, the GPU tests "
                                    f"and benchmarks read the driver with it: {GPU_EXTRA}"))
    return lines


def main(argv: list[str]) -> int:
    if argv:
        print(f"omp2gpu doctor: takes no arguments, not {' '.join(argv)}", file=sys.stderr)
        return 2
    print("\n".join(report()))
    return 0
