"""Chat: who may write and read which channel, checks on a message, history, removal and mutes.

Synchronous database work, called from the admin and from the match's and
the lobby's chat (backend/matches/chat.py, backend/lobbies/chat.py), which
check who may write where and call in here: chat knows neither app. Nothing
here sends: a poster passes `on_commit`, called with the frame once the
message is committed (the lobby publishes it to the room's group, the match
socket hands it to the match runtime); a removal is announced once committed
with the `message_removed` signal (backend/chat/signals.py).

Channels (docs/api.md, Chat):
- a match's `table`: its seated players write; everyone watching reads;
- a match's `spectators`: signed-in spectators write; spectators read, and
  players too once the match has ended (never while it runs: nobody can be
  coached);
- a lobby room's `lobby`: signed-in viewers of the room write (not users
  its host kicked); every viewer reads; its host may remove a message.
Visitors who are not signed in read what their place lets them, and write nothing.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from backend.common.errors import AppError

from .models import ChatMessage, ChatMute
from .signals import message_removed

TABLE, SPECTATORS, LOBBY = ChatMessage.Channel.TABLE.value, ChatMessage.Channel.SPECTATORS.value, "lobby"


def _format(message, params: dict) -> str:
    return str(message) % params


# Refusals are worded when sent, in the language of the connection that receives them
# (a database thread does not share the socket's language).
_format_lazy = lazy(_format, str)


def _formatted(message, **params):
    return _format_lazy(message, params)


# ---- who sees what ------------------------------------------------------------
def match_channels(seated: bool, active: bool) -> tuple[str, ...]:
    """The channels of a match a viewer reads: a player of a running match only its table."""
    return (TABLE,) if seated and active else (TABLE, SPECTATORS)


def may_read(channel: str, seated: bool, active: bool) -> bool:
    return channel in match_channels(seated, active)


# Control characters (Cc) become spaces, lone surrogates (Cs) the replacement character.
_CLEAN = {"Cc": " ", "Cs": "\ufffd"}


# ---- the author and the text ----------------------------------------------------
def require_author(user) -> None:
    """Only the signed-in write (or remove)."""
    if user is None or not user.is_authenticated:
        raise AppError("unauthenticated", _("Log in to chat."))


def clean_text(text) -> str:
    """The message as stored: one line of plain text, trimmed; refused when empty or too long.

    Control characters (line breaks included) become spaces and lone
    surrogates (JSON allows them, UTF-8 does not) the replacement character.
    Nothing is escaped here: the text is data, and clients render it as text."""
    if not isinstance(text, str):
        raise AppError("bad_message", _('"text" must be a string.'))
    text = "".join(_CLEAN.get(unicodedata.category(c), c) for c in text).strip()
    if not text:
        raise AppError("chat_empty", _("Write something first."))
    if len(text) > settings.CHAT_MAX_CHARS:
        raise AppError("chat_too_long", _formatted(_("A chat message is limited to %(count)s characters."),
                                                   count=settings.CHAT_MAX_CHARS))
    return text


def _check_rate(author_id: int) -> None:
    """At most CHAT_RATE messages in CHAT_RATE_WINDOW_S seconds per user, over every channel and
    process (counted in the table itself, so it holds across sockets and servers)."""
    window = timedelta(seconds=settings.CHAT_RATE_WINDOW_S)
    since = timezone.now() - window
    recent = list(ChatMessage.objects.filter(author_id=author_id, created_at__gt=since)
                  .order_by("-created_at").values_list("created_at", flat=True)[: settings.CHAT_RATE])
    if len(recent) >= settings.CHAT_RATE:
        wait = (recent[-1] + window - timezone.now()).total_seconds()
        raise AppError("chat_rate_limited",
                       _formatted(_("You are writing too fast; wait %(seconds)s s."), seconds=max(1, round(wait))),
                       retry_after=max(1, round(wait)))


# ---- frames -------------------------------------------------------------------
def message_data(message: ChatMessage, author_name: str) -> dict:
    return {"id": message.pk, "channel": message.channel, "author": {"id": message.author_id, "name": author_name},
            "text": message.text, "at": message.created_at.isoformat()}


def chat_frame(data: dict) -> dict:
    return {"type": "chat", "message": data}


def removed_frame(message: ChatMessage) -> dict:
    return {"type": "chat_removed", "id": message.pk, "channel": message.channel}


# ---- posting ------------------------------------------------------------------
def post(author, text: str, on_commit, also=None, **where) -> dict:
    """Store a checked message (`text` as clean_text returned it) in `where` (match_id and channel, or
    lobby_id and channel), once the author is within the rate; its `chat` frame. `also(message)` runs in
    the message's own transaction (the match's chat writes its notifications there)."""
    _check_rate(author.pk)
    with transaction.atomic():
        message = ChatMessage.objects.create(author=author, text=text, **where)
        if also is not None:
            also(message)
        frame = chat_frame(message_data(message, author.get_username()))
        if on_commit is not None:
            # Robust: the line is stored; a channel layer that is away loses only its live delivery (logged).
            transaction.on_commit(lambda: on_commit(frame), robust=True)
    return frame


# ---- removal ------------------------------------------------------------------
def message_id(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise AppError("bad_message", _('"id" must be a message\'s number.'))
    return value


def remove_one(by, pk: int, **where) -> dict:
    """Remove message `pk` if it is in `where` (lobby_id=...); the caller's checks may share the transaction."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=pk, **where).first()
        if message is None:
            raise AppError("not_found", _("There is no such message."))
        return _remove(message, by)


def remove(messages, by) -> list[dict]:
    """Staff remove messages (the admin)."""
    with transaction.atomic():
        return [_remove(m, by) for m in messages]


def _remove(message: ChatMessage, by) -> dict:
    """The `chat_removed` frame; the sockets hear of a new removal from `message_removed` after the commit."""
    frame = removed_frame(message)
    if message.removed_at is None:
        message.removed_at, message.removed_by = timezone.now(), by
        message.save(update_fields=["removed_at", "removed_by"])
        # Robust, as a post's: the removal is stored; a channel layer that is away loses only the live news.
        transaction.on_commit(lambda: message_removed.send(ChatMessage, match_id=message.match_id,
                                                           lobby_id=message.lobby_id, frame=frame), robust=True)
    return frame


# ---- history and mutes --------------------------------------------------------
def match_history(match_id: int, seated: bool, active: bool, viewer_id: int | None) -> dict:
    """The `chat_history` frame of a match viewer: the newest CHAT_HISTORY messages it may
    read, oldest first, without removed ones and those of authors it muted; and its mutes."""
    muted = mutes(viewer_id)
    rows = (ChatMessage.objects.filter(match_id=match_id, channel__in=match_channels(seated, active),
                                       removed_at__isnull=True)
            .exclude(author_id__in=muted))
    return _history_frame(rows, muted)


def lobby_history(lobby_id: int, viewer_id: int | None) -> dict:
    """A lobby room's history (the caller checked that the viewer may see the room)."""
    muted = mutes(viewer_id)
    rows = ChatMessage.objects.filter(lobby_id=lobby_id, removed_at__isnull=True).exclude(author_id__in=muted)
    return _history_frame(rows, muted)


def _history_frame(rows, muted: set[int]) -> dict:
    """`muted` names each muted user too, so the panel can offer to unmute them."""
    newest = list(rows.select_related("author").order_by("-id")[: settings.CHAT_HISTORY])
    User = get_user_model()
    names = dict(User.objects.filter(pk__in=muted).values_list("pk", User.USERNAME_FIELD)) if muted else {}
    return {"type": "chat_history", "messages": [message_data(m, m.author.get_username()) for m in reversed(newest)],
            "muted": [{"id": pk, "name": names[pk]} for pk in sorted(names)]}


def mutes(user_id: int | None) -> set[int]:
    if user_id is None:
        return set()
    return set(ChatMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def set_mute(user_id: int | None, other_id, muted: bool) -> dict:
    """Mute (or unmute) another user for oneself; the `chat_muted` frame."""
    if user_id is None:
        raise AppError("unauthenticated", _("Log in to chat."))
    if not isinstance(other_id, int) or isinstance(other_id, bool) or not isinstance(muted, bool):
        raise AppError("bad_message", _('"user" must be a user\'s number and "muted" true or false.'))
    if other_id == user_id:
        raise AppError("bad_message", _("You cannot mute yourself."))
    other = get_user_model().objects.filter(pk=other_id).first()
    if other is None:
        raise AppError("not_found", _("There is no such user."))
    if muted:
        ChatMute.objects.get_or_create(user_id=user_id, muted_id=other_id)
    else:
        ChatMute.objects.filter(user_id=user_id, muted_id=other_id).delete()
    return {"type": "chat_muted", "user": other_id, "name": other.get_username(), "muted": muted}
