"""Files in memory and on disk: plans, Jinja, black, the copier skeleton, the writer.

``plan`` and ``output`` are the in-memory file set; ``jinja`` and ``format`` render and
format it; ``skeleton`` (with ``skeleton_cache``) is the only caller of copier;
``writer`` is the only module that writes a project.
"""
