// How to play God's Playground (/rules/gods_playground): short sections in the app's own words
// (rules_gods_playground part), the board drawn by the table's own map, and the reference the table's help
// links to: every action (#actions), unit, enemy (#enemies), province (#provinces) and phase (#phases).
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { Paragraphs, RulesFrame, useRulesPage } from "./rules.js";
import {
  ENEMIES, ENEMY, FAMILIES, FAMILY_COLOURS, PHASES, PROVINCES, UNITS, UNIT_GLYPH,
  enemyName, phaseName, provinceName, unitName,
} from "../games/gods_playground/layout.js";
import { useGames } from "./common.js";
import { GpMap } from "../games/gods_playground/map.js";

// Every action the engine takes (engine.py ACTIONS), in the order a round meets them; tests/browser/test_rules.py
// checks this list against the engine's.
const ACTIONS = ["place_estate", "place_nobles", "reduce_nobles", "bid", "buy_estate", "steward", "danzig", "diplomacy",
  "move_cube", "stop", "liberum_veto", "right_of_arms", "jesuits", "town", "recruit", "recruit_done", "recruit_resume", "campaign", "counterattack", "pass"];
const SECTIONS = ["goal", "board", "setup", "round"];
const AFTER = ["combat", "scoring", "end"];

// A made-up first round for the picture: a few estates, cubes and enemies on the board.
function demoView(board) {
  const prov = Object.fromEntries(PROVINCES.map((p, i) => [p, {
    income: 3 + (i % 2), estates: [i % 3, (i + 1) % 3, null, null, null, null, null],
    stewards: [i === 1, false, false, false, false, false, false], towns: [false, false, false, false, false, false, false],
    nobles: [1 + (i % 2), 2, i % 3], enemy: i === 2 ? { yellow: 2 } : {}, influence: i === 4 ? 1 : 0,
    units: [[i === 2 ? 1 : 0, 0, 0], [0, i === 0 ? 1 : 0, 0], [0, 0, 0]], invaded: false,
  }]));
  return {
    prov, sejm: { prussia: 0, lithuania: null, ukraine: 1, little_poland: 2, great_poland: null },
    box: Object.fromEntries(ENEMIES.map((c, i) => [c, { cubes: i % 3, nobles: [i === 1 ? 1 : 0, 0, 0], royal: 0 }])),
    strength: { black: 3, green: 4, yellow: 4, orange: 5, purple: 2 }, treaty: null, influence: 1,
    royal_army: { infantry: 2, cavalry: 1, cannon: 0 }, start: 1, supply: { royal_cubes: 8 },
    cossacks: { box: 2, tatars: 0, ukraine: 0 }, board,
  };
}

function Swatch({ colour }) {
  return html`<span class="rules-swatch" style=${{ background: colour }} aria-hidden="true"></span>`;
}

export function GodsPlaygroundRules() {
  const waiting = useRulesPage("gods_playground", "/app/gp.css");
  const { games } = useGames(); // the numbers come from the board this server's matches get
  if (waiting) return waiting;
  const board = (games || []).find((g) => g.id === "gods_playground")?.board;
  if (!board) return html`<p class="muted" aria-busy="true">${t("ui.loading")}</p>`;
  const { enemy_vp: ENEMY_VP, estate_vp: ESTATE_VP, unit_cost: UNIT_COST, enemy_province: HOME } = board.values;
  const names = (s) => FAMILIES[s];
  const text = (id) => html`<section id=${id} class="rules-section"><h2>${t(`rg.s.${id}.title`)}</h2><${Paragraphs} text=${t(`rg.s.${id}.text`)} /></section>`;
  const toc = [...SECTIONS, "phases", "actions", "units", "enemies", "provinces", ...AFTER]
    .map((id) => [id, t(`rg.s.${id}.title`)]);
  return html`<${RulesFrame} game="gods_playground" title=${t("rg.title")} pitch=${t("rg.pitch")} facts=${t("rg.facts")} toc=${toc}>
    ${text("goal")}
    <section id="board" class="rules-section">
      <h2>${t("rg.s.board.title")}</h2>
      <div class="rules-with-picture">
        <div>
          <${Paragraphs} text=${t("rg.s.board.text")} />
          <ul class="rules-families">${FAMILIES.map((f, s) => html`<li><${Swatch} colour=${FAMILY_COLOURS[s]} /> ${f} (${t(`gp.colour.${s}`)})</li>`)}</ul>
        </div>
        <figure class="rules-figure gp-rules-map">
          <${GpMap} view=${demoView(board)} names=${names} choices=${null} />
          <figcaption class="muted">${t("rg.demo.map")}</figcaption>
        </figure>
      </div>
    </section>
    ${text("setup")}
    ${text("round")}
    <section id="phases" class="rules-section">
      <h2>${t("rg.s.phases.title")}</h2>
      <ol class="rules-phases">${PHASES.map((p) => html`<li data-phase=${p}><strong>${phaseName(p)}.</strong> ${t(`rg.phase.${p}`)}</li>`)}</ol>
    </section>
    <section id="actions" class="rules-section" data-testid="action-reference">
      <h2>${t("rg.s.actions.title")}</h2>
      <p>${t("rg.actions.intro")}</p>
      <dl class="rules-options">${ACTIONS.map((a) => html`<div data-action=${a}><dt>${t(`rg.aname.${a}`)}</dt><dd>${t(`rg.action.${a}`)}</dd></div>`)}</dl>
    </section>
    <section id="units" class="rules-section">
      <h2>${t("rg.s.units.title")}</h2>
      <p>${t("rg.units.intro")}</p>
      <dl class="rules-options">${[...UNITS, "cossack"].map((u) => html`<div data-unit=${u}><dt><span aria-hidden="true">${UNIT_GLYPH[u]}</span> ${unitName(u)}
        <span class="muted">· ${t("rg.cost", { count: UNIT_COST[u] })}</span></dt><dd>${t(`rg.unit.${u}`)}</dd></div>`)}</dl>
    </section>
    <section id="enemies" class="rules-section">
      <h2>${t("rg.s.enemies.title")}</h2>
      <p>${t("rg.enemies.intro")}</p>
      <dl class="rules-options">${ENEMIES.map((c) => html`<div data-enemy=${c}><dt><${Swatch} colour=${ENEMY[c].colour} /> ${enemyName(c)}
        <span class="muted">· ${t("rg.box_vp", { vp: ENEMY_VP[c] })}</span></dt><dd>${t(`rg.enemy.${c}`, { p: provinceName(HOME[c]) })}</dd></div>`)}</dl>
    </section>
    <section id="provinces" class="rules-section">
      <h2>${t("rg.s.provinces.title")}</h2>
      <p>${t("rg.help.province")}</p>
      <dl class="rules-options">${PROVINCES.map((p) => html`<div data-province=${p}><dt>${provinceName(p)}</dt>
        <dd>${t(`rg.prov.${p}`)} <span class="rules-estates" role="img" aria-label=${t("rg.estates", { list: ESTATE_VP[p].join(", ") })}>${ESTATE_VP[p].map((v) => html`<span class="gp-tile-chip small" aria-hidden="true">${v}</span>`)}</span></dd></div>`)}</dl>
    </section>
    ${AFTER.map(text)}
  <//>`;
}
