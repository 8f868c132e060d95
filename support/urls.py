"""The hand-over's routes, under /support/ (config/urls.py)."""

from django.urls import path

from support import views

app_name = "support"

urlpatterns = [
    path("ask", views.ask, name="ask"),
    path("", views.queue, name="queue"),
    path("<int:pk>/", views.conversation, name="conversation"),
    path("<int:pk>/take", views.take, name="take"),
    path("<int:pk>/say", views.say, name="say"),
    path("<int:pk>/propose", views.propose, name="propose"),
    path("<int:pk>/hand-back", views.hand_back, name="hand_back"),
    path("<int:pk>/close", views.close, name="close"),
]
