"""codegen.openmp.atomics."""
