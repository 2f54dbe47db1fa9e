// Laying out the noble tiles (D2): the server offers the tiles in hand, the player
// stages all six and sends the layout as one action; nothing here decides what is
// legal. Loaded, with gp_nobles.css and the "gods_playground_nobles" words, when the
// table first asks for a layout (table.js): a match's first decision.
import { html, useEffect, useState } from "../../lib.js";
import { t } from "../../i18n.js";
import { FAMILY_COLOURS, SLOTS, provinceName } from "./layout.js";

function takeOut(list, values) {
  const left = [...list];
  for (const v of values) { const i = left.indexOf(v); if (i >= 0) left.splice(i, 1); }
  return left;
}

/** Lay out all six noble tiles, move them about freely, then commit the layout in one action (D2). */
export function NobleStager({ view, legal, send, pending, names }) {
  const placed = view.your_nobles || {};
  // The server offers one entry naming the tiles in hand (the layouts are too many to list).
  const offer = legal.find((a) => a.type === "place_nobles");
  const hand = offer ? offer.tiles : [];
  const [staged, setStaged] = useState({});
  const round = view.round;
  useEffect(() => { setStaged({}); }, [round]);
  // Not asked: the layout once laid; before that (a replay, a seat the bot plays) nothing to claim.
  if (!offer) return !Object.keys(placed).length ? null : html`<section class="panel gp-decision" data-testid="noble-stager">
    <h2>${t("gp.n.yours")}</h2><${Placed} placed=${placed} /><p class="muted">${t("gp.n.all_placed")}</p></section>`;
  const free = takeOut(hand, Object.values(staged));
  const ready = SLOTS.every((s) => s in staged);

  function pick(slot, v) {
    const next = { ...staged };
    if (next[slot] === v) delete next[slot];
    else {
      // No such tile left: take it from the slot that holds one (the tile moves over).
      if (!free.includes(v)) {
        const from = SLOTS.find((s) => s !== slot && next[s] === v);
        if (from) delete next[from];
      }
      next[slot] = v;
    }
    setStaged(next);
  }
  const values = [...new Set(hand)].sort((a, b) => a - b);
  // The explanation comes after the chips, in their list: on a phone the docked decision (a third of the screen)
  // shows the chips first and the send below them whatever the list's own scroll.
  return html`<section class="panel gp-decision" data-testid="noble-stager" aria-labelledby="stager-title">
    <h2 id="stager-title">${t("gp.n.place")}</h2>
    <p class="gp-tiles-left" aria-label=${t("gp.n.left_label", { list: free.join(", ") || t("ui.none") })}>${t("gp.n.tiles")} ${free.length ? free.map((v) => html`<span class="gp-tile-chip">${v}</span>`) : html`<span class="muted">${t("gp.n.all_staged")}</span>`}</p>
    <div class="gp-stage-rows">
      ${SLOTS.map((slot) => html`<div class="gp-stage-row" role="group" aria-label=${t("gp.n.tile_for", { p: provinceName(slot) })}>
          <span class="gp-stage-name">${provinceName(slot)}<${SlotCubes} view=${view} slot=${slot} names=${names} /></span>
          <div class="gp-stage-chips">${values.map((v) => html`<button type="button" class=${"gp-tile-btn" + (free.includes(v) || staged[slot] === v ? "" : " gp-tile-moves")}
            data-testid="stage-chip" data-slot=${slot} aria-pressed=${staged[slot] === v}
            aria-label=${t(free.includes(v) || staged[slot] === v ? "gp.n.tile_on" : "gp.n.tile_move", { v, p: provinceName(slot) })} disabled=${pending}
            onClick=${() => pick(slot, v)}>${v}</button>`)}</div>
        </div>`)}
      <p class="muted">${t("gp.n.explain")}</p>
    </div>
    <div class="actions gp-stage-send">
      <button type="button" class="btn btn-primary" data-testid="stage-submit" disabled=${!ready || pending}
        onClick=${() => send({ type: "place_nobles", ...Object.fromEntries(SLOTS.map((s) => [s, staged[s]])) })}>${pending ? t("gp.n.placing") : ready ? t("gp.n.submit") : t("gp.n.more", { count: SLOTS.length - Object.keys(staged).length })}</button>
      <button type="button" class="btn btn-ghost" disabled=${pending || !Object.keys(staged).length} onClick=${() => setStaged({})}>${t("gp.n.clear")}</button>
    </div>
  </section>`;
}

/** What is at stake on a slot: the cubes each family already has there. */
function SlotCubes({ view, slot, names }) {
  const pr = view.prov && view.prov[slot];
  if (!pr) return null;
  return html`<span class="gp-stage-cubes" aria-label=${t("gp.n.cubes_there", { list: pr.nobles.map((n, s) => `${names(s)} ${n}`).join(", ") })}>
    ${pr.nobles.map((n, s) => html`<span class="gp-mini-cube" style=${{ background: FAMILY_COLOURS[s] }}></span>${n}`)}</span>`;
}

function Placed({ placed }) {
  return html`<p class="gp-tiles-left">${SLOTS.filter((s) => s in placed).map((s) => html`<span class="gp-placed">${provinceName(s)} <span class="gp-tile-chip on">${placed[s]}</span></span>`)}</p>`;
}

