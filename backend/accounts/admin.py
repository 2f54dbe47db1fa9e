from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    list_display = ("username", "email", "is_staff", "is_active", "date_joined", "last_login")
