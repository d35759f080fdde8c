"""codegen.openmp.data."""
