"""The motherlode web platform: lobby, match pages, WebSocket play, replays, fair dice.

``motherlode serve`` runs :func:`motherlode.server.cli.serve`. The pieces:

* :mod:`.fairness`   seeds, their SHA-256 commitments, and the re-play that verifies them
  (no web dependencies: ``motherlode verify`` uses it too);
* :mod:`.db`         the SQLAlchemy tables (matches, seats, the append-only move log) and
  the Alembic migrations that create them;
* :mod:`.runtime`    one running match: its state rebuilt from the log (event sourcing),
  chance drawn from the match's seeded RNG, per-seat views, undo;
* :mod:`.service`    all matches: creation, moves serialized per match, bots, broadcasting;
* :mod:`.app`        the FastAPI application: HTML pages, the JSON API, the WebSocket.
"""
