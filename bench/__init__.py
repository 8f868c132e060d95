"""Benchmarks (issue 8, issue 3). Not tests: nothing here asserts on time.

Run them with ``bin/bench`` (see docs/benchmarks.md).
"""
