"""Django admin for every tournament model, with their change history (django-simple-history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from torneo.models import Pair, PairMember, Player, Session, Tournament, TournamentRole


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "start_date", "venue", "status", "rule_set", "games_to_win", "listed"]
    list_filter = ["status", "rule_set", "listed"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SessionInline, RoleInline]
    date_hierarchy = "start_date"


class MemberInline(admin.TabularInline):
    model = PairMember
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["identity_key"]


@admin.register(Pair)
class PairAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "status", "checked_in_at", "registered_at", "source"]
    list_filter = ["status", "source", "tournament"]
    search_fields = ["name", "members__player__normalized_name", "members__player__id_document"]
    inlines = [MemberInline]
    list_select_related = ["tournament"]

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        # Keep the denormalised tournament on members added here.
        for obj in formset.save(commit=False):
            obj.tournament_id = form.instance.tournament_id
            obj.save()
        formset.save_m2m()
        for obj in formset.deleted_objects:
            obj.delete()


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["full_name", "id_document", "club", "phone", "email", "user"]
    search_fields = ["normalized_name", "id_document", "email", "club"]
    autocomplete_fields = ["user"]


@admin.register(Session)
class SessionAdmin(SimpleHistoryAdmin):
    list_display = ["name", "tournament", "starts_at", "courtesy_minutes"]
    list_filter = ["tournament"]


@admin.register(TournamentRole)
class TournamentRoleAdmin(SimpleHistoryAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]
    autocomplete_fields = ["user", "tournament"]
