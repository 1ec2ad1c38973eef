"""Botzone match-log JSON samples (package data)."""
