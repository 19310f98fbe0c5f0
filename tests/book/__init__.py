"""Checks of the built book (_build/html, _build/jupyter, _build/student, _build/slides), in files
and in Chromium, and of the Sphinx extensions and tools that build it."""
