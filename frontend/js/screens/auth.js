// Sign up and log in (one screen, two modes), and the form parts the other account screens share
// (reset.js, account.js). The server checks every field at once and words each error for its field, in
// the page's language (docs/api.md, Field errors); a form shows each beside its field, never as
// "password: ...", and the first invalid field takes focus.
import { html, useEffect, useRef, useState } from "../lib.js";
import { post } from "../api.js";
import { navigate } from "../router.js";
import { setUser } from "../session.js";
import { t } from "../i18n.js";
import { Notice, Page, siteTitle } from "../ui.js";

let ids = 0;

/** A labelled input; `error` (a sentence or several) goes under it, tied by aria-describedby and aria-invalid. */
export function Field({ name, label, error, hint, type = "text", value, onInput, ...rest }) {
  const id = useRef(null);
  if (!id.current) id.current = `f${++ids}-${name}`;
  const hintId = `${id.current}-hint`;
  const errorId = `${id.current}-error`;
  const described = [hint && hintId, error && errorId].filter(Boolean).join(" ") || undefined;
  return html`<div class=${"field" + (error ? " field-bad" : "")}>
    <label for=${id.current}>${label}</label>
    <input id=${id.current} name=${name} type=${type} value=${value} onInput=${(e) => onInput(e.target.value)}
      aria-invalid=${error ? "true" : undefined} aria-describedby=${described} ...${rest} />
    ${error && html`<p class="field-error" id=${errorId} data-testid="field-error" data-field=${name}>${error}</p>`}
    ${hint && html`<p class="hint" id=${hintId}>${hint}</p>`}
  </div>`;
}

/**
 * A form's submission and its errors. `fields` names the form's inputs, `rename` maps a server field
 * name to one of them; an error for a field the form has no input for (or for none) is `general`, shown
 * above the button. Returns {busy, errors, general, submit(event, request), clear(name), formRef}: `request()`
 * returns the API promise; `submit` resolves to `{value}` when it succeeds and to null when its ApiError
 * filled `errors` ({field: text}) and `general`. `formRef` goes on the <form>.
 */
export function useServerForm(fields, rename = {}) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState({});
  const [general, setGeneral] = useState("");
  const [tries, setTries] = useState(0);
  const formRef = useRef(null);

  // After each refused submit: focus the first field (in the form's order) that has an error.
  useEffect(() => {
    if (!tries || !formRef.current) return;
    const bad = formRef.current.querySelector("[aria-invalid=true]");
    if (bad) bad.focus();
  }, [tries]);

  async function submit(e, request) {
    if (e) e.preventDefault();
    if (busy) return null;
    setBusy(true);
    setErrors({});
    setGeneral("");
    try {
      return { value: await request() };
    } catch (err) {
      const mine = {};
      const rest = [];
      for (const [key, sentences] of Object.entries(err.fields || {})) {
        const field = rename[key] || key;
        const text = [].concat(sentences).join(" ");
        if (fields.includes(field)) mine[field] = mine[field] ? `${mine[field]} ${text}` : text;
        else rest.push(text);
      }
      setErrors(mine);
      // No field to point at: the server's message (already prose) says it all.
      setGeneral(rest.length || !Object.keys(mine).length ? rest.join(" ") || err.message : "");
      setTries((n) => n + 1);
      return null;
    } finally {
      setBusy(false);
    }
  }

  /** Typing in a field takes its error away (it may no longer hold). */
  const clear = (name) => { if (errors[name]) setErrors((all) => ({ ...all, [name]: "" })); };
  return { busy, errors, general, submit, clear, formRef };
}

const SIGNUP_FIELDS = ["username", "email", "password", "password2"];
const LOGIN_FIELDS = ["username", "password"];

export function AuthScreen({ path, query }) {
  const signup = path.startsWith("/signup");
  const [values, setValues] = useState({ username: "", email: "", password: "", password2: "" });
  const form = useServerForm(signup ? SIGNUP_FIELDS : LOGIN_FIELDS);
  const next = query.get("next");
  const safeNext = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";

  const set = (name) => (value) => { form.clear(name); setValues((v) => ({ ...v, [name]: value })); };
  async function submit(e) {
    const body = signup ? values : { username: values.username, password: values.password };
    const done = await form.submit(e, () => post(signup ? "/api/auth/signup/" : "/api/auth/login/", body));
    if (!done) return;
    setUser(done.value);
    navigate(safeNext, { replace: true });
  }

  const other = signup ? "/login" : "/signup";
  const otherQuery = next ? `?next=${encodeURIComponent(next)}` : "";
  const action = t(signup ? "nav.signup" : "nav.login");
  const field = (name, label, props) => html`<${Field} name=${name} label=${label} value=${values[name]}
    onInput=${set(name)} error=${form.errors[name]} ...${props} />`;
  return html`<${Page} title=${t(signup ? "auth.signup_title" : "auth.login_title")} tab=${siteTitle(action)}>
    <form class="card auth" onSubmit=${submit} aria-label=${action} novalidate ref=${form.formRef}>
      ${!signup && query.get("reset") === "done" && html`<${Notice} kind="info">${t("auth.reset_done")}<//>`}
      ${field("username", t("field.username"), { autocomplete: "username", maxlength: 150, autofocus: true,
        autocapitalize: "none", spellcheck: false, hint: signup ? t("auth.username_hint") : "" })}
      ${signup && field("email", t("field.email"), { type: "email", autocomplete: "email", hint: t("auth.email_hint") })}
      ${field("password", t("field.password"), { type: "password", autocomplete: signup ? "new-password" : "current-password",
        hint: signup ? t("auth.password_hint") : "" })}
      ${signup && field("password2", t("field.password2"), { type: "password", autocomplete: "new-password" })}
      ${!signup && html`<p class="auth-forgot"><a href="/reset" data-testid="forgot">${t("auth.forgot")}</a></p>`}
      <${Notice}>${form.general}<//>
      <button class="btn btn-primary btn-block" type="submit" disabled=${form.busy}>${action}</button>
      <p class="auth-switch">${t(signup ? "auth.have_account" : "auth.new_here")} <a href=${other + otherQuery}>${t(signup ? "nav.login" : "auth.create")}</a></p>
    </form>
  <//>`;
}
