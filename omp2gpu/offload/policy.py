"""The launcher's rules read from the environment, the same for every device:
OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE, OMP2GPU_DEVICES, OMP2GPU_LAUNCH, and the
launch configuration a kernel gets when its clauses leave it open."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from omp2gpu.offload.abi import GPU_SERIAL, KernelInfo
from omp2gpu.offload.messages import report

if TYPE_CHECKING:     # annotations only: devices/ builds on this module
    from omp2gpu.offload.devices.base import Device

DEFAULT_BLOCK_SIZE = 128
BLOCKS_PER_MULTIPROCESSOR = 128   # enough blocks that a grid-stride loop over a large array needs about one sweep
MANDATORY, DISABLED, DEFAULT = "MANDATORY", "DISABLED", "DEFAULT"


def offload_policy(environ) -> str:
    """OMP_TARGET_OFFLOAD (OpenMP 5.0 6.17, honoured here for 4.5 programs too)."""
    text = environ.get("OMP_TARGET_OFFLOAD", "").strip().upper()
    if text in ("", DEFAULT):
        return DEFAULT
    if text in (MANDATORY, DISABLED):
        return text
    report("warning", f"OMP_TARGET_OFFLOAD={text} is not MANDATORY, DISABLED or DEFAULT; "
                        "using DEFAULT")
    return DEFAULT


def default_device_number(environ) -> int:
    """default-device-var from OMP_DEFAULT_DEVICE (0 when unset or not a non-negative integer)."""
    try:
        number = int(environ.get("OMP_DEFAULT_DEVICE", "0").strip())
    except ValueError:
        return 0
    return max(number, 0)


# Where MPI launchers say which rank of its node a process is (MPICH's hydra, Open MPI,
# MVAPICH, PMI, Slurm, PALS).
_LOCAL_RANK_VARIABLES = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
                         "PMI_LOCAL_RANK", "SLURM_LOCALID", "PALS_LOCAL_RANKID")


def node_local_rank(environ) -> int | None:
    """This process's rank among its node's MPI ranks, if an MPI launcher started it."""
    for variable in _LOCAL_RANK_VARIABLES:
        text = environ.get(variable, "").strip()
        if text.isdigit():
            return int(text)
    return None


def rank_default_device(environ, gpu_count: int) -> int | None:
    """default-device-var for an MPI rank: its node-local rank's GPU (ranks spread over the
    node's GPUs), unless OMP_DEFAULT_DEVICE chooses; None where that does not apply."""
    rank = node_local_rank(environ)
    if rank is None or gpu_count < 2 or environ.get("OMP_DEFAULT_DEVICE", "").strip():
        return None
    return rank % gpu_count


def launch_override(environ) -> tuple[int, int] | None:
    """OMP2GPU_LAUNCH="teams,threads": the launch configuration every kernel gets, over
    its clauses (benchmark sweeps: `omp2gpu report --run`); 0 leaves that half as usual."""
    text = environ.get("OMP2GPU_LAUNCH", "").strip()
    if not text:
        return None
    try:
        teams, threads = (int(part) for part in text.split(","))
        if teams < 0 or threads < 0:
            raise ValueError
    except ValueError:
        report("warning", f"OMP2GPU_LAUNCH={text} is not 'teams,threads' (two integers >= 0); ignored")
        return None
    return teams, threads


def launch_configuration(info: KernelInfo, device: Device, num_teams: int, thread_limit: int,
                         trip_count: int, override: tuple[int, int] | None = None) -> tuple[int, int]:
    """(grid, block): the clauses when given, else the kernel's default block and enough
    blocks for the loop, capped at what fills the device. `override` (OMP2GPU_LAUNCH)
    replaces the clauses, except for serial kernels, which one thread must run, and the
    team count of a region with no teams construct, which one team must run."""
    if override is not None and info.scheme != GPU_SERIAL:
        num_teams = (override[0] or num_teams) if not info.one_team else num_teams
        thread_limit = override[1] or thread_limit
    if info.one_team:
        num_teams = 1       # also where the host shaped the launch by another device's version
    block = thread_limit if thread_limit > 0 else (info.default_block_size or DEFAULT_BLOCK_SIZE)
    block = max(1, min(block, device.max_threads_per_block))
    if num_teams > 0:
        return num_teams, block
    cap = max(1, device.multiprocessor_count) * BLOCKS_PER_MULTIPROCESSOR
    return max(1, min(math.ceil(max(trip_count, 0) / block), cap)), block


def device_kinds(environ) -> tuple[str, ...]:
    """OMP2GPU_DEVICES: which kinds of device to look for, in numbering order
    ("gpu,cpu" when unset; `omp2gpu run --device gpu|cpu` narrows it to one)."""
    text = environ.get("OMP2GPU_DEVICES", "").strip().lower()
    kinds = tuple(k.strip() for k in text.split(",") if k.strip()) if text else ("gpu", "cpu")
    unknown = [k for k in kinds if k not in ("gpu", "cpu")]
    if unknown:
        report("warning", f"OMP2GPU_DEVICES: unknown device kind(s) {', '.join(unknown)} ignored")
    return tuple(k for k in kinds if k in ("gpu", "cpu"))
