"""omp2gpu: an OpenMP 4.5/5.x offload compiler for C, written in Python.

The pipeline, one package per stage (see docs/architecture.md):
frontend -> sema -> codegen (+ codegen.openmp schemes) -> targets -> offload -> tools.
"""

import importlib

__version__ = "0.1.0"


# The Python API's names (omp2gpu/api/) and CompileError (the exception load() raises for an
# error in the C file), imported on first use: by name, because every module that reads
# __version__ imports this package, and a plain import here would make each of them seem
# to import the top layer.
_API = {"load": "omp2gpu.api", "target_device": "omp2gpu.api", "Library": "omp2gpu.api",
        "OffloadError": "omp2gpu.api", "CompileError": "omp2gpu.diagnostics"}


def __getattr__(name: str):
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'omp2gpu' has no attribute '{name}'")


def __dir__() -> list[str]:
    """What a user can reach: the API's names beside the package's own."""
    return sorted({*globals(), *_API})
