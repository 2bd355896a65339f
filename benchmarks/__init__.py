"""Benchmarks: runners that print figures, never timed tests."""
