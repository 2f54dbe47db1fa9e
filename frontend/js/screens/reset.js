// Password reset by e-mail (docs/api.md, Password reset): /reset asks for the link; the link in the mail,
// /reset/<uid>/<token>, opens the form for the new password; then the log-in form, which says it worked.
import { html, useEffect, useState } from "../lib.js";
import { post } from "../api.js";
import { navigate } from "../router.js";
import { t } from "../i18n.js";
import { Field, useServerForm } from "./auth.js";
import { Notice, Page, Spinner } from "../ui.js";

function RequestLink() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState("");
  const form = useServerForm(["email"]);
  async function submit(e) {
    if (await form.submit(e, () => post("/api/auth/password-reset/", { email }))) setSentTo(email.trim());
  }
  const title = t("reset.request_title");
  if (sentTo) {
    return html`<${Page} title=${title}>
      <section class="card auth" data-testid="reset-sent" role="status">
        <p>${t("reset.sent", { email: sentTo })}</p>
        <p class="hint">${t("reset.sent_hint")}</p>
        <a class="btn btn-primary btn-block" href="/login">${t("reset.to_login")}</a>
        <button type="button" class="btn btn-ghost btn-block" onClick=${() => setSentTo("")}>${t("reset.again")}</button>
      </section>
    <//>`;
  }
  return html`<${Page} title=${title}>
    <form class="card auth" onSubmit=${submit} aria-label=${title} novalidate ref=${form.formRef}>
      <p class="auth-lead">${t("reset.request_text")}</p>
      <${Field} name="email" type="email" label=${t("field.email")} value=${email} autocomplete="email" autofocus
        onInput=${(v) => { form.clear("email"); setEmail(v); }} error=${form.errors.email} />
      <${Notice}>${form.general}<//>
      <button class="btn btn-primary btn-block" type="submit" disabled=${form.busy}>${t("reset.send")}</button>
      <p class="auth-switch"><a href="/login">${t("reset.to_login")}</a></p>
    </form>
  <//>`;
}

function ChoosePassword({ uid, token }) {
  const [values, setValues] = useState({ new_password: "", new_password2: "" });
  // A wrong or used link is the "token" field's error: there is no input for it, so it shows above the button.
  const form = useServerForm(["new_password", "new_password2"]);
  const [linkBad, setLinkBad] = useState(false);
  // The link is checked on opening: a used or expired one says so before anyone types a new password.
  const [checked, setChecked] = useState(null); // null while asking; then "" (it works) or why not
  useEffect(() => {
    post("/api/auth/password-reset/check/", { uid, token }).then(() => setChecked(""))
      .catch((err) => setChecked(err.message));
  }, [uid, token]);
  const set = (name) => (value) => { form.clear(name); setValues((v) => ({ ...v, [name]: value })); };
  async function submit(e) {
    const done = await form.submit(e, () => post("/api/auth/password-reset/confirm/", { uid, token, ...values })
      .catch((err) => { setLinkBad(!!(err.fields && err.fields.token)); throw err; }));
    if (done) navigate("/login?reset=done", { replace: true });
  }
  const title = t("reset.new_title");
  if (checked === null) return html`<${Page} title=${title}><${Spinner} /><//>`;
  if (checked) {
    return html`<${Page} title=${title}>
      <section class="card auth" data-testid="reset-link-bad">
        <${Notice}>${checked}<//>
        <a class="btn btn-primary btn-block" href="/reset" data-testid="ask-again">${t("reset.ask_again")}</a>
        <p class="auth-switch"><a href="/login">${t("reset.to_login")}</a></p>
      </section>
    <//>`;
  }
  return html`<${Page} title=${title}>
    <form class="card auth" onSubmit=${submit} aria-label=${title} novalidate ref=${form.formRef} data-testid="reset-form">
      <${Field} name="new_password" type="password" label=${t("field.new_password")} value=${values.new_password}
        autocomplete="new-password" autofocus onInput=${set("new_password")} error=${form.errors.new_password}
        hint=${t("auth.password_hint")} />
      <${Field} name="new_password2" type="password" label=${t("field.new_password2")} value=${values.new_password2}
        autocomplete="new-password" onInput=${set("new_password2")} error=${form.errors.new_password2} />
      <${Notice}>${form.general}<//>
      ${linkBad ? html`<a class="btn btn-primary btn-block" href="/reset" data-testid="ask-again">${t("reset.ask_again")}</a>`
        : html`<button class="btn btn-primary btn-block" type="submit" disabled=${form.busy}>${t("reset.save")}</button>`}
    </form>
  <//>`;
}

export function ResetScreen({ params }) {
  const [uid, token] = params;
  return uid && token ? html`<${ChoosePassword} uid=${uid} token=${token} />` : html`<${RequestLink} />`;
}
