// The match menu's dialogs (sound and notifications, resign, abort), loaded when the player first opens the
// menu (menu.js holds the button); the dialogs themselves are confirm.js's.
import { html, useState } from "../lib.js";
import { post } from "../api.js";
import { t } from "../i18n.js";
import { useSeats } from "./seats.js";
import { notificationsSupported } from "./cue_device.js";
import { Confirm, Modal } from "./confirm.js";

function Toggle({ on, label, hint, onChange, testid }) {
  return html`<label class="mtoggle"><span><strong>${label}</strong>${hint && html`<small class="hint">${hint}</small>`}</span>
    <input type="checkbox" role="switch" checked=${on} data-testid=${testid} onChange=${(e) => onChange(e.target.checked)} /></label>`;
}

/** What the ⋯ button opens: `open` is "menu", "resign" or "abort"; `cues` is useCueSettings()'s answer. */
export function MenuDialogs({ open, setOpen, cues }) {
  const ctx = useSeats();
  const [note, setNote] = useState("");
  const canResign = ctx.active && !ctx.resigned(ctx.mySeat);
  const act = (path) => async () => {
    const m = await post(`/api/matches/${ctx.id}/${path}/`);
    if (m && m.seats) ctx.setMatch(m);
  };
  function sound(on) {
    cues.keep("sound", on);
    if (on) import("./cue_play.js").then((m) => m.beep(), () => {});
  }
  /** Opting in asks the browser's permission now (a tap is what browsers require); a refusal leaves it off. */
  async function notify(on) {
    let ok = !on || Notification.permission === "granted";
    if (!ok) {
      try { ok = (await Notification.requestPermission()) === "granted"; } catch { ok = false; }
    }
    cues.keep("notify", on && ok);
    setNote(ok ? "" : t("match.menu.notify_denied"));
  }
  return html`${open === "menu" && html`<${Modal} label=${t("match.menu.title")} onClose=${() => setOpen(null)} testid="menu" className="mdialog-sheet">
      <h2>${t("match.menu.title")}</h2>
      <${Toggle} on=${cues.sound} label=${t("match.menu.sound")} hint=${t("match.menu.sound_hint")} onChange=${sound} testid="sound-toggle" />
      ${notificationsSupported() && html`<${Toggle} on=${cues.notify} label=${t("match.menu.notify")} hint=${t("match.menu.notify_hint")}
        onChange=${notify} testid="notify-toggle" />`}
      ${note && html`<p class="hint" role="status">${note}</p>`}
      ${(canResign || ctx.abortable) && html`<div class="mmenu-danger">
        ${ctx.abortable && html`<button type="button" class="btn btn-block" data-testid="abort" onClick=${() => setOpen("abort")}>${t("match.menu.abort")}</button>`}
        ${canResign && html`<button type="button" class="btn btn-block btn-danger" data-testid="resign" onClick=${() => setOpen("resign")}>${t("match.menu.resign")}</button>`}
      </div>`}
      <button type="button" class="btn btn-ghost btn-block" onClick=${() => setOpen(null)}>${t("match.menu.close")}</button>
    <//>`}
    ${open === "resign" && html`<${Confirm} title=${t("match.menu.resign_q")} text=${t("match.menu.resign_text")} yes=${t("match.menu.resign_yes")}
      danger onYes=${act("resign")} onClose=${() => setOpen(null)} testid="resign-dialog" />`}
    ${open === "abort" && html`<${Confirm} title=${t("match.menu.abort_q")} text=${t("match.menu.abort_text")} yes=${t("match.menu.abort_yes")}
      danger onYes=${act("abort")} onClose=${() => setOpen(null)} testid="abort-dialog" />`}`;
}
