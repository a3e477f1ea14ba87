"""A notification sent (torneo/notices.py): one row per event and pair, so that each is sent once
whatever the number of ticks, retries or workers that see the event."""

from django.db import models


class Notice(models.Model):
    # «ronda:<round id>:<pair id>», «confirmar:<submission id>», «reloj:<match id>:6.4:<pair id>»…
    key = models.CharField(max_length=100, unique=True)
    sent_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key
