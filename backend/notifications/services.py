"""Devices, choices, and the worker's side of the outbox (docs/notifications.md).

Rows are written where their cause is committed (backend/matches/store.py for
a move, create_match, the rematch, a chat line); here they are claimed,
turned into words in the user's language and handed to a sender.  Words come
from the match's public facts only (the game, the id, the players' names):
never from its state, so no notice can tell a hand, a noble or a bid.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from backend.common.errors import AppError
from backend.engines import get_engine
from backend.games.catalog import display_name
from backend.matches import clock as clocks
from backend.matches import store
from backend.matches.domain import public_asked
from backend.matches.models import Match, MatchSeat

from .models import CHAT, KINDS, MATCH_END, MATCH_START, REMATCH, YOUR_MOVE, Outbox, Preferences, Subscription, enqueue

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


# ---- choices and devices ---------------------------------------------------------
def preferences(user) -> Preferences:
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


def set_preferences(user, push: list | None = None, email: list | None = None) -> Preferences:
    for value in (push, email):
        if value is not None and (not isinstance(value, list) or not set(value) <= set(KINDS)):
            raise AppError("bad_message", _("Choose among: %(kinds)s.") % {"kinds": ", ".join(KINDS)})
    prefs = preferences(user)
    if push is not None:
        prefs.push = [k for k in KINDS if k in push]
    if email is not None:
        prefs.email = [k for k in KINDS if k in email]
    prefs.save()
    return prefs


def push_endpoint_allowed(endpoint: str) -> bool:
    """The worker posts to this address: only https on a push service's host
    (NOTIFY_PUSH_HOSTS, suffixes), never a server of the subscriber's choosing."""
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" and not (settings.NOTIFY_PUSH_ALLOW_HTTP and parts.scheme == "http"):
        return False
    return any(host == suffix or host.endswith("." + suffix) for suffix in settings.NOTIFY_PUSH_HOSTS)


def add_device(user, endpoint: str, p256dh: str, auth: str, label: str = "") -> Subscription:
    """Subscribe a device; the same endpoint again (a browser renews it, or another account
    signs in on it) is the same device, now this user's."""
    if not push_endpoint_allowed(endpoint):
        raise AppError("bad_message", _("This push service is not one the site sends to."))
    device, _created = Subscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:100]})
    return device


def devices(user) -> list[Subscription]:
    return list(Subscription.objects.filter(user=user).order_by("created_at", "id"))


def remove_device(user, device_id: int) -> None:
    if not Subscription.objects.filter(user=user, pk=device_id).delete()[0]:
        raise AppError("not_found", _("There is no such device."))


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_email(token: str):
    """Stop every e-mail to the token's user (the one-click link of each mail); returns the user."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"]
    except (signing.BadSignature, KeyError, TypeError):
        raise AppError("bad_message", _("This unsubscribe link is not valid.")) from None
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise AppError("bad_message", _("This unsubscribe link is not valid."))
    set_preferences(user, email=[])
    Outbox.objects.filter(user=user, email_due=True).update(email_due=False)
    return user


# ---- causes heard of from other apps ---------------------------------------------------
def on_match_finished(sender, match_ids: list[int], **kwargs) -> None:
    """signals.match_finished: heard several times per finish; the outbox's unique key makes it one row."""
    rows = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED).values_list("pk", "version",
                                                                                         "time_control")
    for match_id, version, time_control in rows:
        if clocks.is_turn_based(time_control):
            users = MatchSeat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True)
            enqueue(MATCH_END, list(users), match_id, version)


# ---- words -----------------------------------------------------------------------
@dataclass(frozen=True)
class Notice:
    title: str
    body: str
    url: str  # a path of the web app
    tag: str  # a newer notice with the same tag replaces the older on the device

    def payload(self) -> bytes:
        return json.dumps({"title": self.title, "body": self.body, "url": self.url, "tag": self.tag},
                          ensure_ascii=False, sort_keys=True).encode()


def _facts(match_id: int) -> dict | None:
    """The public facts a notice may use: the game and the players' names."""
    match = Match.objects.filter(pk=match_id).values("game", "status").first()
    if match is None:
        return None
    seats = MatchSeat.objects.filter(match_id=match_id).select_related("user").order_by("seat")
    return {"game": match["game"], "status": match["status"],
            "players": [(s.user_id, s.user.get_username() if s.user_id else s.bot) for s in seats]}


def compose(row: Outbox, language: str) -> Notice | None:
    """The notice for `row` in `language`; None when its match is gone."""
    facts = _facts(row.match_id)
    if facts is None:
        return None
    with translation.override(language):
        game = display_name(get_engine(facts["game"]))
        others = ", ".join(name for user, name in facts["players"] if user != row.user_id)
        params = {"game": game, "others": others, "id": row.match_id}
        url = f"/match/{row.match_id}"
        if row.kind == YOUR_MOVE:
            return Notice(_("Your move"), _("%(game)s #%(id)s with %(others)s: it is your move.") % params, url,
                          f"match-{row.match_id}")
        if row.kind == MATCH_START:
            return Notice(_("A match started"), _("%(game)s #%(id)s with %(others)s has started.") % params, url,
                          f"match-{row.match_id}")
        if row.kind == MATCH_END:
            return Notice(_("A match ended"), _("%(game)s #%(id)s with %(others)s is over.") % params,
                          f"/match/{row.match_id}", f"match-{row.match_id}")
        if row.kind == REMATCH:
            return Notice(_("Rematch?"), _("A rematch of %(game)s #%(id)s is waiting for you.") % params,
                          f"/lobby/{int(row.extra.get('lobby', 0))}", f"rematch-{row.match_id}")
        if row.kind == CHAT:
            params["name"] = str(row.extra.get("from", ""))
            return Notice(_("%(name)s wrote to you") % params,
                          _("%(name)s wrote to you in %(game)s #%(id)s.") % params, url, f"chat-{row.match_id}")
    return None


def still_waiting(row: Outbox) -> bool:
    """A your-move notice not yet overtaken: the match goes on and the user's seat is still asked
    (what every viewer sees asked)."""
    if row.kind != YOUR_MOVE:
        return True
    match = Match.objects.filter(pk=row.match_id).values("game", "status").first()
    if match is None or match["status"] != Match.Status.ACTIVE:
        return False
    seats = MatchSeat.objects.filter(match_id=row.match_id, user_id=row.user_id).values_list("seat", flat=True)
    state = store.read_state(row.match_id)  # the stored state is that of a version every few
    return bool(set(seats) & set(public_asked(get_engine(match["game"]), state)))


def language_of(user) -> str:
    return user.language or settings.LANGUAGE_CODE


# ---- the worker's side ----------------------------------------------------------------
_OUTBOX = Outbox._meta.db_table
_CLAIM_PG = (f"UPDATE {_OUTBOX} SET lease_until = %s, attempts = attempts + 1 WHERE id IN"
             f" (SELECT id FROM {_OUTBOX} WHERE done_at IS NULL AND due_at <= %s"
             " AND (lease_until IS NULL OR lease_until <= %s) ORDER BY due_at, id LIMIT %s FOR UPDATE SKIP LOCKED)"
             " RETURNING id")
_CLAIM_SQLITE = _CLAIM_PG.replace(" FOR UPDATE SKIP LOCKED", "")


def claim(limit: int, lease_s: float) -> list[int]:
    """Due rows nobody holds, leased to this worker for `lease_s`: another worker skips them
    (PostgreSQL: rows locked by a concurrent claim are skipped, not waited for; SQLite has
    one writer at a time). A worker that dies holding a lease frees the rows when it runs out."""
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_CLAIM_PG if connection.vendor == "postgresql" else _CLAIM_SQLITE,
                       [now + timedelta(seconds=lease_s), now, now, limit])
        return sorted(row[0] for row in cursor.fetchall())


# What a push service's answer means for one device.
SENT, GONE, REFUSED, LATER = "sent", "gone", "refused", "later"


def outcome_of(status: int | None) -> str:
    if status is not None and 200 <= status < 300:
        return SENT
    if status in (404, 410):  # the subscription expired or was withdrawn: never again
        return GONE
    if status is None or status == 429 or status >= 500:  # no answer, busy, or down: try again later
        return LATER
    return REFUSED  # the message itself is wrong for it (400, 403, 413): trying again changes nothing


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(settings.NOTIFY_RETRY_BASE_S * 2 ** max(attempts - 1, 0), settings.NOTIFY_RETRY_MAX_S))


def deliver(row_id: int, send) -> str:
    """Serve one claimed row: `send(subscription, notice) -> HTTP status or None` for each
    device not yet served, each success recorded at once (a retry, or another worker after
    this one died, serves only the rest). Returns "done" or "retry"."""
    row = Outbox.objects.select_related("user").filter(pk=row_id, done_at__isnull=True).first()
    if row is None:
        return "done"
    user = row.user
    prefs = preferences(user)
    now = timezone.now()
    if not still_waiting(row):
        Outbox.objects.filter(pk=row.pk).update(done_at=now, lease_until=None)
        return "done"
    if row.kind in prefs.email and user.email and not row.email_due:
        Outbox.objects.filter(pk=row.pk).update(email_due=True)
    later = []
    if row.kind in prefs.push and settings.VAPID_PRIVATE_KEY:  # no key pair: the site sends no push at all
        notice = compose(row, language_of(user))
        served = set(row.sent_to)
        for device in Subscription.objects.filter(user=user).exclude(pk__in=served).order_by("id"):
            if notice is None:
                break
            outcome = outcome_of(send(device, notice))
            if outcome == GONE:
                device.delete()
            elif outcome == LATER:
                later.append(device.pk)
            else:
                if outcome == REFUSED:
                    log.warning("push service refused notice %s for device %s", row.pk, device.pk)
                served.add(device.pk)
                Outbox.objects.filter(pk=row.pk).update(sent_to=sorted(served))
    if later and row.attempts < settings.NOTIFY_MAX_ATTEMPTS:
        Outbox.objects.filter(pk=row.pk).update(due_at=now + backoff(row.attempts), lease_until=None,
                                                last_error=f"devices {later}: no answer or busy")
        return "retry"
    Outbox.objects.filter(pk=row.pk).update(done_at=now, lease_until=None,
                                            last_error=f"gave up on devices {later}" if later else "")
    return "done"


# ---- e-mail: one digest per user and period ---------------------------------------------
def waiting_matches(user) -> list[int]:
    """The user's active turn-based matches where their seat is asked now."""
    out = []
    seats = MatchSeat.objects.filter(user=user, match__status=Match.Status.ACTIVE).select_related("match")
    for seat in seats.order_by("match_id"):
        match = seat.match
        if clocks.is_turn_based(match.time_control) and seat.seat in public_asked(get_engine(match.game),
                                                                                  store.read_state(match.pk)):
            out.append(match.pk)
    return sorted(set(out))


def send_digests(limit: int = 50) -> int:
    """One mail per user with e-mail due and none sent within NOTIFY_DIGEST_S: every match
    waiting for their move, and what else they chose to hear of since the last one."""
    now = timezone.now()
    since = now - timedelta(seconds=settings.NOTIFY_DIGEST_S)
    users = list(Outbox.objects.filter(email_due=True).values_list("user_id", flat=True).distinct()[:limit])
    sent = 0
    for user_id in users:
        with transaction.atomic():
            prefs = Preferences.objects.select_for_update(**_skip_locked()).filter(user_id=user_id).first()
            if prefs is None or (prefs.last_digest_at is not None and prefs.last_digest_at > since):
                continue
            rows = list(Outbox.objects.filter(user_id=user_id, email_due=True).select_related("user").order_by("id"))
            if not rows:
                continue
            user = rows[0].user
            message = _digest(user, rows) if prefs.email and user.email else None
            Outbox.objects.filter(pk__in=[r.pk for r in rows]).update(email_due=False)
            prefs.last_digest_at = now
            prefs.save(update_fields=["last_digest_at"])
        if message is not None:  # after the commit: a failed send is logged, not retried (the next digest lists the matches)
            try:
                message.send()
                sent += 1
            except Exception:
                log.exception("could not send the digest for user %s", user_id)
    return sent


def _skip_locked() -> dict:
    return {"skip_locked": True} if connection.vendor == "postgresql" else {}


def _digest(user, rows: list[Outbox]) -> EmailMultiAlternatives | None:
    chosen = preferences(user).email
    waiting = waiting_matches(user) if YOUR_MOVE in chosen else []
    lines = []
    with translation.override(language_of(user)):
        for match_id in waiting:
            notice = compose(Outbox(kind=YOUR_MOVE, user=user, match_id=match_id), language_of(user))
            if notice is not None:
                lines.append(f"- {notice.body} {settings.SITE_URL}{notice.url}")
        for row in rows:
            if row.kind == YOUR_MOVE or row.kind not in chosen:
                continue
            notice = compose(row, language_of(user))
            if notice is not None:
                lines.append(f"- {notice.body} {settings.SITE_URL}{notice.url}")
        if not lines:
            return None
        link = f"{settings.SITE_URL}/unsubscribe/{unsubscribe_token(user)}/"
        subject = (_("%(count)d matches are waiting for your move") % {"count": len(waiting)} if len(waiting) > 1
                   else _("A match is waiting for your move") if waiting else _("News of your matches"))
        body = "\n".join([_("Hello %(name)s,") % {"name": user.get_username()}, "", *lines, "",
                          _("Stop these e-mails with one click: %(link)s") % {"link": link}])
    headers = {"List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    return EmailMultiAlternatives(subject, body, None, [user.email], headers=headers)
