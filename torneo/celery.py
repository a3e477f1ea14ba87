"""The Celery application, configured from Django settings (CELERY_ namespace)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")

app = Celery("torneo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
