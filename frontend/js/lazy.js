// Code that loads on first use (import()), so a page downloads only what it shows (frontend/README.md, Loading).
import { html, useEffect, useRef, useState } from "./lib.js";
import { t } from "./i18n.js";
import { Notice, Spinner } from "./ui.js";

export function loadCss(href) {
  // (A <link rel="preload"> of the same file, as the server writes for the first screen, is not the stylesheet.)
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = resolve;
    link.onerror = () => reject(new Error(t("table.styles_failed")));
    document.head.appendChild(link);
  });
}

/** A component that shows a spinner (saying `waiting`, a catalogue key; none if null) until `fetch()`, a promise
 * of the real one, resolves. `preload()` starts the download early; `load()` is its promise. */
export function lazyComponent(fetch, waiting = "ui.loading") {
  let loading = null;
  let ready = null; // once loaded, later mounts render at once instead of flashing the spinner
  const load = () => {
    if (!loading) {
      loading = fetch().then((C) => (ready = C));
      loading.catch(() => { loading = null; }); // a later visit may try again
    }
    return loading;
  };
  function Lazy(props) {
    const [C, setC] = useState(() => ready);
    const [error, setError] = useState("");
    useEffect(() => {
      if (C) return undefined;
      let live = true;
      load().then((L) => live && setC(() => L), (e) => live && setError(`${e.message || e} ${t("table.reload")}`));
      return () => { live = false; };
    }, []);
    if (error) return html`<${Notice}>${error}<//>`;
    if (!C) return waiting ? html`<${Spinner} label=${t(waiting)} />` : null;
    return html`<${C} ...${props} />`;
  }
  Lazy.preload = () => { load().catch(() => {}); };
  Lazy.load = load;
  return Lazy;
}

/** A game's table: the spinner says the table is being set up. */
export const lazyTable = (fetchTable) => lazyComponent(fetchTable, "match.setting_up");

// Chat: js/chat.js (with chat.css and the chat words) loads when a first line arrives or its button is pressed.
export const ChatPanel = lazyComponent(() => Promise.all([import("./chat.js"), loadCss("/app/chat.css")])
  .then(([m]) => m.load()));

/** A socket's chat frames for the panel (a history starts them over) and the count of others' lines since it was
 * last open. `take(m)` is true for a chat frame or a refusal of one (its id starts "chat:"). */
export function useChatFrames(me) {
  const [frames, setFrames] = useState([]);
  const [open, setOpen] = useState(false);
  const [unread, setUnread] = useState(0);
  const shown = useRef(false);
  shown.current = open;
  const take = (m) => {
    if (!/^chat/.test(m.type) && !(m.type === "error" && /^chat:/.test(m.id))) return false;
    setFrames((f) => (m.type === "chat_history" ? [m] : f.concat([m])));
    if (m.type === "chat" || (m.messages && m.messages.length)) ChatPanel.preload();
    if (m.type === "chat" && !shown.current && !(me && m.message.author.id === me.id)) setUnread((n) => n + 1);
    return true;
  };
  return { frames, open, unread, take, show: (on) => { setOpen(on); if (on) setUnread(0); } };
}

/** The chat's button, with the unread count (`text`: its name too), and the panel once pressed. */
export function ChatButton({ chat, text, ...props }) {
  const n = chat.unread;
  return html`<button type="button" class=${"btn chat-open" + (text ? "" : " mbar-menu")} aria-haspopup="dialog"
      data-testid="chat-open" aria-label=${n ? t("chat.open_unread", { count: n }) : t("chat.open")} onClick=${() => chat.show(true)}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2"
        d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>${text ? " " + t("chat.open") : ""}${
      n ? html`<span class="chat-badge" aria-hidden="true" data-testid="chat-unread">${n}</span>` : ""}</button>
    ${chat.open && html`<${ChatPanel} frames=${chat.frames} onClose=${() => chat.show(false)} ...${props} />`}`;
}
