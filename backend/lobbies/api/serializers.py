"""Input validation and the OpenAPI shapes; the output itself comes from presenters.lobby_data."""

from rest_framework import serializers

from backend.accounts.api.serializers import UserSerializer
from backend.lobbies.models import Lobby


TIME_CONTROL_HELP = ('{"kind": "none"} (the default), {"kind": "realtime", "bank_s": N, "increment_s": M} '
                     'or {"kind": "turn_based", "per_move_s": N}; bounds in docs/api.md')


class LobbyCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    options = serializers.DictField(required=False, default=dict)
    num_seats = serializers.IntegerField(min_value=1, max_value=64)
    private = serializers.BooleanField(required=False, default=False)
    rated = serializers.BooleanField(required=False, default=False,
                                     help_text="The match changes its players' ratings; no bot may sit in the lobby.")
    # Checked by the service (backend.matches.clock.validate), which names the wrong field.
    time_control = serializers.JSONField(required=False, allow_null=True, default=None, help_text=TIME_CONTROL_HELP)


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(required=False, allow_blank=True, max_length=64)


class RatedSerializer(serializers.Serializer):
    rated = serializers.BooleanField()


class KickSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()


class BotSerializer(serializers.Serializer):
    bot = serializers.CharField(max_length=40)


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    user = UserSerializer(allow_null=True)
    bot = serializers.CharField(allow_null=True)


class LobbySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    options = serializers.DictField()
    time_control = serializers.JSONField(help_text=TIME_CONTROL_HELP)
    num_seats = serializers.IntegerField()
    private = serializers.BooleanField()
    rated = serializers.BooleanField(help_text="The match changes its players' ratings (people only, no bots).")
    invite_code = serializers.CharField(allow_null=True, help_text="Only for the host and seated players of a private lobby.")
    host = UserSerializer()
    seats = SeatSerializer(many=True)
    status = serializers.ChoiceField(choices=[s.value for s in Lobby.Status])
    match_id = serializers.IntegerField(allow_null=True)
    rematch_of = serializers.IntegerField(allow_null=True, help_text="The match this lobby offers a rematch of.")
    version = serializers.IntegerField(help_text="Grows with every change; live clients drop older updates.")
    created_at = serializers.DateTimeField()


class StartedSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
