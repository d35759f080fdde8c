"""Targets: turn LLVM IR into something that runs.

host: optimisation with the new pass manager, object files and assembly for the
machine omp2gpu runs on.
"""
