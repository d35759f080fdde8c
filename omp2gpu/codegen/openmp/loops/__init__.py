"""codegen.openmp.loops."""
