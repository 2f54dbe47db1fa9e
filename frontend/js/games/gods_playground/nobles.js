// Laying out the noble tiles (D2): the server offers the tiles in hand, the player
// stages all six and sends the layout as one action; nothing here decides what is
// legal. Loaded, with gp_nobles.css and the "gods_playground_nobles" words, when the
// table first asks for a layout (table.js): a match's first decision.
import { html, useEffect, useLayoutEffect, useRef, useState } from "../../lib.js";
import { t } from "../../i18n.js";
import { FAMILY_COLOURS, SLOTS, provinceName } from "./layout.js";

function takeOut(list, values) {
  const left = [...list];
  for (const v of values) { const i = left.indexOf(v); if (i >= 0) left.splice(i, 1); }
  return left;
}

/** Lay out all six noble tiles, move them about freely, then commit the layout in one action (D2).
 * Tap to assign, so the whole layout fits the phone's dock without scrolling: one slot is the target (the first
 * empty one unless the player picks another), a tile tapped in hand goes there and the target moves on to the
 * next empty slot; tapping the target again sends its tile back to the hand. Six taps lay out a round. */
export function NobleStager({ view, legal, send, pending, names }) {
  const placed = view.your_nobles || {};
  // The server offers one entry naming the tiles in hand (the layouts are too many to list).
  const offer = legal.find((a) => a.type === "place_nobles");
  const hand = offer ? offer.tiles : [];
  const [staged, setStaged] = useState({});
  const [chosen, setChosen] = useState(null);
  const [how, setHow] = useState(false);
  const round = view.round;
  useEffect(() => { setStaged({}); setChosen(null); }, [round]);
  // A tile laid leaves the hand, and with it the focus: a keyboard player goes on from the next tile in hand
  // (the send once the hand is empty), so six presses of Enter lay out the round.
  const root = useRef(null);
  const refocus = useRef(false);
  useLayoutEffect(() => {
    if (!refocus.current || !root.current) return;
    refocus.current = false;
    const next = root.current.querySelector("[data-testid=hand-tile]:not(:disabled)") || root.current.querySelector("[data-testid=stage-submit]");
    if (next) next.focus();
  }, [staged]);
  // Not asked: the layout once laid; before that (a replay, a seat the bot plays) nothing to claim.
  if (!offer) return !Object.keys(placed).length ? null : html`<section class="panel gp-decision" data-testid="noble-stager">
    <h2>${t("gp.n.yours")}</h2><${Placed} placed=${placed} /><p class="muted">${t("gp.n.all_placed")}</p></section>`;
  const free = takeOut(hand, Object.values(staged));
  const ready = SLOTS.every((s) => s in staged);
  const after = (slot, layout) => {
    const i = SLOTS.indexOf(slot);
    return [...SLOTS.slice(i + 1), ...SLOTS.slice(0, i)].find((s) => !(s in layout)) || null;
  };
  const target = chosen || SLOTS.find((s) => !(s in staged)) || null;

  function put(v) {
    if (!target) return;
    const next = { ...staged, [target]: v };
    refocus.current = true;
    setStaged(next);
    setChosen(after(target, next));
  }
  function tapSlot(slot) {
    if (slot === target && slot in staged) {
      const next = { ...staged };
      delete next[slot];
      setStaged(next);
    }
    setChosen(slot);
  }
  return html`<section class="panel gp-decision gp-stager" ref=${root} data-testid="noble-stager" aria-labelledby="stager-title">
    <h2 id="stager-title">${t("gp.n.place")}</h2>
    <div class="gp-hand" role="group" aria-label=${t("gp.n.left_label", { list: free.join(", ") || t("ui.none") })}>
      ${free.length ? [...new Set(free)].map((v) => {
        const n = free.filter((x) => x === v).length;
        return html`<button type="button" class="gp-tile-btn" data-testid="hand-tile" data-value=${v} key=${v}
          disabled=${pending || !target} onClick=${() => put(v)}
          aria-label=${target ? t("gp.n.tile_on", { v, p: provinceName(target) }) : String(v)}>${v}${n > 1 && html`<span
          class="gp-tile-n" aria-hidden="true">×${n}</span>`}</button>`;
      }) : html`<span class="muted gp-hand-word">${t("gp.n.all_staged")}</span>`}
    </div>
    ${how ? html`<p class="muted gp-how-text" id="stager-how">${t("gp.n.explain")}</p>`
      : html`<div class="gp-slots" role="group" aria-label=${t("gp.n.slots")}>${SLOTS.map((slot) => html`<div class="gp-slot-cell"><button
        type="button" class=${"gp-slot" + (slot in staged ? " set" : "")} data-testid="stage-slot" data-slot=${slot}
        aria-pressed=${slot === target} disabled=${pending} onClick=${() => tapSlot(slot)}
        aria-label=${slot in staged ? t("gp.n.slot_set", { p: provinceName(slot), v: staged[slot] }) : t("gp.n.slot_empty", { p: provinceName(slot) })}>
        <span class="gp-slot-name">${provinceName(slot)}</span>
        <span class="gp-slot-val" aria-hidden="true">${slot in staged ? staged[slot] : "·"}</span></button>
        <${SlotCubes} view=${view} slot=${slot} names=${names} /></div>`)}</div>`}
    <div class="actions gp-stage-send">
      <button type="button" class="btn btn-primary" data-testid="stage-submit" disabled=${!ready || pending}
        onClick=${() => send({ type: "place_nobles", ...Object.fromEntries(SLOTS.map((s) => [s, staged[s]])) })}>${pending ? t("gp.n.placing") : ready ? t("gp.n.submit") : t("gp.n.more", { count: SLOTS.length - Object.keys(staged).length })}</button>
      <button type="button" class="btn btn-ghost" disabled=${pending || !Object.keys(staged).length}
        onClick=${() => { setStaged({}); setChosen(null); }}>${t("gp.n.clear")}</button>
      <button type="button" class="btn btn-ghost gp-how" aria-expanded=${how} aria-controls="stager-how"
        onClick=${() => setHow(!how)}>${t("gp.n.how")}</button>
    </div>
  </section>`;
}

/** What is at stake on a slot: the cubes each family already has there, under its button (wider screens; on a
 * phone the map above shows them). */
function SlotCubes({ view, slot, names }) {
  const pr = view.prov && view.prov[slot];
  if (!pr) return null;
  return html`<span class="gp-stage-cubes" role="img" aria-label=${t("gp.n.cubes_there", { list: pr.nobles.map((n, s) => `${names(s)} ${n}`).join(", ") })}>
    ${pr.nobles.map((n, s) => html`<span class="gp-mini-cube" style=${{ background: FAMILY_COLOURS[s] }}></span>${n}`)}</span>`;
}

function Placed({ placed }) {
  return html`<p class="gp-tiles-left">${SLOTS.filter((s) => s in placed).map((s) => html`<span class="gp-placed">${provinceName(s)} <span class="gp-tile-chip on">${placed[s]}</span></span>`)}</p>`;
}
