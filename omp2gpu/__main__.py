"""`python -m omp2gpu` is the `omp2gpu` command."""

import sys

from omp2gpu.tools.cli import main

sys.exit(main())
