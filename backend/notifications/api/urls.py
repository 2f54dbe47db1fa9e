from django.urls import path

from . import views

urlpatterns = [
    path("", views.SettingsView.as_view(), name="notifications"),
    path("devices/", views.DevicesView.as_view(), name="notifications-devices"),
    path("devices/<int:device_id>/", views.DeviceView.as_view(), name="notifications-device"),
]
