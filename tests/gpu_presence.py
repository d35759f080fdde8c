"""Whether a CUDA GPU is here, asked in one place (tests/conftest.py skips `gpu` and
`no_gpu` tests by it; a test that branches on it imports it). A broken import of
omp2gpu is not "no GPU": it fails the run."""

from __future__ import annotations

from functools import lru_cache

from omp2gpu.tools.doctor import gpu_status


@lru_cache(maxsize=1)
def gpu_present() -> bool:
    """A CUDA GPU the offload runtime can use (libomp2gpu's own answer, as `omp2gpu doctor`
    gives it)."""
    return gpu_status()[0] > 0
