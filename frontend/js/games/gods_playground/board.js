// What the God's Playground table draws but the view does not carry: names
// (from the catalogue, gp.*: the Hungarian rulebook's terms), colours, the
// printed estate values, the phase list, and the map layout.
//
// Sources: the engine's board data (backend/engines/gods_playground/board.py,
// where every value is tagged rulebook / research / provisional) and the rules
// doc (docs/rules/gods_playground.md). This copy only draws; the rules stay on
// the server. When board.py gets the printed values, update ESTATE_VP and
// ENEMY_VP here too.

import { has, t } from "../../i18n.js";

export const PROVINCES = ["prussia", "lithuania", "ukraine", "little_poland", "great_poland"];
export const SLOTS = [...PROVINCES, "royal"];
export const ENEMIES = ["black", "green", "yellow", "orange", "purple"];
export const UNITS = ["infantry", "cavalry", "cannon"];

/** A province (or "royal", "habsburg"), and its two-letter abbreviation. */
export const provinceName = (p) => (has(`gp.prov.${p}`) ? t(`gp.prov.${p}`) : String(p).replace(/_/g, " "));
export const provinceAbbr = (p) => t(`gp.abbr.${p}`);

// Seat 0 white Radziwiłł, 1 blue Potocki, 2 red Sapieha (rulebook p.2); gp.colour.<seat> names the colours.
export const FAMILIES = ["Radziwiłł", "Potocki", "Sapieha"];
export const FAMILY_COLOURS = ["#f3efe4", "#2e6fd8", "#c0392b"];
export const FAMILY_INK = ["#2a2520", "#ffffff", "#ffffff"];

// Enemy colours and where they strike (rules doc, "Seats" paragraph; board.py enemy_province); gp.enemy.<colour> names them.
export const ENEMY = {
  black: { colour: "#2b2b2b", ink: "#fff", home: "prussia" },
  green: { colour: "#2f8f4e", ink: "#fff", home: "lithuania" },
  yellow: { colour: "#e3b62b", ink: "#201800", home: "ukraine" },
  orange: { colour: "#e0701f", ink: "#1f1000", home: "little_poland" },
  purple: { colour: "#7d4aa8", ink: "#fff", home: "great_poland" },
};
export const HOME_ENEMY = Object.fromEntries(ENEMIES.map((c) => [ENEMY[c].home, c]));
export const enemyName = (c) => (ENEMY[c] ? t(`gp.enemy.${c}`) : String(c));

// Estate rows, least valuable first (board.py estate_vp: provisional except
// where the rules doc says otherwise) and the VP for most cubes on each box.
export const ESTATE_VP = {
  prussia: [1, 1, 2, 2, 3, 3, 4],
  lithuania: [1, 2, 3, 3, 4, 4, 4],
  ukraine: [1, 2, 2, 3, 3, 4, 5],
  little_poland: [1, 1, 2, 2, 3, 3, 4],
  great_poland: [1, 1, 2, 2, 3, 3, 4],
};
export const ENEMY_VP = { black: 3, green: 3, yellow: 3, orange: 5, purple: 3 };
export const UNIT_COST = { infantry: 2, cavalry: 4, cannon: 6, cossack: 2 };
export const unitName = (u) => (has(`gp.unit.${u}`) ? t(`gp.unit.${u}`) : u);
export const UNIT_GLYPH = { infantry: "⚔", cavalry: "♞", cannon: "✹", cossack: "☆" };

// The four rounds (gp.round.1-4 names them) and the 16 phases of a round (flow.py PHASES; gp.phase.<id>).
export const ROUNDS = [1, 2, 3, 4];
export const PHASES = ["income", "nobles", "king", "royal_army", "events", "elections", "estate_purchase", "special",
  "recruitment", "campaigns", "invasions", "counterattack", "raids", "estates", "victory_points", "end_of_round"];
export const phaseName = (id) => (has(`gp.phase.${id}`) ? t(`gp.phase.${id}`) : String(id).replace(/_/g, " "));

// Provisional layout: the printed board is not in the rulebook or the research
// notes, so the tiles sit in a schematic 2-column map roughly true to the
// geography (Prussia north, Lithuania north-east, Great Poland west, Ukraine
// south-east, Little Poland south; source: /work/shared/boards/gods_playground.md
// §5b, "historical geography"), each with its enemy's band on its outer edge.
// Units: the SVG's 360-wide viewBox. Replace with the printed board when known.
export const MAP = { width: 360, height: 492 };
export const TILE = { w: 172, h: 158 };
export const LAYOUT = {
  prussia: { x: 4, y: 4 },
  lithuania: { x: 184, y: 4 },
  great_poland: { x: 4, y: 168 },
  ukraine: { x: 184, y: 168 },
  little_poland: { x: 4, y: 332 },
  court: { x: 184, y: 332 },
};
