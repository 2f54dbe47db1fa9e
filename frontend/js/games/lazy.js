// A game's table loads on first use (import()), so a page never downloads the
// code of a game it does not show. Each game's index.js is such a loader.
import { html, useEffect, useState } from "../lib.js";
import { Notice, Spinner } from "../ui.js";

export function loadCss(href) {
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = resolve;
    link.onerror = () => reject(new Error("The table's styles did not load."));
    document.head.appendChild(link);
  });
}

/** A table component that shows a spinner until `fetchTable()` (a promise of the real table) resolves.
 * `preload()` starts the download early, e.g. as soon as the match record names its game. */
export function lazyTable(fetchTable) {
  let loading = null;
  let ready = null; // once loaded, later mounts render at once instead of flashing the spinner
  const load = () => {
    if (!loading) {
      loading = fetchTable().then((T) => (ready = T));
      loading.catch(() => { loading = null; }); // a later visit may try again
    }
    return loading;
  };
  function LazyTable(props) {
    const [Table, setTable] = useState(() => ready);
    const [error, setError] = useState("");
    useEffect(() => {
      if (Table) return undefined;
      let live = true;
      load().then((T) => live && setTable(() => T), (e) => live && setError(`${e.message || e} Reload the page to try again.`));
      return () => { live = false; };
    }, []);
    if (error) return html`<${Notice}>${error}<//>`;
    if (!Table) return html`<${Spinner} label="Setting up the table…" />`;
    return html`<${Table} ...${props} />`;
  }
  LazyTable.preload = () => { load().catch(() => {}); };
  return LazyTable;
}
