"""The bot that fills an empty Dark Omen seat and measures the engine (``bench.py``): it
plays only from the prompts, the same legal choices a person sees (``heuristic.py``)."""

from app.games.dark_omen.bot.heuristic import choose

__all__ = ["choose"]
