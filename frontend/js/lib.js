// One import point for the view library, so screens never name vendor paths.
import { h, render, Fragment, createContext } from "preact";
import { useState, useEffect, useRef, useMemo, useCallback, useReducer, useContext, useLayoutEffect } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment, createContext, useState, useEffect, useRef, useMemo, useCallback, useReducer, useContext, useLayoutEffect };

/** A file's address under its content-hashed name, from the page's import map (backend/web/assets.py); the plain
 * address where the browser cannot resolve it, which the server also serves. */
export function assetUrl(path) {
  try { return new URL(import.meta.resolve(path)).pathname; } catch { return path; }
}
