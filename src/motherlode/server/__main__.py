"""``python -m motherlode.server --port 8000 --db motherlode.db``."""

from motherlode.server.cli import main

raise SystemExit(main())
