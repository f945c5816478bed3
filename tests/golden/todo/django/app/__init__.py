"""The project's own app: the resources' models, and your hooks on them."""
