"""Semantic analysis: C types, declarations, constant expressions, OpenMP captures."""
