"""URL patterns (filled in by the feature that owns this file)."""

urlpatterns: list = []
