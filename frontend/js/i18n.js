// The app's words in Hungarian and English: the server picks the language (<html lang>); each part
// (frontend/i18n/<lang>/<part>.json) loads when first needed. Switching reloads every loaded part in the
// other language and re-renders in place, so no screen loses its state.
import { assetUrl, useEffect, useState } from "./lib.js";

export const LANGUAGES = { hu: "Magyar", en: "English" };

let lang = LANGUAGES[document.documentElement.lang] ? document.documentElement.lang : "en";
let words = {};
let plurals = new Intl.PluralRules(lang);
const parts = new Map(); // part -> its load in the current language
const listeners = new Set();
const reported = new Set();

export function language() { return lang; }

async function fetchPart(code, part) {
  const r = await fetch(assetUrl(`/app/i18n/${code}/${part}.json`), { credentials: "same-origin" });
  if (!r.ok) throw new Error(t("ui.words_failed"));
  return r.json();
}

/** Adds a part's words (e.g. "condottiere") in the current language; resolves once they are in. */
export function loadWords(part) {
  if (!parts.has(part)) {
    const load = (async () => {
      for (;;) {
        const code = lang;
        const w = await fetchPart(code, part);
        if (code === lang) { Object.assign(words, w); return; }
        // The language changed while these words travelled: fetch them again in the new one.
      }
    })();
    load.catch(() => parts.delete(part)); // a later visit may try again
    parts.set(part, load);
  }
  return parts.get(part);
}

const VOWEL = /^[aáeéiíoóöőuúüű]/i;

/** Hungarian's definite article for `word`: "az" before a vowel sound, else "a"; a number by how it is said
 * (az 1., a 2., az 5., a 10., az 50., a 100., az 500., az 1000.); "" for a value that brings its own article
 * ("Az Isten játszótere"). */
export function article(word) {
  const s = String(word).trim();
  if (/^az?\s/i.test(s)) return "";
  const n = s.match(/^\d+(?:[ \u00a0\u202f]\d{3})*/);
  if (!n) return VOWEL.test(s) ? "az" : "a";
  // The first word said is that of the leading group of three digits: egy (and ezer, egymillió), öt, ötven, ötszáz.
  const digits = n[0].replace(/\D/g, "");
  const g = Number(digits.slice(0, digits.length % 3 || 3));
  const lead = g >= 100 ? Math.floor(g / 100) : g >= 10 ? Math.floor(g / 10) : g;
  return lead === 5 || g === 1 ? "az" : "a";
}

/** A placeholder's text: `{az:name}` (`{Az:name}` to begin a sentence) puts the article its value needs before it. */
function fill(params, m, art, k) {
  if (!(k in params)) return m;
  const v = String(params[k]);
  if (!art) return v;
  const a = article(v);
  return a ? `${art === "Az" ? a[0].toUpperCase() + a.slice(1) : a} ${v}` : v;
}

/** `key`'s words with `{name}` placeholders filled; a `count` param picks the plural form. */
export function t(key, params) {
  let w = words[key];
  if (w == null) {
    // Loud on purpose: the browser tests fail on console errors, so a missing word never ships.
    if (!reported.has(key)) { reported.add(key); console.error(`i18n: "${key}" has no ${lang} text`); }
    return key;
  }
  if (typeof w === "object") w = w[plurals.select(Number(params && params.count) || 0)] ?? w.other;
  return params ? w.replace(/\{(?:(az|Az):)?(\w+)\}/g, (m, art, k) => fill(params, m, art, k)) : w;
}

/** Whether a word exists (for data the server may extend, e.g. a new game's name). */
export function has(key) { return words[key] != null; }

// One formatter per language, made on first use: a table formats many numbers on every render, and making a
// formatter costs far more than using one.
const formats = new Map();
function format(kind, make) {
  const key = `${kind}/${lang}`;
  if (!formats.has(key)) formats.set(key, make(lang));
  return formats.get(key);
}
export const num = (n) => format("num", (l) => new Intl.NumberFormat(l)).format(n);
export const list = (items) => format("list", (l) => new Intl.ListFormat(l, { type: "conjunction" })).format(items.map(String));

/** Switches every loaded part to `code` and re-renders (remembering the choice is the caller's: POST /api/auth/language/). */
export async function setLanguage(code) {
  if (code === lang || !LANGUAGES[code]) return;
  await Promise.allSettled(parts.values());
  const names = [...parts.keys()];
  const loaded = await Promise.all(names.map((p) => fetchPart(code, p)));
  lang = code; // a part still on its way now fetches itself again in this language (loadWords)
  words = Object.assign({}, ...loaded);
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  listeners.forEach((f) => f(code));
}

/** The current language; the component re-renders when it changes. */
export function useLanguage() {
  const [code, set] = useState(lang);
  useEffect(() => { listeners.add(set); return () => listeners.delete(set); }, []);
  return code;
}
