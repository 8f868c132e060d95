from django.urls import path

from lab import views
from lab.playground import lab_playground

app_name = "lab"

urlpatterns = [
    path("", views.lab_index, name="index"),
    path("scores/", views.lab_scores, name="scores"),
    path("playground/", lab_playground, name="playground"),
    path("<slug:scenario_id>/", views.lab_scenario, name="scenario"),
]
