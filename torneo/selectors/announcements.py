"""What the hall's screen and the tournament's page show: the announcements, newest first, and the
rounds the projector's turn is made of (torneo/views/projector.py)."""

from dataclasses import dataclass

from torneo.models import Announcement, Round, Tournament


def announcements_of(tournament: Tournament) -> list[Announcement]:
    """The tournament's announcements, newest first (with who wrote each, for the staff's page)."""
    return list(Announcement.objects.filter(tournament=tournament).select_related("created_by"))


@dataclass(frozen=True)
class ProjectorRounds:
    """The rounds the projector shows: the latest one (its draw: committed, or published), and
    whether any round is published (then there are clocks and standings to show)."""

    latest: int | None
    published: bool


def projector_rounds(tournament: Tournament) -> ProjectorRounds:
    rounds = Round.objects.filter(tournament=tournament)
    latest = rounds.order_by("-number").values_list("number", flat=True).first()
    published = rounds.filter(status=Round.Status.PUBLISHED).exists()
    return ProjectorRounds(latest, published)
