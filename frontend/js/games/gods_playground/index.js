// Loads the God's Playground table (its modules and gp.css) only when a God's
// Playground match opens, so other pages never download it.
import { html, useEffect, useState } from "../../lib.js";
import { Notice, Spinner } from "../../ui.js";

let loading = null;

function loadCss(href) {
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

function load() {
  if (!loading) {
    loading = Promise.all([import("./table.js"), loadCss("/app/gp.css")]).then(([m]) => m.GodsPlaygroundTable);
    loading.catch(() => { loading = null; }); // a later visit may try again
  }
  return loading;
}

export function GodsPlaygroundTable(props) {
  const [Table, setTable] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    load().then((T) => live && setTable(() => T), (e) => live && setError(`${e.message || e} Reload the page to try again.`));
    return () => { live = false; };
  }, []);
  if (error) return html`<${Notice}>${error}<//>`;
  if (!Table) return html`<${Spinner} label="Setting up the table…" />`;
  return html`<${Table} ...${props} />`;
}
