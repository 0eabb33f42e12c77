from django.contrib import admin

from cardsite.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "is_guest")
    list_filter = ("language", "is_guest")
    search_fields = ("user__username", "display_name")
