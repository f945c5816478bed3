"""The manifest: YAML with positions → schema and semantic checks → the IR.

The entry point is :func:`generator.manifest.load.load_manifest`.
"""
