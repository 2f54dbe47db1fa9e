// Code that loads on first use (import()), so a page downloads only what it shows (frontend/README.md, Loading).
import { assetUrl, html, useEffect, useState } from "./lib.js";
import { t } from "./i18n.js";
import { Notice, Spinner } from "./ui.js";

export function loadCss(path) {
  const href = assetUrl(path);
  // (A <link rel="preload"> of the same file, as the server writes for the first screen, is not the stylesheet.)
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = resolve;
    link.onerror = () => reject(new Error(t("table.styles_failed")));
    document.head.appendChild(link);
  });
}

/** A component that shows a spinner (saying `waiting`, a catalogue key; none if null) until `fetch()`, a promise
 * of the real one, resolves. `preload()` starts the download early; `load()` is its promise. */
export function lazyComponent(fetch, waiting = "ui.loading") {
  let loading = null;
  let ready = null; // once loaded, later mounts render at once instead of flashing the spinner
  const load = () => {
    if (!loading) {
      loading = fetch().then((C) => (ready = C));
      loading.catch(() => { loading = null; }); // a later visit may try again
    }
    return loading;
  };
  function Lazy(props) {
    const [C, setC] = useState(() => ready);
    const [error, setError] = useState("");
    useEffect(() => {
      if (C) return undefined;
      let live = true;
      load().then((L) => live && setC(() => L), (e) => live && setError(`${e.message || e} ${t("table.reload")}`));
      return () => { live = false; };
    }, []);
    if (error) return html`<${Notice}>${error}<//>`;
    if (!C) return waiting ? html`<${Spinner} label=${t(waiting)} />` : null;
    return html`<${C} ...${props} />`;
  }
  Lazy.preload = () => { load().catch(() => {}); };
  Lazy.load = load;
  return Lazy;
}

/** A game's table: the spinner says the table is being set up. */
export const lazyTable = (fetchTable) => lazyComponent(fetchTable, "match.setting_up");
