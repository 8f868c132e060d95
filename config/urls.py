"""Every HTTP route: the chat's pages and posts, sign-in, admin, the lab, support and /healthz."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from bankbot import views
from config.health import healthz
from lab.landing import SignInView

urlpatterns = [
    path("", views.home, name="home"),
    path("c/new", views.conversation_new, name="conversation_new"),
    path("c/<uuid:public_id>/", views.conversation_detail, name="conversation"),
    path("messages/", views.message_send, name="message_send"),
    path("statement/", views.statement, name="statement"),
    path("proposals/<uuid:public_id>/", views.proposal_detail, name="proposal_detail"),
    path("proposals/<uuid:public_id>/confirm", views.proposal_confirm_view, name="proposal_confirm"),
    path("proposals/<uuid:public_id>/decline", views.proposal_decline_view, name="proposal_decline"),
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("lab/", include("lab.urls")),
    path("support/", include("support.urls")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

# Rendered after the middleware: they answer a database outage themselves.
handler403 = "bankbot.outage.permission_denied"
handler404 = "bankbot.outage.page_not_found"
