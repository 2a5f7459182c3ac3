"""Thin wiring on top of the layers: the ``claims`` CLI and the HTTP app."""
