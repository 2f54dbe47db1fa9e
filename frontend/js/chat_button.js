// The chat's button and its frames, for the match and lobby screens; the panel itself (chat.js) loads on first use.
import { html, useRef, useState } from "./lib.js";
import { t } from "./i18n.js";
import { lazyComponent, loadCss } from "./lazy.js";

// js/chat.js (with chat.css and the chat words) loads when a first line arrives or its button is pressed.
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
