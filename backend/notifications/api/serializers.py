from rest_framework import serializers

from ..models import KINDS


class DeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    created_at = serializers.DateTimeField(read_only=True)


class SubscribeSerializer(serializers.Serializer):
    """PushSubscription.toJSON() of the device, and a name for it."""

    class Keys(serializers.Serializer):
        p256dh = serializers.RegexField(r"^[A-Za-z0-9_-]{80,100}={0,2}$")
        auth = serializers.RegexField(r"^[A-Za-z0-9_-]{16,32}={0,2}$")

    endpoint = serializers.URLField(max_length=1000)
    keys = Keys()
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PreferencesSerializer(serializers.Serializer):
    push = serializers.ListField(child=serializers.ChoiceField(KINDS), required=False)
    email = serializers.ListField(child=serializers.ChoiceField(KINDS), required=False)


class SettingsSerializer(serializers.Serializer):
    kinds = serializers.ListField(child=serializers.CharField())
    push = serializers.ListField(child=serializers.CharField())
    email = serializers.ListField(child=serializers.CharField())
    has_email = serializers.BooleanField()
    vapid_public_key = serializers.CharField()
    devices = DeviceSerializer(many=True)
