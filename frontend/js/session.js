// Who is signed in. Seeded from the page (the server renders it into #boot),
// updated by the auth screens; components subscribe with useUser().
import { useEffect, useState } from "./lib.js";
import { post } from "./api.js";
import { setLanguage } from "./i18n.js";

function bootUser() {
  try {
    return JSON.parse(document.getElementById("boot").textContent).user || null;
  } catch {
    return null;
  }
}

let current = bootUser();
const subscribers = new Set();

export function currentUser() { return current; }

export function setUser(user) {
  current = user;
  subscribers.forEach((f) => f(user));
}

export function useUser() {
  const [user, set] = useState(current);
  useEffect(() => { subscribers.add(set); return () => subscribers.delete(set); }, []);
  return user;
}

export async function logout() {
  await post("/api/auth/logout/");
  setUser(null);
}

/** Switch the site to `code` and have the server remember it (the cookie; the account too when signed in). */
export async function chooseLanguage(code) {
  // The cookie first: what the screens then fetch again (e.g. the games' option labels) comes in the new language.
  await post("/api/auth/language/", { language: code }).catch(() => null);
  await setLanguage(code);
}
