"""Simulation and tournaments: playing many games between agents and summarising them."""
