"""The OpenAPI spec: built from the IR by the emitted project's own builder, validated.

``openapi`` builds and dumps it, ``validate`` checks it (``cache`` remembers what
passed), ``text`` assembles its YAML and JSON texts from cached parts.
"""
