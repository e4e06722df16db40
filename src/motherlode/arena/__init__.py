"""Simulation and tournaments: playing many games between agents and studying them.

* :mod:`.play` — one game between agents (``play_game``);
* :mod:`.simulate` — many games and a summary (``motherlode simulate``);
* :mod:`.tournament` — fair schedules and self-contained game tasks;
* :mod:`.backends` — where tasks run: this process, local processes, Ray;
* :mod:`.store` — results stores (SQLite, Parquet), one row per game, resumable;
* :mod:`.ratings` — openskill ratings, win rates and head-to-head with intervals;
* :mod:`.runner` — a whole tournament (``motherlode arena``);
* :mod:`.analyse` — designer statistics by config (``motherlode analyse``);
* :mod:`.plot` — the PNG plots.
"""
