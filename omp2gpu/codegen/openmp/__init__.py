"""OpenMP code-generation schemes: one module, one class per scheme (hooks.py is the interface)."""
