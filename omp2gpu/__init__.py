"""omp2gpu: an OpenMP 4.5 offload compiler for C, written in Python.

The pipeline, one package per stage (see docs/architecture.md):
frontend -> sema -> codegen (+ codegen.openmp schemes) -> targets -> offload -> tools.
"""

__version__ = "0.1.0"
