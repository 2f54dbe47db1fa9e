"""REST endpoints of players' standings (docs/api.md, Profiles and leaderboards). Thin: parse, call services."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.common.errors import AppError

from .. import services


@extend_schema(tags=["players"])
class ProfileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="A player's games played and won, ratings with their history, recent public matches")
    def get(self, request, username: str):
        return Response(services.profile(username))


@extend_schema(tags=["players"])
class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("page", int, description="1 (the best) and on")],
                   summary="A game's ratings, best first, a page at a time")
    def get(self, request, game: str):
        raw = request.query_params.get("page", "1")
        if not raw.isascii() or not raw.isdigit() or len(raw) > 6:
            raise AppError("bad_message", _("The page must be 1 or more."))
        return Response(services.leaderboard(game, int(raw)))


@extend_schema(tags=["players"])
class MatchRatingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="How a finished match moved its players' ratings (its result card's +16)")
    def get(self, request, match_id: int):
        return Response(services.match_ratings(match_id, request.user))
