"""WSGI entry point (the app is served by Daphne through asgi.py; this is for tools that want WSGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
