"""Staff read and remove chat messages in the admin; a removal reaches the open
sockets (the message disappears from their panels) once committed."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from . import services
from .models import ChatMessage, ChatMute


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "author", "channel", "match_id", "lobby_id", "text", "removed_at")
    list_filter = ("channel", ("removed_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username")
    raw_id_fields = ("match", "lobby", "author", "removed_by")
    readonly_fields = ("created_at", "removed_at", "removed_by")
    actions = ("remove_messages",)

    @admin.action(description=_("Remove the selected messages from the chat"))
    def remove_messages(self, request, queryset):
        removed = services.remove(list(queryset), request.user)
        self.message_user(request, _("%(count)s messages removed.") % {"count": len(removed)})

    def has_add_permission(self, request):
        return False  # messages are written at the table, not here


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("user", "muted", "created_at")
    raw_id_fields = ("user", "muted")
