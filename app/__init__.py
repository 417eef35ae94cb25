"""Umbra: dark cooperative board games, played together in the browser."""
