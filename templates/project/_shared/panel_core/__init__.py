"""The framework-neutral panel kernel: fields, resources, list queries, the spec,
the route table and URL helpers (``routes``, ``pages``, ``navigation``, ``endpoints``,
``page_links``), the current request (``current``), CSV text and imports
(``csv_text``, ``imports``, and the import page's preview: ``import_page``), async methods' names and answers (``methods``), the
panel's exceptions (``errors``), request bodies checked with Pydantic (``inputs``,
``passwords``), logins (``credentials``), the list answer (``pagination``), and what
pages show: URLs and safe redirect targets (``urls``), table cells (``table``), form
inputs (``forms``), records' names (``labels``) and pickers (``choices``), each
page's context (``resource_pages``). The pages' templates and static files live in
the package too (``assets``).

Nothing in this package imports a web framework or an ORM (Pydantic is neither), so
the same files serve the FastAPI and the Django projects, and panelforge itself runs
the OpenAPI builder at generation time on exactly this code.
"""
