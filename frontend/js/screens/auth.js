// Sign up and log in (one form, two modes).
import { html, useState } from "../lib.js";
import { post, fieldErrors } from "../api.js";
import { navigate } from "../router.js";
import { setUser } from "../session.js";
import { t } from "../i18n.js";
import { Notice, Page, siteTitle } from "../ui.js";

export function AuthScreen({ path, query }) {
  const signup = path.startsWith("/signup");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const next = query.get("next");
  const safeNext = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";

  async function submit(e) {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const user = await post(signup ? "/api/auth/signup/" : "/api/auth/login/", { username, password });
      setUser(user);
      navigate(safeNext, { replace: true });
    } catch (err) {
      setError(fieldErrors(err) || err.message);
    } finally {
      setBusy(false);
    }
  }

  const other = signup ? "/login" : "/signup";
  const otherQuery = next ? `?next=${encodeURIComponent(next)}` : "";
  const action = t(signup ? "nav.signup" : "nav.login");
  return html`<${Page} title=${t(signup ? "auth.signup_title" : "auth.login_title")} tab=${siteTitle(action)}>
    <form class="card auth" onSubmit=${submit} aria-label=${action}>
      <label class="field"><span>${t("field.username")}</span>
        <input name="username" autocomplete="username" required maxlength="150" value=${username}
          onInput=${(e) => setUsername(e.target.value)} autofocus /></label>
      <label class="field"><span>${t("field.password")}</span>
        <input name="password" type="password" required value=${password}
          autocomplete=${signup ? "new-password" : "current-password"}
          onInput=${(e) => setPassword(e.target.value)} /></label>
      ${signup && html`<p class="hint">${t("auth.password_hint")}</p>`}
      <${Notice}>${error}<//>
      <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>${action}</button>
      <p class="auth-switch">${t(signup ? "auth.have_account" : "auth.new_here")} <a href=${other + otherQuery}>${t(signup ? "nav.login" : "auth.create")}</a></p>
    </form>
  <//>`;
}
