from django.urls import path

from cardsite.rules import views

app_name = "rules"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:game>/", views.game, name="game"),
]
