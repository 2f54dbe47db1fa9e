"""The notify worker (docs/notifications.md): Web Push through a local stand-in for the push
service, which decrypts what it gets with the device's keys made here (http_ece); retries
with backoff; devices answered 404 or 410 dropped; leases; the e-mail digest; the API."""

from __future__ import annotations

import base64
import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from backend.matches import domain, services, store
from backend.matches.models import Match
from backend.notifications import services as notify
from backend.notifications.models import MATCH_START, YOUR_MOVE, Outbox, Preferences, Subscription
from backend.notifications.keys import new_keys, public_key_of
from backend.notifications.push import Sender
from backend.notifications.worker import Worker
from tests.support.push import Device, PushService

pytestmark = pytest.mark.django_db(transaction=True)

DAILY = {"kind": "turn_based", "per_move_s": 86_400}
KEYS = new_keys()


@pytest.fixture
def push(settings, fake_game):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = KEYS
    settings.NOTIFY_PUSH_HOSTS = ["127.0.0.1"]
    settings.NOTIFY_PUSH_ALLOW_HTTP = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    service = PushService()
    yield service
    service.close()


def _subscribe(client, device, label="phone"):
    response = client.post("/api/notifications/devices/", {**device.subscription(), "label": label}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _moved(users, rounds=2):
    """A daily match where seat 0 has moved: seat 1's user has a your-move row."""
    match = services.create_match("counting", {"rounds": rounds, "fixed_start": 0}, users, 7, True, DAILY)
    services.apply_action(match.pk, 0, 0, {"type": "say", "n": 1}, uuid.uuid4().hex)
    Outbox.objects.filter(kind=MATCH_START).update(done_at=timezone.now())  # here: the moves' rows only
    return match.pk


def test_a_push_reaches_the_device_encrypted_for_it_and_signed(push, make_user, client_for):
    users = [make_user(), make_user()]
    device = push.device("b")
    _subscribe(client_for(users[1]), device)
    match_id = _moved(users)
    assert Worker(Sender()).run_once() == 1
    (path, headers, body), = push.received
    assert device.decrypt(body) == {"title": "Your move", "url": f"/match/{match_id}", "tag": f"match-{match_id}",
                                    "body": f"Counting #{match_id} with {users[0].username}: it is your move."}
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=") and f"k={KEYS[1]}" in headers["authorization"]
    assert headers["topic"] == f"match-{match_id}" and int(headers["ttl"]) > 0
    row = Outbox.objects.get(kind=YOUR_MOVE)
    assert row.done_at is not None and row.sent_to == [Subscription.objects.get().pk]


def test_in_the_players_language(push, make_user, client_for):
    users = [make_user(), make_user()]
    users[1].language = "hu"
    users[1].save()
    device = push.device("hu")
    _subscribe(client_for(users[1]), device)
    match_id = _moved(users)
    Worker(Sender()).run_once()
    got = device.decrypt(push.received[0][2])
    assert got["title"] == "Te lépsz" and got["url"] == f"/match/{match_id}", got


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_no_longer_knows_is_dropped(push, make_user, client_for, status):
    users = [make_user(), make_user()]
    gone, kept = push.device("gone"), push.device("kept")
    push.status["/push/gone"] = status
    _subscribe(client_for(users[1]), gone)
    _subscribe(client_for(users[1]), kept)
    _moved(users)
    Worker(Sender()).run_once()
    assert list(Subscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert [p for p, _, _ in push.received] == ["/push/kept"]
    assert Outbox.objects.get(kind=YOUR_MOVE).done_at is not None


def test_a_push_service_that_is_down_is_tried_again_later_and_nothing_is_sent_twice(push, make_user, client_for,
                                                                                      settings):
    settings.NOTIFY_RETRY_BASE_S = 30
    users = [make_user(), make_user()]
    up, down = push.device("up"), push.device("down")
    push.status["/push/down"] = 503
    _subscribe(client_for(users[1]), up)
    _subscribe(client_for(users[1]), down)
    _moved(users)
    before = timezone.now()
    Worker(Sender()).run_once()
    row = Outbox.objects.get(kind=YOUR_MOVE)
    assert row.done_at is None and row.attempts == 1 and row.lease_until is None
    assert before + timedelta(seconds=29) < row.due_at < timezone.now() + timedelta(seconds=31)
    assert Worker(Sender()).run_once() == 0  # not due yet
    push.status["/push/down"] = 201
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    Worker(Sender()).run_once()
    assert sorted(p for p, _, _ in push.received) == ["/push/down", "/push/up"]  # each once
    assert push.attempts.count("/push/down") == 2
    row.refresh_from_db()
    assert row.done_at is not None and row.attempts == 2


def test_without_a_key_pair_no_push_is_tried(push, make_user, client_for, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    users = [make_user(), make_user()]
    _subscribe(client_for(users[1]), push.device("b"))
    _moved(users)
    Worker(Sender()).run_once()
    assert push.attempts == [] and Outbox.objects.get(kind=YOUR_MOVE).done_at is not None


def test_backoff_doubles_up_to_its_cap(settings):
    settings.NOTIFY_RETRY_BASE_S, settings.NOTIFY_RETRY_MAX_S = 5, 60
    assert [notify.backoff(n).total_seconds() for n in range(1, 7)] == [5, 10, 20, 40, 60, 60]


def test_a_leased_row_is_not_claimed_again_until_its_lease_runs_out(push, make_user):
    users = [make_user(), make_user()]
    _moved(users)
    first = notify.claim(10, lease_s=60)
    assert len(first) == 1 and notify.claim(10, lease_s=60) == []
    Outbox.objects.filter(pk=first[0]).update(lease_until=timezone.now() - timedelta(seconds=1))  # its worker died
    assert notify.claim(10, lease_s=60) == first


def test_a_move_already_answered_is_not_told(push, make_user, client_for):
    users = [make_user(), make_user()]
    _subscribe(client_for(users[1]), push.device("b"))
    match_id = _moved(users)
    services.apply_action(match_id, 1, 1, {"type": "say", "n": 1}, uuid.uuid4().hex)  # before the worker ran
    Worker(Sender()).run_once()
    assert [p for p, _, _ in push.received] == []  # seat 0's new row has no device; seat 1's is overtaken
    assert Outbox.objects.filter(done_at__isnull=True).count() == 0


def test_no_notice_tells_anything_hidden(make_user, settings):
    """The strong way: a hidden fact (another seat's hand, the deck's order) changed, the notice's bytes
    and whether one is made are the same."""
    users = [make_user(), make_user(), make_user()]
    match = services.create_match("condottiere", {}, users, 4, True, DAILY)
    row = Outbox(kind=YOUR_MOVE, user=users[1], match_id=match.pk, version=1)

    def notice_and_notify():
        info = store.read_info(match.pk)
        snapshot = store.read_snapshot(info)
        seat = snapshot.to_move[0]
        action = info.engine.legal_actions(snapshot.state, seat)[0]
        move = domain.check(info, snapshot, seat, action, "x", 0)
        return notify.compose(row, "en").payload(), notify.compose(row, "hu").payload(), move.notify

    before = notice_and_notify()
    state = Match.objects.get(pk=match.pk).state
    state["hands"][1], state["hands"][2] = state["hands"][2], state["hands"][1]
    state["deck"].reverse()
    Match.objects.filter(pk=match.pk).update(state=state)
    assert notice_and_notify() == before


def test_the_digest_is_one_mail_for_every_waiting_match_and_unsubscribes_in_one_click(push, make_user, client,
                                                                                       settings):
    users = [make_user(), make_user()]
    users[1].email = "b@example.com"
    users[1].language = "hu"
    users[1].save()
    Preferences.objects.create(user=users[1], email=[YOUR_MOVE])
    first, second = _moved(users), _moved(users)
    Worker(Sender()).run_once()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["b@example.com"] and message.subject == "2 játszma vár a lépésedre"
    assert f"/match/{first}" in message.body and f"/match/{second}" in message.body
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and link in message.body

    _moved(users)  # within the day: no second mail
    Worker(Sender()).run_once()
    assert len(mail.outbox) == 1

    path = link.removeprefix(settings.SITE_URL)
    assert client.get(path).status_code == 200 and Preferences.objects.get(user=users[1]).email == [YOUR_MOVE]
    assert client.post(path).status_code == 200
    assert Preferences.objects.get(user=users[1]).email == []
    assert client.post(path[:-3] + "xx/").status_code == 400


def test_the_api_lists_chooses_and_removes(push, make_user, client_for):
    alice, bob = make_user(), make_user()
    api = client_for(alice)
    got = api.get("/api/notifications/").json()
    assert got["push"] == ["your_move", "match_start", "rematch", "match_end", "chat"] and got["email"] == []
    assert got["vapid_public_key"] == KEYS[1] and got["devices"] == []
    device_id = _subscribe(api, push.device("a"), "laptop")
    assert [d["label"] for d in api.get("/api/notifications/").json()["devices"]] == ["laptop"]
    got = api.put("/api/notifications/", {"push": ["your_move"], "email": ["your_move", "match_end"]},
                  format="json").json()
    assert got["push"] == ["your_move"] and got["email"] == ["your_move", "match_end"]
    assert api.put("/api/notifications/", {"push": ["bids"]}, format="json").status_code == 400
    assert client_for(bob).delete(f"/api/notifications/devices/{device_id}/").status_code == 404
    assert api.delete(f"/api/notifications/devices/{device_id}/").status_code == 204
    assert Subscription.objects.count() == 0


@pytest.mark.parametrize("endpoint", ["https://evil.example.com/push/x", "http://fcm.googleapis.com/fcm/send/x",
                                      "https://fcm.googleapis.com.evil.example/x"])
def test_only_the_push_services_are_posted_to(make_user, client_for, settings, endpoint):
    settings.NOTIFY_PUSH_HOSTS = ["fcm.googleapis.com"]
    body = {**Device(endpoint).subscription(), "label": "x"}
    assert client_for(make_user()).post("/api/notifications/devices/", body, format="json").status_code == 400
    assert settings.NOTIFY_PUSH_HOSTS and notify.push_endpoint_allowed("https://fcm.googleapis.com/fcm/send/abc")


def test_the_health_check_fails_when_a_notice_waits_too_long(push, make_user):
    _moved([make_user(), make_user()])
    with pytest.raises(SystemExit) as fresh:
        call_command("notify_worker", health=300)
    Outbox.objects.update(due_at=timezone.now() - timedelta(seconds=301))
    with pytest.raises(SystemExit) as late:
        call_command("notify_worker", health=300)
    assert (fresh.value.code, late.value.code) == (0, 1)


def test_vapid_keys_prints_a_pair_that_belongs_together(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert public_key_of(lines["VAPID_PRIVATE_KEY"]) == lines["VAPID_PUBLIC_KEY"]
    assert len(base64_decode(lines["VAPID_PUBLIC_KEY"])) == 65  # an uncompressed P-256 point


def base64_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
