from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .catalog import catalog


class GameSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options_schema = serializers.DictField(help_text="{option: {type, default, label, help, min?, max?, choices?}}")
    bots = serializers.ListField(child=serializers.CharField())
    board = serializers.DictField(required=False, help_text="God's Playground: the board new matches get, "
                                  "as the view carries it ({name, hash, values})")


@extend_schema(tags=["games"])
class GamesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameSerializer(many=True)}, summary="Installed games")
    def get(self, request):
        return Response(catalog())
