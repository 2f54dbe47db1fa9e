// History-API routing: plain <a href="/..."> links stay real links (open in a
// new tab works) and same-tab clicks are handled here without a reload.
import { useEffect, useState } from "./lib.js";

const listeners = new Set();

export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  history[replace ? "replaceState" : "pushState"](null, "", to);
  listeners.forEach((f) => f());
  window.scrollTo(0, 0);
}

export function useLocation() {
  const read = () => ({ path: location.pathname, query: new URLSearchParams(location.search) });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc(read());
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => { listeners.delete(update); window.removeEventListener("popstate", update); };
  }, []);
  return loc;
}

export function interceptLinks() {
  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest && e.target.closest("a[href]");
    if (!a || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || /^\/(api|admin|static|app)\//.test(url.pathname)) return;
    // A jump within the page (a rules page's contents) is the browser's own business.
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash); // the screen scrolls to the hash once drawn (useHashScroll, screens/rules.js)
  });
}

export function match(path, routes) {
  for (const [re, component] of routes) {
    const m = path.match(re);
    if (m) return { component, params: m.slice(1) };
  }
  return null;
}
