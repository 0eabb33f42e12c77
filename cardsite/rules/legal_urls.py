from django.urls import path

from cardsite.rules import views

app_name = "legal"

urlpatterns = [
    path("<slug:slug>/", views.legal, name="page"),
]
