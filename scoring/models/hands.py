"""Recorded hands (manos anotadas) of a match, validated by the mus engine."""

__all__: list[str] = []
