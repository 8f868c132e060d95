"""Benchmarks (issue 8, issue 3). Not tests: nothing here asserts on time.

Run them with ``bin/bench`` (see docs/benchmarks.md).
"""

# The title of the conversations whose turns the bench workers (bench/asgi.py) play
# through the naive harness: benchmark (c)'s comparison. Only the setup makes them.
NAIVE_TITLE = "bench: naive harness"
