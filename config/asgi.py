"""ASGI entry point: HTTP through Django, WebSockets through Channels.

A WebSocket must come from a page of this site — the same scheme, host and port,
or one of CSRF_TRUSTED_ORIGINS (config/websocket_origin.py): a page on another
site or port cannot open the customer's chat — and carries the session's user
(AuthMiddlewareStack); the consumer refuses anonymous sockets.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: they load models.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket_origin import SameOriginOnly  # noqa: E402

application = ProtocolTypeRouter(
    {
        # One process serves its own CSS and JS (the embedded default, with or
        # without DEBUG); a deployment with a proxy can serve /static/ in front.
        "http": ASGIStaticFilesHandler(django_asgi_app),
        # types-channels asks for its private _ExtendedURLPattern, which path() never returns.
        "websocket": SameOriginOnly(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),  # type: ignore[arg-type]
    }
)
