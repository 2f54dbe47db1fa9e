// The fallback table, for a game without its own screen: loaded only if such a match opens.
import { lazyTable, loadCss } from "../../lazy.js";

export const GenericTable = lazyTable(() => Promise.all([import("./table.js"), loadCss("/app/result.css"), loadCss("/app/generic.css")])
  .then(([m]) => m.GenericTable));
