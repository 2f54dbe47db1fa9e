// The fallback table, for a game without its own screen: loaded only if such a match opens.
import { lazyTable } from "../../lazy.js";

export const GenericTable = lazyTable(() => import("./table.js").then((m) => m.GenericTable));
