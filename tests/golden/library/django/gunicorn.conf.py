"""gunicorn's settings for this project: ``gunicorn config.wsgi`` reads this file itself.

gunicorn answers requests over its limits with its own HTML pages; these limits let
through every request the panel's API takes (its OpenAPI spec), so the panel answers
them, in JSON. Options on the command line (or ``GUNICORN_CMD_ARGS``) still win.

- A mass delete may name ``MAX_MASS_DELETE`` keys (500) in its query string: with UUID
  keys about 24 KB, more than the longest request line gunicorn can be told to take
  (8190 bytes), so the request line is not limited (0). A proxy in front has its own
  limit (nginx: 8 KB, ``large_client_header_buffers``); for large sets, send the keys
  in a JSON body instead: ``DELETE …/crud`` with ``{"ids": [...]}``.
- A header may be up to 16 KiB (long cookies, long tokens), as under uvicorn.
"""

limit_request_line = 0
limit_request_field_size = 16 * 1024
