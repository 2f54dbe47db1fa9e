// The schematic map: each province (its enemy's band, estates, income, cubes, influence, units) and the royal
// court (army, Sejm, king). Tiles the player may choose glow and act.
import { html } from "../../lib.js";
import { t } from "../../i18n.js";
import {
  ENEMY, FAMILY_COLOURS, FAMILY_INK, LAYOUT, MAP, PROVINCES, TILE, UNIT_GLYPH, UNITS,
  enemyName, enemyOf, printed, provinceAbbr, provinceName,
} from "./layout.js";
import { describeProvince } from "./words.js";
import { boxHelp, courtHelp, provinceHelp } from "./help.js";

const seatFill = (s) => (s == null ? "none" : FAMILY_COLOURS[s]);

function Cube({ x, y, seat, n, size = 14 }) {
  return html`<g transform=${`translate(${x} ${y})`}>
    <rect class="gp-cube" width=${size} height=${size} rx="2" style=${{ fill: FAMILY_COLOURS[seat] }} />
    <text class="gp-num" x=${size + 3} y=${size - 1}>${n}</text>
  </g>`;
}

function EnemyBand({ c, view, w, passive }) {
  const e = ENEMY[c];
  const box = (view.box || {})[c] || { cubes: 0, nobles: [0, 0, 0], royal: 0 };
  const treaty = view.treaty === c;
  const strength = (view.strength || {})[c];
  const title = c === "purple" && view.turks_hold_habsburg ? t("gp.m.turks_habsburg") : enemyName(c);
  const boxText = t("gp.m.box", { count: box.cubes }) + (box.royal ? ` · ♛${box.royal}` : "")
    + (c === "purple" && view.influence ? ` · ◆${view.influence}` : "")
    + (c === "purple" && view.turks_on_habsburg ? ` · ${t("gp.m.turks", { n: view.turks_on_habsburg })}` : "");
  const onBox = [0, 1, 2].filter((s) => box.nobles[s]).length;
  // On a tile the player may choose, a tap anywhere on it chooses; the box explains itself otherwise.
  return html`<g class="gp-band" data-box=${c} ...${passive ? boxHelp(c, view) : {}}>
    <rect width=${w} height="40" rx="8" style=${{ fill: e.colour }} />
    <rect y="30" width=${w} height="10" style=${{ fill: e.colour }} />
    <text class="gp-band-name" x="7" y="16" style=${{ fill: e.ink }} ...${fit(title, 13.5, 112)}>${title}</text>
    <text class="gp-band-str" x=${w - 6} y="16" style=${{ fill: e.ink }}>${treaty ? t("gp.treaty") : t("gp.m.str", { n: strength ?? "?" })}</text>
    <text class="gp-band-box" x="7" y="34" style=${{ fill: e.ink }} ...${fit(boxText, 13, onBox ? w - 14 - onBox * 30 : w - 14)}>${boxText}</text>
    ${[0, 1, 2].filter((s) => box.nobles[s]).map((s, i, all) => html`<${Cube} x=${w - all.length * 30 + i * 30 - 4} y="23" seat=${s} n=${box.nobles[s]} size="12" />`)}
  </g>`;
}

function ProvinceTile({ p, view, names, choice, onChoose, selected }) {
  const pr = view.prov[p];
  const { x, y } = LAYOUT[p];
  const { w, h } = TILE;
  const c = enemyOf(view, p);
  const vp = printed(view).estate_vp[p];
  const sejm = (view.sejm || {})[p];
  const enemy = Object.entries(pr.enemy || {}).filter(([, n]) => n > 0);
  const label = describeProvince(p, view, names) + (choice ? `. ${t("gp.m.choose")}` : "");
  const act = choice ? () => onChoose(choice) : null;
  const key = choice ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } } : null;
  // The row's spaces share the tile's width: a board may print from 1 to 15 of them.
  const sq = Math.min(20, (w - 12 - (vp.length - 1) * 2) / vp.length);
  const gap = vp.length > 1 ? (w - 12 - vp.length * sq) / (vp.length - 1) : 0;
  return html`<g class=${"gp-tile" + (choice ? " choosable" : "") + (selected ? " selected" : "") + (pr.invaded ? " invaded" : "")}
      transform=${`translate(${x} ${y})`} data-province=${p} role=${choice ? "button" : "img"} tabindex=${choice ? 0 : undefined}
      onClick=${act} onKeyDown=${key} ...${provinceHelp(p, view, names, !!choice)}>
    <title>${label}</title>
    <rect class="gp-tile-bg" width=${w} height=${h} rx="9" />
    <${EnemyBand} c=${c} view=${view} w=${w} passive=${!choice} />
    <text class="gp-prov-name" x="7" y="58" ...${fit(provinceName(p), 14, w - 68)}>${provinceName(p)}</text>
    <g transform=${`translate(${w - 46} 53)`}>
      <circle class="gp-income" r="10.5" /><text class="gp-income-num" y="4.5">${pr.income}</text>
    </g>
    <g transform=${`translate(${w - 17} 53)`}>
      <circle class=${"gp-disc" + (sejm == null ? " empty" : "")} r="10.5" style=${{ fill: seatFill(sejm) }} />
      <text class="gp-disc-mark" y="4.5" style=${{ fill: sejm == null ? "var(--muted)" : FAMILY_INK[sejm] }}>${t("gp.m.sejm_mark")}</text>
    </g>
    <g transform="translate(6 68)">
      ${vp.map((v, i) => {
        const o = pr.estates[i];
        return html`<g transform=${`translate(${i * (sq + gap)} 0)`}>
          <rect class=${"gp-estate" + (o == null ? " free" : "")} width=${sq} height=${sq} rx="3" style=${{ fill: seatFill(o) }} />
          <text class="gp-estate-vp" x=${sq / 2} y="14.5" style=${{ fill: o == null ? "var(--muted)" : FAMILY_INK[o] }}>${v}</text>
          ${pr.stewards[i] && html`<circle class="gp-steward" cx=${sq - 1} cy=${sq - 1} r="4.5" />`}
          ${pr.towns[i] && html`<path class="gp-town" d="M-2 2 L4 -5 L10 2 Z" transform=${`translate(${sq / 2 - 4} -1)`} />`}
        </g>`;
      })}
    </g>
    <g transform="translate(6 95)">
      <text class="gp-row-label" y="12">${t("gp.m.nobles")}</text>
      ${[0, 1, 2].map((s) => html`<${Cube} x=${50 + s * 38} y="0" seat=${s} n=${pr.nobles[s]} />`)}
    </g>
    <g transform="translate(6 116)">
      <text class="gp-row-label" y="12">${t(enemy.length || pr.influence ? "gp.m.enemy" : pr.invaded ? "gp.m.cleared" : "gp.m.no_enemy")}</text>
      ${enemy.map(([col, n], i) => html`<g transform=${`translate(${62 + i * 36} 0)`}>
        <rect class="gp-enemy-cube" width="13" height="13" rx="2" style=${{ fill: ENEMY[col].colour }} />
        <text class="gp-num" x="16" y="12">${n}</text></g>`)}
      ${pr.influence > 0 && html`<g transform=${`translate(${62 + enemy.length * 36} 0)`}>
        <path class="gp-influence" d="M6.5 0 L13 6.5 L6.5 13 L0 6.5 Z" /><text class="gp-num" x="16" y="12">${pr.influence}</text></g>`}
    </g>
    <g transform="translate(6 137)">
      <text class="gp-row-label" y="12">${t("gp.m.units")}${unitLines(pr, p, view).length ? "" : "  —"}</text>
      ${unitLines(pr, p, view).map((u, i) => html`<g transform=${`translate(${44 + i * 42} 0)`}>
        <circle r="5.5" cx="5.5" cy="7" class="gp-unit-dot" style=${{ fill: u.seat == null ? ENEMY.yellow.colour : FAMILY_COLOURS[u.seat] }} />
        <text class="gp-num" x="13" y="12" ...${fit(u.text, 13, 28)}>${u.text}</text></g>`)}
    </g>
  </g>`;
}

/** Each seat's units in a province as short glyph strings, Cossacks last. */
export function unitLines(pr, p, view) {
  const out = [];
  pr.units.forEach((u, seat) => {
    const text = UNITS.map((k, i) => (u[i] ? `${u[i]}${UNIT_GLYPH[k]}` : "")).join("");
    if (text) out.push({ seat, text });
  });
  if (p === "ukraine" && view.cossacks && view.cossacks.ukraine) out.push({ seat: null, text: `${view.cossacks.ukraine}${UNIT_GLYPH.cossack}` });
  return out;
}

function CourtTile({ view, names, short }) {
  const { x, y } = LAYOUT.court;
  const { w, h } = TILE;
  const ra = view.royal_army || {};
  const king = view.start;
  const label = t("gp.m.court", {
    i: ra.infantry || 0, c: ra.cavalry || 0, k: ra.cannon || 0, king: names(king),
    sejm: PROVINCES.map((p) => `${provinceName(p)} ${view.sejm[p] == null ? t("gp.m.empty") : names(view.sejm[p])}`).join(", "),
  });
  const army = `${UNITS.map((u) => `${ra[u] || 0}${UNIT_GLYPH[u]}`).join(" ")} · ${t("gp.m.royal_cubes", { count: view.supply.royal_cubes })}`;
  const cossacks = t("gp.m.cossacks", { free: view.cossacks.box, n: view.cossacks.tatars, enemy: enemyName("yellow") });
  return html`<g class="gp-tile gp-court" transform=${`translate(${x} ${y})`} role="img" ...${courtHelp()}>
    <title>${label}</title>
    <rect class="gp-tile-bg" width=${w} height=${h} rx="9" />
    <rect class="gp-court-band" width=${w} height="40" rx="8" /><rect class="gp-court-band" y="30" width=${w} height="10" />
    <text class="gp-band-name" x="7" y="16" style=${{ fill: "#fff" }}>${provinceName("royal")}</text>
    <text class="gp-band-box" x="7" y="34" style=${{ fill: "#fff" }} ...${fit(army, 13, w - 14)}>${army}</text>
    <text class="gp-prov-name" x="7" y="58">${t("gp.sejm")}</text>
    <g transform="translate(10 76)">
      ${PROVINCES.map((p, i) => {
        const s = view.sejm[p];
        return html`<g transform=${`translate(${i * 34} 0)`}>
          <circle class=${"gp-disc" + (s == null ? " empty" : "")} cx="8" r="11" style=${{ fill: seatFill(s) }} />
          <text class="gp-sejm-label" x="8" y="26">${provinceAbbr(p)}</text></g>`;
      })}
    </g>
    <text class="gp-row-label" x="7" y="125">${t("gp.m.king")}</text>
    <g transform="translate(44 113)"><rect class="gp-cube" width="13" height="13" rx="6.5" style=${{ fill: FAMILY_COLOURS[king] }} />
      <text class="gp-num" x="17" y="12" ...${fit(`♛ ${short(king)}`, 13, w - 66)}>♛ ${short(king)}</text></g>
    <text class="gp-row-label" x="7" y="148" ...${fit(cossacks, 13, w - 14)}>${cossacks}</text>
  </g>`;
}

// A line that would run past `width` units at font `size` (Hungarian's "Nagy-Lengyelország", a long player name) is
// narrowed to fit instead of shrinking its letters below reading size on a phone or being cut off.
const fit = (text, size, width) => (String(text).length * size * 0.62 > width ? { textLength: width, lengthAdjust: "spacingAndGlyphs" } : {});

export function GpMap({ view, names, short, choices, onChoose }) {
  return html`<svg class="gp-map" viewBox=${`0 0 ${MAP.width} ${MAP.height}`} role="group"
      aria-label=${t("gp.m.label")} data-testid="board">
    ${PROVINCES.map((p) => html`<${ProvinceTile} key=${p} p=${p} view=${view} names=${names}
      choice=${choices && choices[p]} onChoose=${onChoose} />`)}
    <${CourtTile} view=${view} names=${names} short=${short || names} />
  </svg>`;
}
