"""Whole texts: sentence splitting, notes on patterns outside §A13, and the check of a text."""
