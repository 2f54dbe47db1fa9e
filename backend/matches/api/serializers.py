from django.conf import settings
from rest_framework import serializers

from backend.engines import get_engine

from ..models import Match


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user = UserRefSerializer(allow_null=True)
    bot = serializers.CharField(allow_null=True)


def public_options(game: str, options: dict) -> dict:
    """Options as players may see them: test hooks (a stacked deck) stay on the server."""
    try:
        schema = get_engine(game).options_schema
    except (KeyError, ImportError):
        return {}
    return {k: v for k, v in options.items() if not schema.get(k, {}).get("test_hook")}


class MatchSerializer(serializers.ModelSerializer):
    options = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    absent_grace_s = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "game", "options", "time_control", "status", "version", "public", "seats", "control",
                  "created_at", "updated_at", "finished_at", "result", "rated", "rematch_lobby_id", "absent_grace_s"]

    def get_absent_grace_s(self, match) -> int:
        """How long an absent player's turn waits before others may hand the seat over (the clients' countdown)."""
        return settings.ABSENT_GRACE_S

    def get_options(self, match) -> dict:
        return public_options(match.game, match.options)

    def get_seats(self, match) -> list[dict]:
        return [
            {"seat": s.seat, "user": {"id": s.user_id, "username": s.user.get_username()} if s.user_id else None,
             "bot": s.bot or None}
            for s in match.seats.all()
        ]

    # drf-spectacular reads these to describe the method fields.
    get_seats.__annotations__["return"] = list[dict]


class EventSerializer(serializers.Serializer):
    """An event as data (docs/api.md, Events)."""

    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True,
                                    help_text="The acting seat, else the seat whose action produced the event.")
    kind = serializers.CharField(help_text="Names the event's sentence; clients word it in their language.")
    params = serializers.DictField(help_text="The sentence's codes (cards, seats, regions, provinces) and numbers.")
    text = serializers.CharField(help_text="The sentence in English, for older clients (events stored before "
                                           "params have only kind and text).")
    private = serializers.BooleanField(required=False, help_text="Told only to this player's seat.")


class ReplayLogSerializer(serializers.Serializer):
    """An ended match's replay log (docs/api.md, Replays)."""

    steps = serializers.IntegerField(help_text="The last step: the match's final version (step 0 is the start).")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat whose view this is; null: the public view.")
    events = EventSerializer(many=True)


class ReplayStepSerializer(serializers.Serializer):
    """One step of a replay (docs/api.md, Replays)."""

    step = serializers.IntegerField()
    steps = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    actor = serializers.IntegerField(allow_null=True, help_text="The seat whose action made this step; null at 0.")
    view = serializers.DictField(help_text="engine.view at this version for `seat`, as the live socket sent it.")
    events = EventSerializer(many=True, help_text="This step's events that `seat` may see.")


class TakeoverSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, help_text="The absent player's seat to hand to the bot.")
