"""Command-line tools: `omp2gpu run` / `omp2gpu compile` (cli)."""
