"""The state of the background machinery (Celery worker and beat)."""

from datetime import timedelta

from django.utils import timezone

from torneo.models import WorkerHeartbeat

HEARTBEAT_SECONDS = 10
# Beat every 10 s; three missed beats and the dashboard warns.
STALE_AFTER = timedelta(seconds=3 * HEARTBEAT_SECONDS)


def heartbeat_record(*, name: str) -> WorkerHeartbeat:
    beat, _ = WorkerHeartbeat.objects.update_or_create(name=name, defaults={"beat_at": timezone.now()})
    return beat


def heartbeat_age(*, name: str = "beat") -> timedelta | None:
    """How long ago the worker last ran the beat's task; None if never."""
    beat = WorkerHeartbeat.objects.filter(name=name).first()
    return None if beat is None else timezone.now() - beat.beat_at
