"""Moved to tutor.engine.cfg: the modules here are aliases of the engine's, kept for existing imports."""
