"""Adapters to the research ecosystem: OpenSpiel and PettingZoo.

Each adapter lives in its own module and imports its library only when imported, so a
plain install (without the ``[openspiel]`` / ``[pettingzoo]`` extras) never needs them:

* :mod:`motherlode.adapters.openspiel` registers every game as an OpenSpiel Python game
  (``pyspiel.load_game("python_motherlode_yukon(players=3)")``);
* :mod:`motherlode.adapters.pettingzoo` makes a PettingZoo AEC environment per game
  (``motherlode.adapters.pettingzoo.env("chinagold")``).

The configuration codec shared by both (a game's pydantic config as flat scalar
parameters) is :mod:`motherlode.adapters.params`.
"""
