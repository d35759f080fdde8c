"""codegen.openmp.gpu.control_loop."""
