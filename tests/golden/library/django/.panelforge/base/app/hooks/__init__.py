"""Your resources: each module subclasses a generated resource and is never overwritten.

Loading the registry first lets a hook module be imported on its own without a
circular import (the registry imports the hooks).
"""

import app.resources  # noqa: F401
