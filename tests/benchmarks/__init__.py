"""panelforge's benchmark suite (issue 8): run ``tests/benchmarks/run.py``.

Not collected by pytest (``tests/benchmarks`` is in ``norecursedirs``) and free of
conftest files: nothing here asserts timings.
"""
