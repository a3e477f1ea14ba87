"""WSGI entry point (gunicorn torneo.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")
application = get_wsgi_application()
