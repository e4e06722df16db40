"""Research tools over the games: wrappers between ecosystems, trajectories, a Gymnasium
single-agent environment (see docs/research.md).

* :mod:`.wrappers`: a motherlode agent as a ``pyspiel.Bot``; an OpenSpiel bot or policy,
  or a PettingZoo-style policy, as a motherlode agent (needs the ``[openspiel]`` extra
  for the OpenSpiel parts);
* :mod:`.trajectories`: game records of tournaments and simulations, and their export as
  a Parquet dataset of steps (needs ``pyarrow``);
* :mod:`.gym`: ``MotherlodeSingleAgentEnv``, one seat against built-in opponents, with an
  optional dense reward (needs the ``[pettingzoo]`` extra's ``gymnasium``).
"""
