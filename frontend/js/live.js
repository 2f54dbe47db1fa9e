// WebSockets that come back by themselves: a socket reports its status ("connecting" | "open" |
// "reconnecting" | "offline" | "closed") and calls onOpen after every (re)connect so a screen can resync.
import { useEffect, useRef, useState } from "./lib.js";

const MAX_DELAY = 8000;
// A lost connection must show at once (docs: frontend/README.md, Connection). A socket closes or the browser
// says it went offline: both are told the moment they happen. A connection that dies silently (a phone's
// network gone without a word) is found by asking: after QUIET_MS without a message the socket sends `ping`,
// and one that hears nothing back within ANSWER_MS starts over.
const QUIET_MS = 5000;
const ANSWER_MS = 3000;

/** The socket early.js opened for this page's match, if `url` is its address and it has not closed; once. */
function adoptEarly(url) {
  const early = window.__earlySocket;
  if (!early) return null;
  window.__earlySocket = null;
  if (early.url === url && early.ws.readyState <= WebSocket.OPEN) return early;
  try { early.ws.close(1000); } catch { /* closing already */ }
  return null;
}

export class LiveSocket {
  constructor(path, { onMessage, onOpen, onStatus, ping } = {}) {
    this.path = path;
    this.ping = ping || null;
    this.quiet = null;
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onStatus = onStatus || (() => {});
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
    this.everOpened = false;
    // Phones freeze background tabs; coming back (or back online) retries at once instead of waiting out the backoff.
    this._onOnline = () => this.reconnectNow();
    this._onVisible = () => { if (!document.hidden) this.reconnectNow(); };
    // Offline, an open socket may stay "open" while nothing passes (Chromium keeps it): drop it now, so the page
    // says so and catches up once the network is back.
    this._onOffline = () => this.drop();
    window.addEventListener("online", this._onOnline);
    window.addEventListener("offline", this._onOffline);
    document.addEventListener("visibilitychange", this._onVisible);
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}`;
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  /** Not connected now: "offline" while the browser knows it has no network, else (re)connecting. */
  waiting() {
    if (navigator.onLine === false) return "offline";
    return this.everOpened ? "reconnecting" : "connecting";
  }

  connect() {
    if (this.stopped) return;
    this.setStatus(this.waiting());
    const early = adoptEarly(this.url());
    const ws = early ? early.ws : new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      const again = this.everOpened;
      this.everOpened = true;
      this.setStatus("open");
      this.heard();
      this.onOpen(again);
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.heard();
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws || this.stopped) return;
      clearTimeout(this.quiet);
      // 4401/4403/4404/4429 (and 40xx): the server refused us for good (auth, private, not found, too many).
      if ((e.code >= 4400 && e.code < 4500) || (e.code >= 4000 && e.code < 4100)) {
        this.setStatus("closed");
        this.closeCode = e.code;
        return;
      }
      this.retry(e.code === 4503);
    };
    // Opened already: its open and the frames it held, in order, before any later frame (a microtask runs
    // before the next event), and after the constructor has returned to its caller.
    if (early && ws.readyState === WebSocket.OPEN) {
      queueMicrotask(() => {
        if (ws !== this.ws) return;
        ws.onopen();
        for (const e of early.held) ws.onmessage(e);
      });
    }
  }

  /** Try again after a backoff; `now`: a server stopping (4503), another one takes us at once. */
  retry(now = false) {
    this.setStatus(this.waiting());
    if (now) this.attempt = 0;
    const delay = now ? Math.random() * 300 : Math.min(MAX_DELAY, 600 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** The connection is gone though the socket may not know yet: let it go and try again. */
  drop() {
    if (this.stopped || this.status === "closed" || !this.ws) return;
    const ws = this.ws;
    this.ws = null; // its late events are ignored
    clearTimeout(this.quiet);
    try { ws.close(4999); } catch { /* already closing */ }
    this.retry();
  }

  heard() {
    clearTimeout(this.quiet);
    if (!this.ping) return;
    this.quiet = setTimeout(() => {
      if (!this.send(this.ping)) return;
      this.quiet = setTimeout(() => this.drop(), ANSWER_MS);
    }, QUIET_MS);
  }

  reconnectNow() {
    if (this.stopped || this.status === "closed") return;  // refused for good: retrying cannot help
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    clearTimeout(this.timer);
    this.attempt = 0;
    this.connect();
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.quiet);
    window.removeEventListener("online", this._onOnline);
    window.removeEventListener("offline", this._onOffline);
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) this.ws.close(1000);
  }
}

/** Opens a LiveSocket for the component's lifetime; handlers may change between renders. */
export function useLive(path, handlers) {
  const [status, setStatus] = useState("connecting");
  const ref = useRef(handlers);
  ref.current = handlers;
  const sock = useRef(null);
  useEffect(() => {
    if (!path) return undefined;
    const s = new LiveSocket(path, {
      onMessage: (m) => ref.current.onMessage && ref.current.onMessage(m),
      onOpen: (again) => ref.current.onOpen && ref.current.onOpen(again, s),
      onStatus: setStatus,
      ping: handlers.ping,
    });
    sock.current = s;
    window.__sockets = (window.__sockets || new Set()).add(s);
    return () => { s.stop(); window.__sockets.delete(s); };
  }, [path]);
  return { status, send: (m) => (sock.current ? sock.current.send(m) : false), socket: sock };
}
