"""Doctest collection of the server package (``pytest --doctest-modules`` over ``src``).

The Alembic environment and migrations only run inside Alembic, and ``__main__`` starts a
server, so they are never imported by the collector; without the ``[server]`` extra the
modules that need it are skipped too.
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob = ["migrations/*", "migrations/versions/*", "__main__.py"]

if not all(importlib.util.find_spec(m) for m in ("fastapi", "sqlalchemy", "alembic", "jinja2")):
    collect_ignore_glob += ["app.py", "db.py", "service.py", "runtime.py", "forms.py", "cli.py"]
