"""frontend.openmp."""
