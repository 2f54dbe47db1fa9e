// The signed-in player's account: language, e-mail address (for password resets), password, notifications, log out.
import { html, useEffect, useState } from "../lib.js";
import { api, del, get, post } from "../api.js";
import { navigate } from "../router.js";
import { chooseLanguage, logout } from "../session.js";
import { LANGUAGES, t, useLanguage } from "../i18n.js";
import { Field, useServerForm } from "./auth.js";
import { Notice, Page, Spinner } from "../ui.js";

function LanguagePanel() {
  const current = useLanguage();
  return html`<section class="panel" aria-labelledby="account-language">
    <h2 id="account-language">${t("account.language")}</h2>
    <div class="chips" role="radiogroup" aria-labelledby="account-language">
      ${Object.entries(LANGUAGES).map(([code, name]) => html`<label class=${"chip-choice" + (code === current ? " on" : "")} lang=${code}>
        <input type="radio" name="language" value=${code} checked=${code === current} data-testid=${`language-${code}`}
          onChange=${() => chooseLanguage(code)} />${name}</label>`)}
    </div>
  </section>`;
}

function EmailPanel({ me, onSaved }) {
  const [values, setValues] = useState({ email: me.email_pending || me.email, password: "" });
  const [saved, setSaved] = useState("");
  // The endpoint reports a wrong current password as "old_password": here the input is "password".
  const form = useServerForm(["email", "password"], { old_password: "password" });
  const set = (name) => (value) => { form.clear(name); setSaved(""); setValues((v) => ({ ...v, [name]: value })); };
  async function submit(e) {
    const done = await form.submit(e, () => post("/api/auth/email/", values));
    if (!done) return;
    onSaved(done.value);
    setValues({ email: done.value.email_pending || done.value.email, password: "" });
    // Words, not text: a language switch rewords it. A new address waits for its mailed link.
    setSaved(done.value.email_pending ? "sent" : done.value.email ? "saved" : "removed");
  }
  const notice = { sent: ["account.email_sent", { email: me.email_pending }], saved: ["account.email_saved"],
    removed: ["account.email_removed"] }[saved];
  return html`<section class="panel" aria-labelledby="account-email">
    <h2 id="account-email">${t("account.email_title")}</h2>
    <p class="hint account-now" data-testid="email-now">${me.email ? t("account.email_now", { email: me.email }) : t("account.email_none")}</p>
    ${me.email_pending && html`<p class="hint" data-testid="email-pending">${t("account.email_pending", { email: me.email_pending })}</p>`}
    <form class="form" onSubmit=${submit} novalidate ref=${form.formRef} aria-labelledby="account-email" data-testid="email-form">
      <${Field} name="email" type="email" label=${t("field.email")} value=${values.email} autocomplete="email"
        hint=${t("account.email_hint")} onInput=${set("email")} error=${form.errors.email} />
      <${Field} name="password" type="password" label=${t("field.old_password")} value=${values.password}
        autocomplete="current-password" onInput=${set("password")} error=${form.errors.password} />
      <${Notice}>${form.general}<//>
      <${Notice} kind="info">${notice && t(...notice)}<//>
      <div class="actions"><button class="btn btn-primary" type="submit" disabled=${form.busy}>${t("account.email_save")}</button></div>
    </form>
  </section>`;
}

const EMPTY_PASSWORDS = { old_password: "", new_password: "", new_password2: "" };

// The hidden name lets a password manager file the new password under the right account.
function PasswordPanel({ username }) {
  const [values, setValues] = useState(EMPTY_PASSWORDS);
  const [saved, setSaved] = useState(false);
  const form = useServerForm(Object.keys(EMPTY_PASSWORDS));
  const set = (name) => (value) => { form.clear(name); setSaved(false); setValues((v) => ({ ...v, [name]: value })); };
  async function submit(e) {
    if (!(await form.submit(e, () => post("/api/auth/password/", values)))) return;
    setValues(EMPTY_PASSWORDS);
    setSaved(true);
  }
  return html`<section class="panel" aria-labelledby="account-password">
    <h2 id="account-password">${t("account.password_title")}</h2>
    <form class="form" onSubmit=${submit} novalidate ref=${form.formRef} aria-labelledby="account-password" data-testid="password-form">
      <input type="text" name="username" value=${username} autocomplete="username" hidden readonly />
      <${Field} name="old_password" type="password" label=${t("field.old_password")} value=${values.old_password}
        autocomplete="current-password" onInput=${set("old_password")} error=${form.errors.old_password} />
      <${Field} name="new_password" type="password" label=${t("field.new_password")} value=${values.new_password}
        autocomplete="new-password" hint=${t("auth.password_hint")} onInput=${set("new_password")} error=${form.errors.new_password} />
      <${Field} name="new_password2" type="password" label=${t("field.new_password2")} value=${values.new_password2}
        autocomplete="new-password" onInput=${set("new_password2")} error=${form.errors.new_password2} />
      <${Notice}>${form.general}<//>
      <${Notice} kind="info">${saved && t("account.password_saved")}<//>
      <div class="actions"><button class="btn btn-primary" type="submit" disabled=${form.busy}>${t("account.password_save")}</button></div>
    </form>
  </section>`;
}

// The server's applicationServerKey (base64url) as pushManager.subscribe wants it.
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// What the device list calls this device: its browser and system, as far as the browser tells.
function deviceLabel() {
  const ua = navigator.userAgent;
  const browser = ["Edg", "Firefox", "Chrome", "Safari"].find((name) => ua.includes(name + "/")) || "";
  const system = navigator.userAgentData?.platform || ["Android", "iPhone", "iPad", "Windows", "Mac", "Linux"].find((n) => ua.includes(n)) || "";
  return [browser === "Edg" ? "Edge" : browser, system].filter(Boolean).join(" · ");
}

const canPush = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

// Web Push and e-mail (backend/notifications): what to be told, on which devices.
function NotificationsPanel() {
  const [state, setState] = useState(null);
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => { get("/api/notifications/").then(setState).catch((e) => setProblem(e.message)); }, []);
  if (!state) return html`<section class="panel"><${Notice}>${problem}<//>${!problem && html`<${Spinner} />`}</section>`;
  async function choose(channel, kind, on) {
    const chosen = on ? [...state[channel], kind] : state[channel].filter((k) => k !== kind);
    try {
      setState(await api("PUT", "/api/notifications/", { [channel]: chosen }));
      setProblem("");
    } catch (e) { setProblem(e.message); }
  }
  async function subscribe() {
    setBusy(true);
    setProblem("");
    try {
      if ((await Notification.requestPermission()) !== "granted") { setProblem(t("notify.denied")); return; }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true,
        applicationServerKey: keyBytes(state.vapid_public_key) });
      await post("/api/notifications/devices/", { ...subscription.toJSON(), label: deviceLabel() });
      setState(await get("/api/notifications/"));
    } catch (e) {
      setProblem(e instanceof Error && e.status ? e.message : t("notify.failed"));
    } finally { setBusy(false); }
  }
  async function remove(id) {
    try {
      await del(`/api/notifications/devices/${id}/`);
      setState(await get("/api/notifications/"));
    } catch (e) { setProblem(e.message); }
  }
  const pushable = canPush() && state.vapid_public_key;
  return html`<section class="panel" aria-labelledby="account-notify" data-testid="notifications">
    <h2 id="account-notify">${t("notify.title")}</h2>
    <table class="notify-kinds">
      <thead><tr><th scope="col">${t("notify.what")}</th><th scope="col">${t("notify.push")}</th><th scope="col">${t("notify.email")}</th></tr></thead>
      <tbody>${state.kinds.map((kind) => html`<tr key=${kind}>
        <th scope="row">${t(`notify.kind.${kind}`)}</th>
        ${["push", "email"].map((channel) => html`<td><input type="checkbox" data-testid=${`${channel}-${kind}`}
          aria-label=${t(`notify.kind.${kind}`) + " · " + t(`notify.${channel}`)} checked=${state[channel].includes(kind)}
          disabled=${channel === "email" && !state.has_email} onChange=${(e) => choose(channel, kind, e.currentTarget.checked)} /></td>`)}
      </tr>`)}</tbody>
    </table>
    ${!state.has_email && html`<p class="hint">${t("notify.email_needs_address")}</p>`}
    <h3>${t("notify.devices")}</h3>
    ${state.devices.length ? html`<ul class="notify-devices" data-testid="devices">${state.devices.map((d) => html`<li key=${d.id}>
        <span>${d.label || t("notify.device_unnamed")}</span>
        <button type="button" class="btn btn-small" data-testid=${`remove-device-${d.id}`} onClick=${() => remove(d.id)}>${t("notify.remove")}</button>
      </li>`)}</ul>` : html`<p class="hint" data-testid="no-devices">${t("notify.no_devices")}</p>`}
    <${Notice}>${problem}<//>
    ${pushable ? html`<div class="actions"><button type="button" class="btn" data-testid="subscribe-device" disabled=${busy}
        onClick=${subscribe}>${t("notify.subscribe")}</button></div>`
      : html`<p class="hint">${t(canPush() ? "notify.push_off" : "notify.unsupported")}</p>`}
  </section>`;
}

export function AccountScreen({ user }) {
  const [me, setMe] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => { get("/api/auth/me/").then(setMe).catch((e) => setError(e.message)); }, [user.id]);
  async function leave() {
    await logout();
    navigate("/");
  }
  const title = t("account.title");
  return html`<${Page} title=${title}>
    <div class="stack account" data-testid="account">
      <p class="muted">${t("account.signed_in", { name: user.username })} <a href=${"/u/" + encodeURIComponent(user.username)} data-testid="my-profile">${t("account.profile")}</a></p>
      <${LanguagePanel} />
      <${Notice}>${error}<//>
      ${me ? html`<${EmailPanel} me=${me} onSaved=${setMe} /><${PasswordPanel} username=${me.username} />` : !error && html`<${Spinner} />`}
      <${NotificationsPanel} />
      <section class="panel">
        <button type="button" class="btn" data-testid="logout" onClick=${leave}>${t("nav.logout")}</button>
      </section>
    </div>
  <//>`;
}
