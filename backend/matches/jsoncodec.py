"""Compact JSON for the hot path (views, legal actions, states to store).

orjson, the fastest encoder we measured on this project's views
(bench/hot_path.py times it).  Its default mode takes string keys only and is about
twice as fast as its mode for other keys, so that mode is the first
fallback (same output: a dict with only string keys encodes alike in both).
Anything orjson refuses (integers beyond 64 bits, lone surrogates, unknown
types) falls back to the standard encoder, so the output is always compact
JSON.  orjson writes non-ASCII text as UTF-8; the standard fallback escapes it.
"""

from __future__ import annotations

import json

import orjson

_standard = json.JSONEncoder(separators=(",", ":")).encode  # \u escapes: lone surrogates stay valid
_orjson = orjson.dumps
_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> str:
    try:
        return _orjson(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    try:
        return _orjson(value, option=_NON_STR_KEYS).decode()
    except TypeError:
        return _standard(value)
