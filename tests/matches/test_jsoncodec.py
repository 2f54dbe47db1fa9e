"""The hot path's JSON encoder: compact JSON whatever orjson's fast mode refuses."""

import json

import pytest

from backend.matches import jsoncodec

CASES = [
    {"a": [1, 2, {"b": None}], "c": True, "d": 1.5},
    {1: "int key", "s": {2: [3]}},  # orjson's fast mode takes string keys only
    {"big": 2**70, "neg": -(2**65)},  # beyond 64 bits: the standard encoder
    {"lone": "\ud800", "k": 1},  # a lone surrogate: the standard encoder escapes it
    {"text": "Velence és Nápoly ✓"},
    [],
    "plain",
    None,
]


@pytest.mark.parametrize("value", CASES, ids=range(len(CASES)))
def test_compact_json_of_the_same_value(value):
    text = jsoncodec.dumps(value)
    assert isinstance(text, str)
    # The same value back (keys become strings, as JSON has them)...
    assert json.loads(text) == json.loads(json.dumps(value))
    # ...written compactly: no separator spaces outside strings (non-ASCII raw, or escaped by the fallback).
    back = json.loads(text)
    assert text in (json.dumps(back, separators=(",", ":"), ensure_ascii=False),
                    json.dumps(back, separators=(",", ":")))


def test_string_keys_encode_alike_in_both_orjson_modes():
    import orjson

    value = {"x": [{"y": 1, "z": "á"}], "w": None}
    assert jsoncodec.dumps(value) == orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
