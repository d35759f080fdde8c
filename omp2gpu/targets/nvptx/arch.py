"""GPU architectures: which `sm_XX` names omp2gpu accepts, the PTX ISA version
to emit for each, and the architecture of the GPU in this machine."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from functools import lru_cache

FALLBACK_ARCH = "sm_90"

# Architecture -> the lowest PTX ISA version (x10) LLVM 22's NVPTX backend
# emits for it (what `.version` says when no +ptxNN feature is given). All are
# processors the backend knows; ptxas from CUDA 13 dropped sm_70/sm_72 and
# calls sm_101 sm_110, so those assemble only with an older ptxas.
ARCHITECTURES: dict[str, int] = {
    "sm_70": 60, "sm_72": 61, "sm_75": 63,
    "sm_80": 70, "sm_86": 71, "sm_87": 74, "sm_89": 78,
    "sm_90": 78, "sm_90a": 80,
    "sm_100": 86, "sm_100a": 86, "sm_101": 86, "sm_103": 88, "sm_110": 90,
    "sm_120": 87, "sm_120a": 87, "sm_121": 88,
}

# PTX 8.0 (CUDA 12.0 drivers) at least: newer ISA lets the backend pick newer
# instructions, and any CUDA 12 driver still JIT-loads it. 9.0 is LLVM 22's
# newest (+ptx91 is ignored with a warning).
PTX_FLOOR = 80
PTX_NEWEST = 90


def validate_arch(arch: str) -> str:
    """`arch` itself when omp2gpu knows it, else ValueError."""
    if arch not in ARCHITECTURES:
        known = ", ".join(ARCHITECTURES)
        raise ValueError(f"unknown GPU architecture '{arch}' (known: {known})")
    return arch


def ptx_version(arch: str, requested: int | None = None) -> int:
    """The PTX ISA version (x10: 80 is PTX 8.0) to emit for `arch`."""
    lowest = ARCHITECTURES[validate_arch(arch)]
    if requested is None:
        return max(lowest, PTX_FLOOR)
    if not lowest <= requested <= PTX_NEWEST:
        raise ValueError(f"PTX ISA {requested / 10:.1f} is not available for {arch} "
                         f"(LLVM emits {lowest / 10:.1f} to {PTX_NEWEST / 10:.1f})")
    return requested


def ptx_features(arch: str, requested: int | None = None) -> str:
    """The target-machine feature string, e.g. "+ptx80"."""
    return f"+ptx{ptx_version(arch, requested)}"


def arch_for_compute_capability(major: int, minor: int) -> str:
    """The architecture to compile for on a GPU of this compute capability:
    itself when known, else the newest known one below it (PTX for sm_XY
    JIT-compiles on any later GPU), else the fallback."""
    wanted = major * 10 + minor
    exact = f"sm_{wanted}"
    if exact in ARCHITECTURES:
        return exact
    below = [int(name[3:]) for name in ARCHITECTURES
             if name[3:].isdigit() and int(name[3:]) <= wanted]
    return f"sm_{max(below)}" if below else FALLBACK_ARCH


@lru_cache(maxsize=None)
def default_arch() -> str:
    """The first GPU's architecture (nvidia-smi, else the CUDA driver), or
    sm_90 when there is no GPU. Never raises."""
    capability = _capability_from_nvidia_smi() or _capability_from_driver()
    if capability is None:
        return FALLBACK_ARCH
    return arch_for_compute_capability(*capability)


def _capability_from_nvidia_smi() -> tuple[int, int] | None:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        result = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.match(r"\s*(\d+)\.(\d+)", result.stdout) if result.returncode == 0 else None
    return (int(match[1]), int(match[2])) if match else None


# cuDeviceGetAttribute attribute numbers (cuda.h CUdevice_attribute).
_CU_COMPUTE_CAPABILITY_MAJOR = 75
_CU_COMPUTE_CAPABILITY_MINOR = 76


def _capability_from_driver() -> tuple[int, int] | None:
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        device = ctypes.c_int()
        if cuda.cuInit(0) != 0 or cuda.cuDeviceGet(ctypes.byref(device), 0) != 0:
            return None
        major, minor = ctypes.c_int(), ctypes.c_int()
        wanted = ((major, _CU_COMPUTE_CAPABILITY_MAJOR), (minor, _CU_COMPUTE_CAPABILITY_MINOR))
        for value, attribute in wanted:
            if cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, device) != 0:
                return None
        return major.value, minor.value
    except (OSError, AttributeError):
        return None
