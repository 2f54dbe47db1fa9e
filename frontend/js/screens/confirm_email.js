// The link mailed to a new address (docs/api.md, E-mail addresses): /confirm-email/<token> confirms it at once
// and says so, or says why not (a used or expired link: save the address again for a new one).
import { html, useEffect, useState } from "../lib.js";
import { post } from "../api.js";
import { t } from "../i18n.js";
import { Notice, Page, Spinner } from "../ui.js";

export function ConfirmEmailScreen({ params, user }) {
  const [token] = params;
  const [outcome, setOutcome] = useState(null); // null while asking; then {email} or {error}
  useEffect(() => {
    post("/api/auth/email/confirm/", { token }).then((r) => setOutcome({ email: r.email }))
      .catch((err) => setOutcome({ error: err.message }));
  }, [token]);
  const title = t("confirm.title");
  if (!outcome) return html`<${Page} title=${title}><${Spinner} /><//>`;
  return html`<${Page} title=${title}>
    <section class="card auth" data-testid=${outcome.error ? "confirm-bad" : "confirm-done"}>
      ${outcome.error ? html`<${Notice}>${outcome.error}<//>`
        : html`<p role="status">${t("confirm.done", { email: outcome.email })}</p>`}
      <a class="btn btn-primary btn-block" href=${user ? "/account" : "/login"}>${t(user ? "confirm.to_account" : "reset.to_login")}</a>
    </section>
  <//>`;
}
