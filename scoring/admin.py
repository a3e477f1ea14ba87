"""Django admin for results: every submitted version, read-only (changes go through the services)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import RecordedGame, RecordedHand, ResultSubmission


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(SimpleHistoryAdmin):
    list_display = ["match", "version", "status", "outcome", "games_a", "games_b", "submitted_by", "submitted_at"]
    list_filter = ["status", "outcome", "source"]
    list_select_related = ["match", "submitted_by"]
    readonly_fields = [f.name for f in ResultSubmission._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(RecordedGame)
class RecordedGameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "match"]
    list_select_related = ["match"]
    raw_id_fields = ["match"]


@admin.register(RecordedHand)
class RecordedHandAdmin(admin.ModelAdmin):
    list_display = ["__str__"]
    readonly_fields = [f.name for f in RecordedHand._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
