"""Front end: preprocess, parse with pycparser, attach `#pragma omp` to statements."""
