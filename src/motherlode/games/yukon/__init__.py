"""Yukon with its Townsfolk expansion (../shared/rulebooks/yukon.txt)."""

from motherlode.games.yukon.game import YukonGame, YukonState

GAME = YukonGame

__all__ = ["GAME", "YukonGame", "YukonState"]
