// Difference frames (docs/api.md): the match socket opened with ?frames=patch sends, after its first full
// `state`, `patch` frames of RFC 6902 operations that turn the last state into the next one. The socket's address,
// with the query, is made in early.js (window.__matchSocketPath).

const unescape = (part) => part.replace(/~1/g, "/").replace(/~0/g, "~");

function parse(path) {
  if (path === "") return [];
  if (path[0] !== "/") throw new Error(`bad pointer ${path}`);
  return path.slice(1).split("/").map(unescape);
}

function index(list, part, adding) {
  if (adding && part === "-") return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(part)) throw new Error(`bad index ${part}`);
  const i = Number(part);
  if (i > list.length || (!adding && i === list.length)) throw new Error(`index ${i} out of range`);
  return i;
}

function get(doc, parts) {
  let at = doc;
  for (const p of parts) {
    at = Array.isArray(at) ? at[index(at, p, false)] : (at !== null && typeof at === "object" && Object.hasOwn(at, p)
      ? at[p] : undefined);
    if (at === undefined) throw new Error(`no value at /${parts.join("/")}`);
  }
  return at;
}

const clone = (value) => (value === null || typeof value !== "object" ? value : structuredClone(value));

/**
 * `doc` with `ops` applied; `doc` itself is never changed. Only the containers on an operation's path are
 * copied, the rest is shared, so what did not change keeps its identity (a table re-renders only what moved).
 */
export function applyPatch(doc, ops) {
  const fresh = new Set(); // containers copied by this call: changed in place from then on
  const own = (value) => {
    if (fresh.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    fresh.add(copy);
    return copy;
  };
  // The parent of `parts`' last step, copied along the way from a copied root.
  const parentOf = (root, parts) => {
    let at = root;
    for (const p of parts.slice(0, -1)) {
      const key = Array.isArray(at) ? index(at, p, false) : p;
      if (at[key] === null || typeof at[key] !== "object") throw new Error(`no container at ${p}`);
      at[key] = own(at[key]);
      at = at[key];
    }
    return at;
  };
  let root = doc;
  for (const op of ops) {
    const parts = parse(op.path);
    if (op.op === "test") {
      if (JSON.stringify(get(root, parts)) !== JSON.stringify(op.value)) throw new Error(`test failed at ${op.path}`);
      continue;
    }
    let kind = op.op;
    let value = op.value;
    if (kind === "move" || kind === "copy") {
      value = clone(get(root, parse(op.from)));
      if (kind === "move") root = applyPatch(root, [{ op: "remove", path: op.from }]);
      kind = "add";
    } else if (kind !== "add" && kind !== "remove" && kind !== "replace") {
      throw new Error(`unknown operation ${kind}`);
    }
    if (parts.length === 0) {
      if (kind === "remove") throw new Error("cannot remove the whole document");
      root = value;
      continue;
    }
    if (root === null || typeof root !== "object") throw new Error("not a container");
    root = own(root);
    const parent = parentOf(root, parts);
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const i = index(parent, last, kind === "add");
      if (kind === "add") parent.splice(i, 0, value);
      else if (kind === "remove") parent.splice(i, 1);
      else parent[i] = value;
    } else {
      if (kind !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no member at ${op.path}`);
      if (kind === "remove") delete parent[last];
      else parent[last] = value;
    }
  }
  return root;
}

/**
 * The state messages of one socket: `take(frame)` answers a `state` frame with itself and a `patch` frame with
 * the state it makes of the one held; null when the patch is not for the state held (a version missed): the
 * caller then asks for the whole state (`sync`).
 */
export class StateFrames {
  constructor() {
    this.held = null;
  }

  take(frame) {
    if (frame.type === "state") {
      this.held = frame;
      return frame;
    }
    if (!this.held || this.held.version !== frame.base) return null;
    try {
      this.held = applyPatch(this.held, frame.patch);
    } catch {
      this.held = null;
      return null;
    }
    return this.held;
  }
}
