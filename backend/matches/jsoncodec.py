"""Compact JSON for the hot path (views, legal actions, states to store).

orjson, the fastest encoder we measured on this project's views (figures in
deploy/README.md).  Anything it refuses (integers beyond 64 bits, lone
surrogates, unknown types) falls back to the standard encoder, so the output
is always compact JSON.  orjson writes non-ASCII text as UTF-8; the fallback
escapes it.
"""

from __future__ import annotations

import json

import orjson

_standard = json.JSONEncoder(separators=(",", ":")).encode  # \u escapes: lone surrogates stay valid
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> str:
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return _standard(value)
