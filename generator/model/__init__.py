"""The intermediate representation (IR) every later step reads, and pure helpers on it.

``ir`` (frozen dataclasses), ``irdata`` (IR ↔ JSON data, for the recorded state),
``naming`` (name rules), ``samples`` (relation order, sample values) and
``kernel_fields`` (the IR's fields as the panel kernel declares them).
"""
