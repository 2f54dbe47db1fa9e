"""REST endpoints for lobbies (docs/api.md, Lobbies). Thin: parse, call services, render."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.api.serializers import ErrorSerializer
from backend.lobbies import services
from backend.lobbies.presenters import lobby_data, lobby_for

from backend.matches.runtime import notify_from_sync, wake_from_sync

from .serializers import (
    BotSerializer,
    JoinSerializer,
    KickSerializer,
    LobbyCreateSerializer,
    LobbySerializer,
    RatedSerializer,
    StartedSerializer,
)

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409)}


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _answer(lobby, user, status_code=status.HTTP_200_OK):
    # Re-read with seats and users: the service returns the locked row without them.
    return Response(lobby_for(services.load(lobby.pk), user), status=status_code)


@extend_schema(tags=["lobbies"])
class LobbyListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("mine", bool, description="Instead: the open lobbies I am seated in (private ones too)")],
        responses={200: LobbySerializer(many=True)},
        summary="Open public lobbies (newest first)",
    )
    def get(self, request):
        if request.query_params.get("mine") in {"1", "true"} and request.user.is_authenticated:
            return Response([lobby_for(lobby, request.user) for lobby in services.my_open_lobbies(request.user)])
        return Response([lobby_data(lobby) for lobby in services.open_public_lobbies()])

    @extend_schema(request=LobbyCreateSerializer, responses={201: LobbySerializer, **ERRORS},
                   summary="Create a lobby; the creator hosts it and takes seat 0")
    def post(self, request):
        data = _valid(LobbyCreateSerializer, request)
        lobby = services.create_lobby(request.user, data["game"], data["options"], data["num_seats"], data["private"],
                                      data["time_control"], rated=data["rated"])
        return _answer(lobby, request.user, status.HTTP_201_CREATED)


@extend_schema(tags=["lobbies"])
class LobbyDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("code", str, description="Invite code of a private lobby")],
        responses={200: LobbySerializer, **ERRORS},
        summary="One lobby (private ones need the code or a seat)",
    )
    def get(self, request, lobby_id):
        lobby = services.get_lobby(lobby_id, request.user, request.query_params.get("code"))
        return Response(lobby_for(lobby, request.user))


class _LobbyAction(APIView):
    permission_classes = [IsAuthenticated]


@extend_schema(tags=["lobbies"])
class JoinView(_LobbyAction):
    @extend_schema(request=JoinSerializer, responses={200: LobbySerializer, **ERRORS}, summary="Take the first free seat")
    def post(self, request, lobby_id):
        data = _valid(JoinSerializer, request)
        return _answer(services.join(request.user, lobby_id, data.get("code")), request.user)


@extend_schema(tags=["lobbies"])
class LeaveView(_LobbyAction):
    @extend_schema(request=None, responses={200: LobbySerializer, **ERRORS}, summary="Leave (the host leaving closes the lobby)")
    def post(self, request, lobby_id):
        return _answer(services.leave(request.user, lobby_id), request.user)


@extend_schema(tags=["lobbies"])
class KickView(_LobbyAction):
    @extend_schema(request=KickSerializer, responses={200: LobbySerializer, **ERRORS}, summary="Remove a player (host only)")
    def post(self, request, lobby_id):
        data = _valid(KickSerializer, request)
        return _answer(services.kick(request.user, lobby_id, data["user_id"]), request.user)


@extend_schema(tags=["lobbies"])
class BotsView(_LobbyAction):
    @extend_schema(request=BotSerializer, responses={200: LobbySerializer, **ERRORS}, summary="Seat a bot in the first free seat (host only)")
    def post(self, request, lobby_id):
        data = _valid(BotSerializer, request)
        return _answer(services.add_bot(request.user, lobby_id, data["bot"]), request.user)


@extend_schema(tags=["lobbies"])
class BotSeatView(_LobbyAction):
    @extend_schema(request=None, responses={200: LobbySerializer, **ERRORS}, summary="Remove the bot at a seat (host only)")
    def delete(self, request, lobby_id, index):
        return _answer(services.remove_bot(request.user, lobby_id, index), request.user)


@extend_schema(tags=["lobbies"])
class RatedView(_LobbyAction):
    @extend_schema(request=RatedSerializer, responses={200: LobbySerializer, **ERRORS},
                   summary="Make the match rated or not (host only; a rated lobby holds no bot)")
    def post(self, request, lobby_id):
        data = _valid(RatedSerializer, request)
        return _answer(services.set_rated(request.user, lobby_id, data["rated"]), request.user)


@extend_schema(tags=["lobbies"])
class StartView(_LobbyAction):
    @extend_schema(request=None, responses={201: StartedSerializer, **ERRORS},
                   summary="Start the match (host only, every seat taken; seat order shuffled)")
    def post(self, request, lobby_id):
        match = services.start(request.user, lobby_id)
        wake_from_sync(match.pk)  # a bot may have the first move
        return Response({"match_id": match.pk}, status=status.HTTP_201_CREATED)


# Routed as /api/matches/<id>/rematch/ (backend/urls.py): the matches app knows nothing of lobbies.
@extend_schema(tags=["matches"])
class RematchView(_LobbyAction):
    @extend_schema(request=None, responses={201: LobbySerializer, 200: LobbySerializer, **ERRORS},
                   summary="Open (once) a lobby for a rematch of a finished match; a second call answers the same lobby")
    def post(self, request, match_id):
        lobby, created = services.rematch(request.user, match_id)
        if created:  # the old match's players hear of it at once, on their result screen
            notify_from_sync(match_id, {"kind": "rematch", "lobby": lobby.pk})
        return _answer(lobby, request.user, status.HTTP_201_CREATED if created else status.HTTP_200_OK)
