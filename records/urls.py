from django.urls import path

from records import views

urlpatterns = [
    path("torneos/<slug:slug>/registro.json", views.record_download, name="record_download"),
    path("acerca/", views.about, name="about"),
]
