// REST client: session cookie + CSRF header, errors as {code, message} (docs/api.md).
// The server writes its messages in the page's language (the language cookie).
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || t("api.status", { status }));
    this.status = status;
    this.code = (body && body.code) || "error";
    this.fields = (body && body.fields) || null;
  }
}

function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : "";
}

let csrfReady = null;
function ensureCsrf() {
  if (cookie("csrftoken")) return Promise.resolve();
  csrfReady = csrfReady || fetch("/api/auth/csrf/", { credentials: "same-origin" }).catch(() => {});
  return csrfReady;
}

export async function api(method, path, body) {
  const unsafe = !["GET", "HEAD"].includes(method);
  if (unsafe) await ensureCsrf();
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // Read the cookie per request: Django rotates the token on login.
  if (unsafe) headers["X-CSRFToken"] = cookie("csrftoken");
  return answer(fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
}

/** The data of a fetch() already under way, or its ApiError. */
export async function answer(pending) {
  let response;
  try {
    response = await pending;
  } catch (e) {
    throw new ApiError(0, { code: "network", message: t("api.network") });
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data && typeof data === "object" ? data : null);
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const del = (path) => api("DELETE", path);
