// How to play Condottiere (/rules/condottiere): short sections in the app's own words (rules_condottiere part),
// pictures drawn with the table's own pieces (cards, the map), and the card reference (#cards) the table links to.
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { CARDS, cardInfo } from "../games/condottiere/cards.js";
import { Card } from "../games/condottiere/parts.js";
import { BoardMap } from "../games/condottiere/map.js";
import { Paragraphs, RulesFrame, useRulesPage } from "./rules.js";

// How many of each card the 110-card deck holds (rulebook pp. 10-15; the engine's cards.py DECK_COUNTS,
// which tests/browser/test_rules.py compares with this page).
const DECK = {
  m1: 10, m2: 8, m3: 8, m4: 8, m5: 8, m6: 8, m10: 8,
  winter: 3, spring: 3, bishop: 6, courtesan: 12, drummer: 6, heroine: 3, scarecrow: 16, surrender: 3,
};
const SECTIONS = ["goal", "setup", "battle", "decide", "after", "end"];
const OPTIONS = ["draw_after_battle", "points", "larger_kingdoms", "conquering_regions", "hidden_cards"];

// A made-up moment of a three-player game for the pictures: who holds what, and a battle for Bologna.
const DEMO_VIEW = {
  players: [{ seat: 0 }, { seat: 1 }, { seat: 2 }],
  regions: { torino: 0, milano: 0, genova: 0, roma: 1, napoli: 1, siena: 2 },
  legate: "venezia",
  battle: { region: "bologna" },
  token: { region: "bologna" },
};
const DEMO_LINES = [["m10", "drummer", "m3"], ["spring", "m6", "courtesan"]];

function CardEntry({ code }) {
  const info = cardInfo(code);
  const kind = info.kind === "mercenary" ? "merc" : code;
  return html`<li class="rules-card" id=${"card-" + code} data-card=${code} data-count=${DECK[code]}>
    <${Card} code=${code} nohelp />
    <div>
      <h3>${info.name}</h3>
      <p class="muted">${t(`rc.kind.${info.kind}`)} · ${info.value != null ? t("rc.strength", { n: info.value }) : t("rc.no_strength")} · ${t("rc.in_deck", { count: DECK[code] })}</p>
      <p>${kind === "merc" ? info.help : t(`rc.card.${kind}`)}</p>
    </div>
  </li>`;
}

export function CondottiereRules() {
  const waiting = useRulesPage("condottiere", "/app/condottiere.css");
  if (waiting) return waiting;
  const names = (s) => t("rc.demo.player", { n: s + 1 });
  const sections = SECTIONS.map((id) => [id, t(`rc.s.${id}.title`)]);
  return html`<${RulesFrame} game="condottiere" title=${t("rc.title")} pitch=${t("rc.pitch")} facts=${t("rc.facts")}
      toc=${[...sections, ["cards", t("rc.cards.title")], ["options", t("rc.options.title")]]}>
    <section id="goal" class="rules-section">
      <h2>${t("rc.s.goal.title")}</h2>
      <div class="rules-with-picture">
        <${Paragraphs} text=${t("rc.s.goal.text")} />
        <figure class="rules-figure cd-rules-map">
          <${BoardMap} view=${DEMO_VIEW} names=${names} isBot=${() => false} choices=${null} />
          <figcaption class="muted">${t("rc.demo.map")}</figcaption>
        </figure>
      </div>
    </section>
    ${["setup"].map((id) => html`<section id=${id} class="rules-section"><h2>${t(`rc.s.${id}.title`)}</h2><${Paragraphs} text=${t(`rc.s.${id}.text`)} /></section>`)}
    <section id="battle" class="rules-section">
      <h2>${t("rc.s.battle.title")}</h2>
      <${Paragraphs} text=${t("rc.s.battle.text")} />
      <figure class="rules-figure">
        <div class="rules-lines">${DEMO_LINES.map((line, i) => html`<div class="rules-line"><strong>${names(i)}</strong>
          <div class="line-cards">${line.map((c) => html`<${Card} small code=${c} />`)}</div></div>`)}</div>
        <figcaption class="muted">${t("rc.demo.lines")}</figcaption>
      </figure>
    </section>
    ${["decide", "after", "end"].map((id) => html`<section id=${id} class="rules-section"><h2>${t(`rc.s.${id}.title`)}</h2><${Paragraphs} text=${t(`rc.s.${id}.text`)} /></section>`)}
    <section id="cards" class="rules-section" data-testid="card-reference">
      <h2>${t("rc.cards.title")}</h2>
      <p>${t("rc.cards.intro")}</p>
      <ul class="rules-cards">${Object.keys(CARDS).map((code) => html`<${CardEntry} key=${code} code=${code} />`)}</ul>
    </section>
    <section id="options" class="rules-section">
      <h2>${t("rc.options.title")}</h2>
      <p>${t("rc.options.intro")}</p>
      <dl class="rules-options">${OPTIONS.map((o) => html`<div><dt>${t(`rc.opt.${o}.name`)}</dt><dd>${t(`rc.opt.${o}.text`)}</dd></div>`)}</dl>
    </section>
  <//>`;
}
