"""A project panelforge generated before: its record, merges, migrations and drift.

``state`` reads and writes ``.panelforge/``; ``changes`` decides what each file
becomes (pure); ``merge`` is the three-way merge; ``inplace`` updates or checks a
project on disk; ``stamps`` recognises a rerun with nothing to do; ``migrations`` diffs
the recorded tables with the new ones; ``drift`` holds the rules of ``check``.
"""
