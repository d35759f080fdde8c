"""codegen.openmp.host."""
