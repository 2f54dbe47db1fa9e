"""RFC 6902 JSON Patches between two messages of one viewer (docs/api.md, Difference frames).

`diff(a, b)` is a list of operations that turns the parsed JSON value `a`
into `b`.  Both are plain JSON values (dicts with string keys, lists, str,
int, float, bool, None) as the socket builds them, never the match state:
a patch between two views of one viewer tells that viewer nothing the two
views did not.  On the hot path (each viewer's every move), so it is written
for CPython's speed: equal subtrees are skipped by one `==` (done in C),
only members that differ are walked, in loops without a call per member,
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
_MISSING = object()
_LISTS = (list, tuple)
_CONTAINERS = (dict, list, tuple)
# A changed container of more members than this (a whole view) is never
# replaced whole; for smaller ones the sizes are compared.
_LARGE = 16


def diff(a, b, memo: dict | None = None) -> list[dict]:
    """The operations turning `a` into `b` (two messages).

    With `memo` (a dict kept while the viewers of one version are served) the
    operations of a pair of containers met again at the same place are reused
    (the objects are kept in it, so their ids stay theirs)."""
    ops: list[dict] = []
    if type(a) is dict and type(b) is dict:
        _diff_dict(a, b, "", ops, memo)
    elif not (a is b or (a == b and type(a) is type(b))):
        _changed(a, b, "", ops, memo)
    return ops


def _pointer(key) -> str:
    if type(key) is not str:
        return str(key)
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _size(value) -> int:
    try:
        return len(_orjson(value))
    except TypeError:
        return len(_dumps(value).encode())


def _changed(a, b, path: str, ops: list, memo: dict | None) -> None:
    """`a` and `b` differ: the operations at `path`, from the memo when they were met before."""
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        walk = _diff_dict
    elif ta in _LISTS and tb in _LISTS:
        walk = _diff_list
    else:
        ops.append({"op": "replace", "path": path, "value": b})
        return
    if memo is not None:
        key = (path, id(a), id(b))
        kept = memo.get(key)
        if kept is not None and kept[0] is a and kept[1] is b:
            ops.extend(kept[2])
            return
    sub: list = []
    walk(a, b, path, sub, memo)
    # A lone operation deeper down is never larger than replacing the subtree.
    if len(sub) > 1 and len(b) <= _LARGE and path and _size(sub) > len(path) + 30 + _size(b):
        sub = [{"op": "replace", "path": path, "value": b}]
    if memo is not None:
        memo[key] = (a, b, sub)
    ops.extend(sub)


def _diff_dict(a: dict, b: dict, path: str, ops: list, memo: dict | None) -> None:
    found = 0
    for key, old in a.items():
        new = b.get(key, _MISSING)
        if new is _MISSING:
            ops.append({"op": "remove", "path": f"{path}/{_pointer(key)}"})
            continue
        found += 1
        if old is new or (old == new and type(old) is type(new)):
            continue
        if type(new) in _CONTAINERS:
            _changed(old, new, f"{path}/{_pointer(key)}", ops, memo)
        else:
            ops.append({"op": "replace", "path": f"{path}/{_pointer(key)}", "value": new})
    if found != len(b):
        for key, new in b.items():
            if key not in a:
                ops.append({"op": "add", "path": f"{path}/{_pointer(key)}", "value": new})


def _diff_list(a, b, path: str, ops: list, memo: dict | None) -> None:
    """By index: the common head and tail are skipped, what is left of equal
    length is compared element by element, a longer or shorter middle adds
    or removes at its end."""
    la, lb = len(a), len(b)
    short = la if la < lb else lb
    head = 0
    while head < short:
        x, y = a[head], b[head]
        if not (x is y or (x == y and type(x) is type(y))):
            break
        head += 1
    tail = 0
    while tail < short - head:
        x, y = a[la - 1 - tail], b[lb - 1 - tail]
        if not (x is y or (x == y and type(x) is type(y))):
            break
        tail += 1
    ma, mb = la - head - tail, lb - head - tail
    at = head + (ma if ma < mb else mb)
    for i in range(head, at):
        x, y = a[i], b[i]
        if not (x is y or (x == y and type(x) is type(y))):
            _changed(x, y, f"{path}/{i}", ops, memo)
    if ma > mb:
        remove = {"op": "remove", "path": f"{path}/{at}"}
        ops.extend(remove for _ in range(ma - mb))  # each removal shifts the next one into place
    else:
        for i in range(at, at + mb - ma):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": b[i]})


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
