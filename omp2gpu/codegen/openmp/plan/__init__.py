"""codegen.openmp.plan."""
