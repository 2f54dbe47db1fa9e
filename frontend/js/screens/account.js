// The signed-in player's account: language, e-mail address (for password resets), password, log out.
import { html, useEffect, useState } from "../lib.js";
import { get, post } from "../api.js";
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
      <section class="panel">
        <button type="button" class="btn" data-testid="logout" onClick=${leave}>${t("nav.logout")}</button>
      </section>
    </div>
  <//>`;
}
