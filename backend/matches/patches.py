"""RFC 6902 JSON Patches between two messages of one viewer (docs/api.md, Difference frames).

`diff(a, b)` is a list of operations that turns the parsed JSON value `a`
into `b`.  Both are plain JSON values (dicts with string keys, lists, str,
int, float, bool, None) as the socket builds them, never the match state:
a patch between two views of one viewer tells that viewer nothing the two
views did not.  Pure and small, on the hot path: equal subtrees are skipped
by one `==` (done in C), changed ones are walked only where they differ,
and a changed subtree whose operations would take more bytes than its new
value is replaced whole.  `memo` shares the work between the viewers of one
version: the engine's views of the seats share the objects they have in
common, and a pair of objects met again at the same place gives the same
operations.
"""

from __future__ import annotations

import copy

import orjson

from . import jsoncodec

_dumps = jsoncodec.dumps
_orjson = orjson.dumps
# A lone operation deeper in a subtree is never larger than replacing the
# subtree, so sizes are compared only from this many operations on.
_COMPARE_FROM = 2
_LISTS = (list, tuple)
_CONTAINERS = (dict, list, tuple)
_LARGE = 16  # members or elements


def diff(a: dict, b: dict, memo: dict | None = None) -> list[dict]:
    """The operations turning the object `a` into `b` (two messages).

    With `memo` (a dict kept while the viewers of one version are served) the
    members of the messages' members (a view's "battle", "hand") are compared
    by their encodings, each object encoded once however many views hold it
    (orjson encodes faster than Python compares two equal trees), and the
    operations of a pair of objects met again at the same place are reused."""
    ops: list[dict] = []
    if type(a) is dict and type(b) is dict:
        _diff_dict(a, b, "", ops, memo, 1)
    elif not (a is b or (type(a) is type(b) and a == b)):
        _diff(a, b, "", ops, None, 1)
    return ops


def _pointer(key) -> str:
    if type(key) is not str:
        return str(key)
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _encoding(value, memo: dict) -> bytes:
    key = id(value)
    kept = memo.get(key)
    if kept is None or kept[0] is not value:  # the object held keeps its id its own
        try:
            text = _orjson(value)
        except TypeError:
            text = _dumps(value).encode()
        kept = memo[key] = (value, text)
    return kept[1]


def _diff(a, b, path: str, ops: list, memo: dict | None, depth: int) -> None:
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        walk = _diff_dict
    elif ta in _LISTS and tb in _LISTS:
        walk = _diff_list
    else:
        ops.append({"op": "replace", "path": path, "value": b})
        return
    if memo is None or depth >= 0:
        walk(a, b, path, ops, memo, depth)
        return
    key = (path, id(a), id(b))
    kept = memo.get(key)
    if kept is None or kept[0] is not a or kept[1] is not b:
        sub: list = []
        walk(a, b, path, sub, None, depth)
        kept = memo[key] = (a, b, sub)
    ops.extend(kept[2])


def _smaller(sub: list, b, path: str, ops: list, memo: dict | None) -> None:
    """Append `sub` (the operations turning the value at `path` into `b`), or
    one replace of the whole value if that is shorter."""
    if len(sub) < _COMPARE_FROM or len(b) > _LARGE:  # a large value (a whole view) is never the shorter
        ops.extend(sub)
        return
    size = len(_encoding(b, memo)) if memo is not None else len(_dumps(b))
    if len(_dumps(sub)) > len(path) + 30 + size:
        ops.append({"op": "replace", "path": path, "value": b})
    else:
        ops.extend(sub)


def _equal(old, new, memo: dict | None, depth: int) -> bool:
    if old is new:
        return True
    t = type(old)
    if t is not type(new):
        return False
    if memo is None or t not in _CONTAINERS or depth < 0:
        return old == new
    # Near the top: the message's members are never equal (walk them); their members compare by encoding.
    return depth == 0 and _encoding(old, memo) == _encoding(new, memo)


def _diff_dict(a: dict, b: dict, path: str, ops: list, memo: dict | None, depth: int) -> None:
    sub: list = []
    for key, old in a.items():
        if key not in b:
            sub.append({"op": "remove", "path": f"{path}/{_pointer(key)}"})
            continue
        new = b[key]
        if old is not new and not _equal(old, new, memo, depth):
            _diff(old, new, f"{path}/{_pointer(key)}", sub, memo, depth - 1)
    for key, new in b.items():
        if key not in a:
            sub.append({"op": "add", "path": f"{path}/{_pointer(key)}", "value": new})
    if path:
        _smaller(sub, b, path, ops, memo)
    else:
        ops.extend(sub)


def _diff_list(a: list, b: list, path: str, ops: list, memo: dict | None, depth: int) -> None:
    """By index: the common head and tail are skipped, what is left of equal
    length is compared element by element, a longer or shorter middle adds
    or removes at its end."""
    la, lb = len(a), len(b)
    head = 0
    short = min(la, lb)
    while head < short and _equal(a[head], b[head], memo, depth):
        head += 1
    tail = 0
    while tail < short - head and _equal(a[la - 1 - tail], b[lb - 1 - tail], memo, depth):
        tail += 1
    sub: list = []
    ma, mb = la - head - tail, lb - head - tail
    paired = min(ma, mb)
    for i in range(head, head + paired):
        _diff(a[i], b[i], f"{path}/{i}", sub, memo, depth - 1)
    at = head + paired
    if ma > mb:
        remove = {"op": "remove", "path": f"{path}/{at}"}
        sub.extend(remove for _ in range(ma - mb))  # each removal shifts the next one into place
    else:
        for i in range(at, at + mb - ma):
            sub.append({"op": "add", "path": f"{path}/{i}", "value": b[i]})
    _smaller(sub, b, path, ops, memo)


# ---- applying (tests, and the reference the web app's patch.js follows) ------
def apply(doc, ops: list[dict], in_place: bool = False):
    """`doc` with `ops` applied (RFC 6902: add, remove, replace, move, copy, test);
    `doc` is not changed unless `in_place` (a client that holds the only copy)."""
    if not in_place:
        doc = copy.deepcopy(doc)
    for op in ops:
        doc = _apply_one(doc, op)
    return doc


def _parse(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"bad pointer {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _get(doc, parts: list[str]):
    for p in parts:
        doc = doc[int(p)] if isinstance(doc, list) else doc[p]
    return doc


def _apply_one(doc, op: dict):
    kind, parts = op["op"], _parse(op["path"])
    if kind == "test":
        if _get(doc, parts) != op["value"]:
            raise ValueError(f"test failed at {op['path']}")
        return doc
    if kind in ("move", "copy"):
        value = copy.deepcopy(_get(doc, _parse(op["from"])))
        if kind == "move":
            doc = _apply_one(doc, {"op": "remove", "path": op["from"]})
        return _apply_one(doc, {"op": "add", "path": op["path"], "value": value})
    value = copy.deepcopy(op.get("value"))
    if not parts:
        if kind == "remove":
            raise ValueError("cannot remove the whole document")
        return value
    parent, last = _get(doc, parts[:-1]), parts[-1]
    if isinstance(parent, list):
        index = len(parent) if (last == "-" and kind == "add") else int(last)
        if kind == "add":
            if not 0 <= index <= len(parent):
                raise ValueError(f"index out of range at {op['path']}")
            parent.insert(index, value)
        elif kind == "remove":
            del parent[index]
        else:
            parent[index] = value
    else:
        if kind in ("remove", "replace") and last not in parent:
            raise ValueError(f"no member at {op['path']}")
        if kind == "remove":
            del parent[last]
        else:
            parent[last] = value
    return doc
