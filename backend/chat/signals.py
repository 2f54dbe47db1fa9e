"""What chat tells the apps it serves.

`message_removed` is sent after the commit that removed a message (its lobby's
host, or staff in the admin), with `match_id` and `lobby_id` (one of them None)
and `frame`, the `chat_removed` frame: the match and the lobby apps pass it to
their viewers on every server process (backend/matches/chat.py,
backend/lobbies/chat.py). Chat itself knows neither app.
"""

from django.dispatch import Signal

message_removed = Signal()
