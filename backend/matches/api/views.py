"""REST side of matches: listings and the public event log (docs/api.md, Matches)."""

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.common.errors import AppError
from backend.engines import get_engine

from .. import replays, services
from ..models import ActionLog, Match, MatchSeat
from ..runtime import wake_from_sync
from .serializers import (
    EventSerializer,
    MatchSerializer,
    ReplayLogSerializer,
    ReplayStepSerializer,
    TakeoverSerializer,
)

_SEATS = Prefetch("seats", queryset=MatchSeat.objects.select_related("user").order_by("seat"))


def _visible_match(request, match_id: int) -> Match:
    match = Match.objects.prefetch_related(_SEATS).filter(pk=match_id).first()
    if match is None:
        raise AppError("not_found", _("There is no such match."))
    if not match.public:
        user = request.user
        if not user.is_authenticated:
            raise AppError("unauthenticated", _("Log in to see this private match."))
        if not any(s.user_id == user.pk for s in match.seats.all()):
            raise AppError("forbidden", _("This match is private."))
    return match


@extend_schema(parameters=[OpenApiParameter("status", str, enum=["active", "finished", "aborted"])])
class MyMatchesView(generics.ListAPIView):
    """The logged-in user's matches, newest first; `?status=` filters."""

    serializer_class = MatchSerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def get_queryset(self):
        qs = Match.objects.filter(seats__user=self.request.user).prefetch_related(_SEATS).distinct()
        status = self.request.query_params.get("status")
        if status:
            if status not in Match.Status.values:
                raise AppError("bad_message", _("status must be active, finished or aborted."))
            qs = qs.filter(status=status)
        return qs.order_by("-updated_at")[:200]


class LiveMatchesView(generics.ListAPIView):
    """Active public matches anyone may watch, most recently active first."""

    serializer_class = MatchSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = None

    def get_queryset(self):
        return (Match.objects.filter(status=Match.Status.ACTIVE, public=True)
                .prefetch_related(_SEATS).order_by("-updated_at")[:100])


class MatchDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=MatchSerializer)
    def get(self, request, match_id: int):
        return Response(MatchSerializer(_visible_match(request, match_id)).data)


class MatchEventsView(APIView):
    """The event log, oldest first: the public events, and for a player of the
    match also the private ones addressed to their seat (marked "private")."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=EventSerializer(many=True))
    def get(self, request, match_id: int):
        match = _visible_match(request, match_id)
        engine = get_engine(match.game)
        user_id = request.user.pk if request.user.is_authenticated else None
        viewer = next((s.seat for s in match.seats.all() if user_id is not None and s.user_id == user_id), None)
        return Response([replays.log_line(version, seat, event)
                         for version, seat, events in (ActionLog.objects.filter(match=match).order_by("version")
                                                       .values_list("version", "seat", "events"))
                         for event in engine.visible_events(events, viewer)])


_SEAT = OpenApiParameter("seat", int, description="Replay this seat's own view (its player only, after the end); "
                                                  "without it, the public view a spectator had.")


class ReplayLogView(APIView):
    """An ended match's replay: how many steps it has, and the whole log as the replayed view reads it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[_SEAT], responses=ReplayLogSerializer)
    def get(self, request, match_id: int):
        match = _visible_match(request, match_id)
        seat = replays.viewer_seat(match, request.query_params.get("seat"), request.user)
        return Response(replays.log(match, seat))


class ReplayStepView(APIView):
    """One step of an ended match's replay: the view at that version and the events that led to it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[_SEAT], responses=ReplayStepSerializer)
    def get(self, request, match_id: int, step: int):
        match = _visible_match(request, match_id)
        seat = replays.viewer_seat(match, request.query_params.get("seat"), request.user)
        return Response(replays.step(match, step, seat))


class _SeatChange(APIView):
    """POST: change who plays a seat (docs/api.md, Seats); answers the match."""

    permission_classes = [permissions.IsAuthenticated]
    change = None  # services.resign | abort | reclaim

    @extend_schema(request=None, responses=MatchSerializer)
    def post(self, request, match_id: int):
        _visible_match(request, match_id)
        type(self).change(request.user, match_id, on_commit=wake_from_sync)
        return Response(MatchSerializer(_visible_match(request, match_id)).data)


class ResignView(_SeatChange):
    change = staticmethod(services.resign)


class AbortView(_SeatChange):
    change = staticmethod(services.abort)


class ReclaimView(_SeatChange):
    change = staticmethod(services.reclaim)


class TakeoverView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TakeoverSerializer, responses=MatchSerializer)
    def post(self, request, match_id: int):
        _visible_match(request, match_id)
        data = TakeoverSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.takeover(request.user, match_id, data.validated_data["seat"], on_commit=wake_from_sync)
        return Response(MatchSerializer(_visible_match(request, match_id)).data)
