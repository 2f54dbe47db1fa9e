// The decisions. Every control is one of the server's legal actions (the nobles:
// a layout of the tiles the server offers, sent as one action); nothing here
// decides what is legal.
import { html, useEffect, useState } from "../../lib.js";
import { t } from "../../i18n.js";
import { FAMILY_COLOURS, SLOTS, printed, provinceName, unitName } from "./layout.js";
import { actionLabel } from "./words.js";
import { Sheet } from "../sheet.js";
import { actionHelp } from "./help.js";

/** A bottom sheet (dialog on desktop) asking the second half of a decision. */
export function Chooser({ title, options, set, onPick, onCancel }) {
  const [picked, setPicked] = useState([]);
  let body;
  if (set) {
    // A set of provinces (Jesuit schools): the confirm button is live only for a set the server offers.
    const items = [...new Set(options.flatMap((o) => o.action.provinces))];
    const key = (l) => [...l].sort().join();
    const match = options.find((o) => key(o.action.provinces) === key(picked));
    body = html`<fieldset class="gp-set"><legend>${t("gp.set_legend")}</legend>
        ${items.map((p, i) => html`<label class="gp-check"><input type="checkbox" data-testid="set-item" data-autofocus=${i === 0 ? "" : undefined} checked=${picked.includes(p)}
          onChange=${() => setPicked(picked.includes(p) ? picked.filter((x) => x !== p) : picked.concat(p))} />${provinceName(p)}</label>`)}
      </fieldset>
      <button type="button" class="btn btn-primary btn-block" data-testid="set-confirm" disabled=${!match}
        onClick=${() => match && onPick(match.action)}>${picked.length ? t("gp.found_schools", { count: picked.length }) : t("gp.choose_provinces")}</button>`;
  } else {
    body = html`<div class="chips gp-choices">${options.map((o, i) => html`<button type="button" class="btn"
        data-testid="choice" data-autofocus=${i === 0 ? "" : undefined} onClick=${() => onPick(o.action)}>${o.label}</button>`)}</div>`;
  }
  return html`<${Sheet} title=${title} titleId="gp-chooser-title" onCancel=${onCancel} testid="chooser">
    ${body}
    <button type="button" class="btn btn-ghost btn-block" onClick=${onCancel}>${t("table.cancel")}</button>
  <//>`;
}

/** Legal actions grouped by heading, then by button label; several actions under one label ask a second question. */
export function ActionGroups({ legal, view, names, send, pending, setChooser }) {
  const groups = new Map();
  let pass = null;
  for (const a of legal) {
    if (a.type === "place_nobles" || a.type === "bid") continue; // their own panels
    const l = actionLabel(a, view, names);
    if (a.type === "pass") { pass = [a, l.label]; continue; }
    // Recruitment reads best as one row per province.
    const g = a.type === "recruit" ? t("gp.recruit_in", { p: provinceName(a.province) }) : l.group;
    if (!groups.has(g)) groups.set(g, new Map());
    const byLabel = groups.get(g);
    const label = a.type === "recruit" ? unitName(a.unit) : l.label;
    if (!byLabel.has(label)) byLabel.set(label, []);
    byLabel.get(label).push({ action: a, ...l });
  }
  if (!groups.size && !pass) return null;
  function press(label, items) {
    if (items.length === 1 && !items[0].set) { send(items[0].action); return; }
    if (items[0].set) setChooser({ title: t("gp.jesuits_q"), set: true, options: items });
    else setChooser({ title: label, options: items.map((i) => ({ action: i.action, label: i.sub || i.label })) });
  }
  return html`<div class="gp-groups">
    ${[...groups].map(([g, byLabel]) => html`<div class="gp-group" role="group" aria-label=${g}>
      <h3>${g}</h3>
      <div class="chips">${[...byLabel].map(([label, items]) => html`<button type="button" class="btn gp-move"
        data-testid="gp-move" data-type=${items[0].action.type} disabled=${pending}
        aria-haspopup=${items.length > 1 || items[0].set ? "dialog" : undefined}
        onClick=${() => press(label, items)} ...${actionHelp(items[0].action.type, label)}><span>${label}</span>${(items.length > 1 || items[0].set) && html`<span class="gp-more" aria-hidden="true">›</span>`}</button>`)}</div>
    </div>`)}
    ${pass && html`<button type="button" class="btn btn-pass gp-pass" data-testid="gp-move" data-type="pass" disabled=${pending}
      onClick=${() => send(pass[0])} ...${actionHelp("pass", pass[1])}>${pass[1]}</button>`}
  </div>`;
}

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
  // The explanation comes after the chips: on a phone the docked decision (at most half the screen) shows the
  // chips first, whatever the dock's own scroll.
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
    </div>
    <div class="actions">
      <button type="button" class="btn btn-primary" data-testid="stage-submit" disabled=${!ready || pending}
        onClick=${() => send({ type: "place_nobles", ...Object.fromEntries(SLOTS.map((s) => [s, staged[s]])) })}>${pending ? t("gp.n.placing") : ready ? t("gp.n.submit") : t("gp.n.more", { count: SLOTS.length - Object.keys(staged).length })}</button>
      <button type="button" class="btn btn-ghost" disabled=${pending || !Object.keys(staged).length} onClick=${() => setStaged({})}>${t("gp.n.clear")}</button>
    </div>
    <p class="muted">${t("gp.n.explain")}</p>
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

/** A sealed bid: any amount the server offers, sent once. */
export function BidPanel({ view, legal, send, pending, names }) {
  const amounts = legal.filter((a) => a.type === "bid").map((a) => a.amount).sort((a, b) => a - b);
  const [wanted, setAmount] = useState(0);
  const pend = view.pending || {};
  const max = amounts.length ? amounts[amounts.length - 1] : 0;
  const amount = Math.min(wanted, max); // a second tie-break round may find the purse lighter
  const chosen = legal.find((a) => a.type === "bid" && a.amount === amount);
  return html`<section class="panel gp-decision" data-testid="bid-panel" aria-labelledby="bid-title">
    <h2 id="bid-title">${t("gp.b.title")}</h2>
    <ul class="gp-bidders">${(pend.seats || []).map((s) => {
      const inn = (pend.bids_in || []).includes(s);
      const mine = s === view.you && pend.your_bid != null;
      return html`<li><span class="gp-bid-card" aria-hidden="true">${mine ? pend.your_bid : inn ? "?" : "…"}</span>
        ${names(s)}${s === view.you ? ` (${t("ui.you")})` : ""}: ${mine ? t("gp.b.yours", { count: pend.your_bid }) : t(inn ? "gp.b.sealed" : "gp.b.thinking")}</li>`;
    })}</ul>
    ${amounts.length > 0 && html`<div class="gp-bid-form">
      <label for="gp-bid">${t("gp.b.label", { max })}</label>
      <div class="stepper">
        <button type="button" class="btn" aria-label=${t("gp.b.less")} data-testid="bid-less" disabled=${amount <= 0} onClick=${() => setAmount(Math.max(0, amount - 1))}>−</button>
        <input id="gp-bid" type="range" min="0" max=${max} step="1" value=${amount} onInput=${(e) => setAmount(Number(e.target.value))} />
        <output for="gp-bid">${amount}</output>
        <button type="button" class="btn" aria-label=${t("gp.b.more")} data-testid="bid-more" disabled=${amount >= max} onClick=${() => setAmount(Math.min(max, amount + 1))}>+</button>
      </div>
      <button type="button" class="btn btn-primary btn-block" data-testid="bid-submit" disabled=${!chosen || pending}
        onClick=${() => send(chosen)}>${t("gp.b.submit", { count: amount })}</button>
    </div>`}
  </section>`;
}

/** What a decision needs to know, in one line under its heading. */
export function decisionHelp(kind, view) {
  switch (kind) {
    case "setup_estate": case "estate_purchase": case "campaigns": case "counterattack": return t(`gp.h.${kind}`);
    case "shortage": return t("gp.h.shortage", { list: Object.entries((view.pending.demand || {})[view.you] || {}).map(([p, n]) => `${provinceName(p)} ${n}`).join(", ") });
    case "special": return t(view.pending.second ? "gp.h.special_second" : "gp.h.special");
    case "recruitment": return t("gp.h.recruitment", printed(view).unit_cost);
    default: return "";
  }
}

