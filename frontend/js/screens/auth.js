// Sign up and log in (one form, two modes).
import { html, useState } from "../lib.js";
import { post, fieldErrors } from "../api.js";
import { navigate } from "../router.js";
import { setUser } from "../session.js";
import { Notice, Page, SITE } from "../ui.js";

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
  return html`<${Page} title=${signup ? "Create your account" : "Welcome back"} tab=${`${signup ? "Sign up" : "Log in"} · ${SITE}`}>
    <form class="card auth" onSubmit=${submit} aria-label=${signup ? "Sign up" : "Log in"}>
      <label class="field"><span>Username</span>
        <input name="username" autocomplete="username" required maxlength="150" value=${username}
          onInput=${(e) => setUsername(e.target.value)} autofocus /></label>
      <label class="field"><span>Password</span>
        <input name="password" type="password" required value=${password}
          autocomplete=${signup ? "new-password" : "current-password"}
          onInput=${(e) => setPassword(e.target.value)} /></label>
      ${signup && html`<p class="hint">At least 8 characters, not too common, not all digits.</p>`}
      <${Notice}>${error}<//>
      <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>${signup ? "Sign up" : "Log in"}</button>
      <p class="auth-switch">${signup ? "Already have an account? " : "New here? "}<a href=${other + otherQuery}>${signup ? "Log in" : "Create an account"}</a></p>
    </form>
  <//>`;
}
