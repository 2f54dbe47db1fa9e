from django.contrib.auth import get_user_model
from rest_framework import serializers


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username"]
        read_only_fields = fields


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)


class OptionalCredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, required=False, write_only=True)

    def validate(self, data):
        if ("username" in data) != ("password" in data):
            raise serializers.ValidationError("Give both username and password, or neither.")
        return data


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=4096, trim_whitespace=False)
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(read_only=True)


class ErrorSerializer(serializers.Serializer):
    """The shape of every error answer (docs/api.md, Errors)."""

    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(required=False)
