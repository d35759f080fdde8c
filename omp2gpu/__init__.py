"""omp2gpu: an OpenMP 4.5 offload compiler for C, written in Python.

The pipeline, one package per stage (see docs/architecture.md):
frontend -> sema -> codegen (+ codegen.openmp schemes) -> targets -> offload -> tools.
"""

import importlib

__version__ = "0.1.0"


def __getattr__(name: str):
    """omp2gpu.load, omp2gpu.target_device, omp2gpu.Library and omp2gpu.OffloadError (omp2gpu/api/), imported on
    first use. By name: every module that reads __version__ imports this package, and a
    plain import here would make each of them seem to import the top layer."""
    if name in ("load", "target_device", "Library", "OffloadError"):
        return getattr(importlib.import_module("omp2gpu.api"), name)
    raise AttributeError(f"module 'omp2gpu' has no attribute '{name}'")
