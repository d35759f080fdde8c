"""Heat diffusion with two C functions whose target regions do the work, called on NumPy
arrays (and on CuPy arrays, where CuPy and a GPU are here, with no copies); then what
each target region became on the GPU (lib.kernels: ptxas's figures, no GPU needed).

    python examples/python/heat.py [N [STEPS]]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import omp2gpu

ALPHA = 0.1


def simulate(library, xp, n: int, steps: int):
    """`steps` steps from a hot spot in the middle, on arrays of module `xp` (numpy or cupy)."""
    u = xp.zeros((n, n))
    u[n // 2, n // 2] = 1000.0
    next_u = u.copy()
    for _ in range(steps):
        library.heat_step(n, ALPHA, u, next_u)
        u, next_u = next_u, u
    return u


def reference(n: int, steps: int) -> np.ndarray:
    """The same steps in NumPy."""
    u = np.zeros((n, n))
    u[n // 2, n // 2] = 1000.0
    for _ in range(steps):
        inner = u[1:-1, 1:-1]
        next_u = u.copy()
        next_u[1:-1, 1:-1] = inner + ALPHA * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * inner)
        u = next_u
    return u


def run(library, xp, name: str, n: int, steps: int, expected: np.ndarray) -> None:
    start = time.perf_counter()
    u = simulate(library, xp, n, steps)
    seconds = time.perf_counter() - start
    host_u = u.get() if hasattr(u, "get") else u
    same = np.allclose(host_u, expected, rtol=1e-12, atol=1e-12)
    print(f"{name}: {steps} steps of {n}x{n} on {omp2gpu.target_device(described=True)} in {seconds:.3f} s; "
          f"total heat {library.heat_total(n, u):.6f}; {'matches' if same else 'DIFFERS FROM'} NumPy")
    if not same:
        sys.exit(1)


def show_kernels(library) -> None:
    """Each target region's GPU kernel: its scheme, registers and occupancy."""
    for kernel in library.kernels:
        if kernel.occupancy is None:          # no ptxas, or no occupancy data for this GPU: it says why
            print(repr(kernel))
            continue
        best = kernel.best.block_size if kernel.best else "n/a (one launch shape)"      # a serial kernel: none
        print(f"kernel at {Path(kernel.location).name}: {kernel.scheme} scheme, {kernel.registers} registers, "
              f"{kernel.spill_store_bytes} B spilled, occupancy {kernel.occupancy.occupancy:.0%} at "
              f"{kernel.block_size} threads (limited by {kernel.limiter}), best block size {best}")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    library = omp2gpu.load(Path(__file__).with_name("heat.c"), flags=("-O3",))
    expected = reference(n, steps)
    run(library, np, "NumPy arrays", n, steps, expected)
    show_kernels(library)
    try:
        import cupy  # optional: CuPy arrays stay on the GPU
    except ImportError:
        print("CuPy arrays: skipped (CuPy is not installed)")
        return
    if omp2gpu.target_device() in ("cpu", "host"):
        print("CuPy arrays: skipped (target regions do not run on a GPU here)")
        return
    run(library, cupy, "CuPy arrays", n, steps, expected)


if __name__ == "__main__":
    main()
