// One import point for the view library, so screens never name vendor paths.
import { h, render, Fragment, createContext } from "preact";
import { useState, useEffect, useRef, useMemo, useCallback, useReducer, useContext, useLayoutEffect } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment, createContext, useState, useEffect, useRef, useMemo, useCallback, useReducer, useContext, useLayoutEffect };
