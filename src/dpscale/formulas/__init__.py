"""Formulas and models: pure functions, numpy-friendly, no I/O. Imports nothing above this layer."""
