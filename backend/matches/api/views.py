"""REST side of matches: listings and the public event log (docs/api.md, Matches)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.common.errors import AppError
from backend.engines import get_engine

from .. import replays, services
from ..models import ActionLog, Match
from ..runtime import wake_from_sync
from .serializers import (
    EventSerializer,
    MatchSerializer,
    ReplayLogSerializer,
    ReplayStepSerializer,
    TakeoverSerializer,
)

def _visible_match(request, match_id: int) -> Match:
    return services.visible_match(match_id, request.user)


@extend_schema(parameters=[OpenApiParameter("status", str, enum=["active", "finished", "aborted"])])
class MyMatchesView(generics.ListAPIView):
    """The logged-in user's matches, newest first; `?status=` filters."""

    serializer_class = MatchSerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def get_queryset(self):
        qs = Match.objects.filter(seats__user=self.request.user).prefetch_related(services.SEATS).distinct()
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
                .prefetch_related(services.SEATS).order_by("-updated_at")[:100])


class MatchDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=MatchSerializer)
    def get(self, request, match_id: int):
        return Response(MatchSerializer(_visible_match(request, match_id)).data)


def _version_param(request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise AppError("bad_message", _("%(name)s must be a match version: a whole number from 0.") % {"name": name})
    return int(raw)


_RANGE = [OpenApiParameter("after", int, description="Only the events of versions after this one (a client "
                                                     "catching up after a reconnect asks for what it lacks)."),
          OpenApiParameter("upto", int, description="Only the events of versions up to this one.")]


class MatchEventsView(APIView):
    """The event log, oldest first: the public events, and for a player of the
    match also the private ones addressed to their seat (marked "private");
    `?after=` and `?upto=` narrow it to a range of versions."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=_RANGE, responses=EventSerializer(many=True))
    def get(self, request, match_id: int):
        after, upto = _version_param(request, "after"), _version_param(request, "upto")
        match = _visible_match(request, match_id)
        engine = get_engine(match.game)
        user_id = request.user.pk if request.user.is_authenticated else None
        viewer = next((s.seat for s in match.seats.all() if user_id is not None and s.user_id == user_id), None)
        rows = ActionLog.objects.filter(match=match)
        if after is not None:
            rows = rows.filter(version__gt=after)
        if upto is not None:
            rows = rows.filter(version__lte=upto)
        return Response([replays.log_line(version, seat, event)
                         for version, seat, events in rows.order_by("version").values_list("version", "seat", "events")
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
