"""Django admin for every tournament model, with their change history (django-simple-history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from torneo.identity import identity_key
from torneo.models import Draw, Match, Pair, PairMember, Player, Round, Session, Tournament, TournamentRole


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

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if obj.number is None:  # the next number in the tournament, as the services do
            last = Pair.objects.filter(tournament=obj.tournament).order_by("-number").first()
            obj.number = (last.number if last else 0) + 1
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        # Keep the denormalised tournament and the one-pair-per-person key on members added here.
        for obj in formset.save(commit=False):
            obj.tournament_id = form.instance.tournament_id
            if form.instance.is_active:
                player = obj.player
                obj.identity_key = identity_key(
                    document=player.id_document, first_name=player.first_name, last_name=player.last_name
                )
            obj.save()
        formset.save_m2m()
        for obj in formset.deleted_objects:
            obj.delete()


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["full_name", "tournament", "id_document", "club", "phone", "email", "user"]
    list_filter = ["tournament"]
    search_fields = ["normalized_name", "id_document", "email", "club"]
    list_select_related = ["tournament"]
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


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["pool", "table_number", "slot", "pair_a", "pair_b", "outcome", "games_a", "games_b", "winner"]
    readonly_fields = fields  # results change only through the results services (versions)
    can_delete = False
    show_change_link = True


class DrawInline(admin.StackedInline):
    model = Draw
    extra = 0
    fields = ["status", "commitment", "public_value", "seed", "witness", "published_at", "replaces", "reason"]
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "kind", "phase", "is_final", "status", "published_at"]
    list_filter = ["status", "kind", "tournament"]
    inlines = [DrawInline, MatchInline]
    list_select_related = ["tournament"]


@admin.register(Draw)
class DrawAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "status", "commitment", "public_value", "published_at"]
    list_filter = ["status"]
    readonly_fields = ["secret", "commitment", "requests", "results", "seed", "public_value", "replaces"]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "round", "table_number", "outcome", "games_a", "games_b", "winner"]
    list_filter = ["outcome", "round__tournament"]
    search_fields = ["pair_a__name", "pair_b__name"]
    list_select_related = ["round", "pair_a", "pair_b", "winner"]
    raw_id_fields = ["pair_a", "pair_b", "winner", "draw"]
