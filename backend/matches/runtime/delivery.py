"""Delivery: what this process's viewers of a room are offered (a new
version, a chat frame, a notice), each viewer on its own."""

from __future__ import annotations

import logging

from .room import Room

log = logging.getLogger(__name__)


def offer_version(room: Room) -> None:
    """The room's newest version to every viewer here, the one that acted included."""
    version = room.snapshot.version
    for viewer in tuple(room.viewers):
        try:
            viewer.offer(version)
        except Exception:  # one viewer's failure must not cost the others their update
            log.exception("offering version %s of match %s failed", version, room.id)


def offer_chat(room: Room, frame: dict) -> None:
    """A committed chat frame to every viewer here."""
    for viewer in tuple(room.viewers):
        try:
            viewer.chat(frame)
        except Exception:  # one viewer's failure must not cost the others the message
            log.exception("a chat frame to a viewer of match %s failed", room.id)


def offer_notice(room: Room, notice: dict) -> None:
    """A notice (not a version: a rematch lobby was opened) to every viewer here."""
    for viewer in tuple(room.viewers):
        viewer.notice(notice)
