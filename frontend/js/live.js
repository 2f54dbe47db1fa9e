// WebSockets that come back by themselves: a socket reports its status ("connecting" | "open" |
// "reconnecting" | "closed") and calls onOpen after every (re)connect so a screen can resync.
import { useEffect, useRef, useState } from "./lib.js";

const MAX_DELAY = 8000;
// A socket that hears nothing this long asks (`ping`); unanswered, it starts over (a server may have lost us).
const QUIET_MS = 20000;

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
    window.addEventListener("online", this._onOnline);
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

  connect() {
    if (this.stopped) return;
    this.setStatus(this.everOpened ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
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
      this.setStatus(this.everOpened ? "reconnecting" : "connecting");
      // 4503: that server stops (a deploy); another one takes us at once.
      if (e.code === 4503) this.attempt = 0;
      const delay = e.code === 4503 ? Math.random() * 300
        : Math.min(MAX_DELAY, 600 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
      this.attempt += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  heard() {
    clearTimeout(this.quiet);
    if (!this.ping) return;
    this.quiet = setTimeout(() => {
      if (!this.send(this.ping)) return;
      this.quiet = setTimeout(() => { if (this.ws) this.ws.close(4999); }, QUIET_MS);
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
