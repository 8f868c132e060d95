from django.urls import path

from lab import views

app_name = "lab"

urlpatterns = [
    path("", views.lab_index, name="index"),
    path("scores/", views.lab_scores, name="scores"),
    path("<slug:scenario_id>/", views.lab_scenario, name="scenario"),
]
