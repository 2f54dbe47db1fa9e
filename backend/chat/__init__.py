"""Chat: a match's table and spectators' channels, a lobby room's channel, and per-user mutes (docs/api.md, Chat)."""
