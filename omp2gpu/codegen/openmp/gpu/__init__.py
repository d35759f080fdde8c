"""codegen.openmp.gpu."""
