"""codegen.openmp.cpu."""
