// The chat panel of a match or a lobby room (docs/api.md, Chat), loaded on first use by chat_button.js (ChatPanel).
// It folds the socket's chat frames into lines: a history starts over, a line is added or removed by id, a mute
// hides that author's lines here too. Text is only ever a text node (Preact never parses a string as HTML), so
// whatever someone types stays words on the screen.
import { html, useEffect, useMemo, useRef, useState } from "./lib.js";
import { language, loadWords, t } from "./i18n.js";
import { Sheet } from "./games/sheet.js";

const MAX_CHARS = 300; // the server's CHAT_MAX_CHARS; it has the last word

/** Resolves to the panel once its words are in. */
export function load() {
  return loadWords("chat").then(() => ChatPanel);
}

function fold(frames) {
  const lines = new Map();
  const muted = new Map(); // id -> name
  let refusal = null;
  for (const f of frames) {
    if (f.type === "chat_history") {
      lines.clear();
      muted.clear();
      for (const m of f.messages) lines.set(m.id, m);
      for (const u of f.muted) muted.set(u.id, u.name);
    } else if (f.type === "chat") lines.set(f.message.id, f.message);
    else if (f.type === "chat_removed") lines.delete(f.id);
    else if (f.type === "chat_muted") { if (f.muted) muted.set(f.user, f.name); else muted.delete(f.user); }
    else if (f.type === "error") refusal = f;
  }
  const shown = [...lines.values()].filter((m) => !muted.has(m.author.id)).sort((a, b) => a.id - b.id);
  return { lines: shown, muted, refusal };
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
}

let sent = 0;
const chatId = () => `chat:${Date.now().toString(36)}:${(sent += 1)}`;

/** `writes`: the channel this viewer writes in ("table", "spectators", "lobby"), null when it may only read;
 * `host`: may remove lines (a lobby's host); `me`: the signed-in user or null. */
export function ChatPanel({ frames, onClose, send, me, writes, host }) {
  const { lines, muted, refusal } = useMemo(() => fold(frames), [frames]);
  const [text, setText] = useState("");
  const [note, setNote] = useState("");
  const [shownRefusal, setShownRefusal] = useState(null);
  const list = useRef(null);
  useEffect(() => { if (list.current) list.current.scrollTop = list.current.scrollHeight; }, [lines.length]);
  useEffect(() => { if (refusal) setShownRefusal(refusal); }, [refusal]);

  function submit(e) {
    e.preventDefault();
    const words = text.trim();
    if (!words) return;
    setShownRefusal(null);
    if (send({ type: "chat", text: words, id: chatId() })) { setText(""); setNote(""); } else setNote(t("chat.not_sent"));
  }
  const mute = (user, on) => send({ type: "chat_mute", user, muted: on, id: chatId() });
  const remove = (id) => send({ type: "chat_remove", message: id, id: chatId() });
  const problem = note || (shownRefusal && shownRefusal.message);

  return html`<${Sheet} title=${t("chat.title")} titleId="chat-title" onCancel=${onClose} testid="chat-panel">
    <ol class="chat-lines" ref=${list} aria-live="polite" aria-label=${t("chat.lines")} data-testid="chat-lines">
      ${lines.map((m) => html`<li class=${"chat-line" + (me && m.author.id === me.id ? " mine" : "")} key=${m.id}
          data-testid="chat-line" data-channel=${m.channel}>
        <div class="chat-head"><span class="chat-who">${m.author.name}</span>${m.channel === "spectators"
          ? html`<span class="tag">${t("chat.spectator")}</span>` : null}
          <time class="chat-at" datetime=${m.at}>${clock(m.at)}</time>
          ${me && m.author.id !== me.id && html`<button type="button" class="chat-act" data-testid="chat-mute"
            aria-label=${t("chat.mute", { name: m.author.name })} onClick=${() => mute(m.author.id, true)}>${t("chat.mute_short")}</button>`}
          ${host && html`<button type="button" class="chat-act" data-testid="chat-remove"
            aria-label=${t("chat.remove", { name: m.author.name })} onClick=${() => remove(m.id)}>${t("chat.remove_short")}</button>`}</div>
        <span class="chat-text" data-testid="chat-text">${m.text}</span>
      </li>`)}
    </ol>
    ${!lines.length && html`<p class="muted chat-empty">${t("chat.empty")}</p>`}
    ${writes ? html`<form class="chat-form" onSubmit=${submit}>
        <input data-autofocus data-testid="chat-input" value=${text} maxLength=${MAX_CHARS} autocomplete="off"
          enterkeyhint="send" aria-label=${t(`chat.to_${writes}`)} placeholder=${t(`chat.to_${writes}`)}
          aria-describedby=${problem ? "chat-problem" : undefined} onInput=${(e) => setText(e.target.value)} />
        <button type="submit" class="btn btn-primary" data-testid="chat-send" disabled=${!text.trim()}>${t("chat.send")}</button>
      </form>` : html`<p class="muted" data-testid="chat-read-only">${t("chat.login")}</p>`}
    ${problem && html`<p class="chat-problem" id="chat-problem" role="alert" data-testid="chat-problem">${problem}</p>`}
    ${muted.size > 0 && html`<p class="chat-muted-list">${t("chat.muted")} ${[...muted].map(([id, name]) => html`
      <button type="button" class="btn btn-small" data-testid="chat-unmute" onClick=${() => mute(id, false)}
        aria-label=${t("chat.unmute", { name })}>${name} ✕</button> `)}</p>`}
    <button type="button" class="btn btn-ghost btn-block" data-testid="chat-close" onClick=${onClose}>${t("chat.close")}</button>
  <//>`;
}
