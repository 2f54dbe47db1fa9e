// How the God's Playground table looks, none of the game's numbers: the engine's codes, names from the catalogue
// (gp.*, the Hungarian rulebook's terms), colours, glyphs, the schematic map's layout (ours, not a game value).
// Every printed number comes from the match's board in the view (`printed`, from the server's board file).

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

// Enemy colours; gp.enemy.<colour> names them.
export const ENEMY = {
  black: { colour: "#2b2b2b", ink: "#fff" },
  green: { colour: "#2f8f4e", ink: "#fff" },
  yellow: { colour: "#e3b62b", ink: "#201800" },
  orange: { colour: "#e0701f", ink: "#1f1000" },
  purple: { colour: "#7d4aa8", ink: "#fff" },
};
export const enemyName = (c) => (ENEMY[c] ? t(`gp.enemy.${c}`) : String(c));

/** The match's board as the view carries it (enemy_province, enemy_strength, enemy_vp, estate_vp, raid_arrows, unit_cost...). */
export const printed = (view) => view.board.values;
/** The province an enemy strikes, and the enemy whose box borders a province. */
export const homeOf = (view, c) => printed(view).enemy_province[c];
export const enemyOf = (view, p) => ENEMIES.find((c) => homeOf(view, c) === p);
export const unitName = (u) => (has(`gp.unit.${u}`) ? t(`gp.unit.${u}`) : u);
export const UNIT_GLYPH = { infantry: "⚔", cavalry: "♞", cannon: "✹", cossack: "☆" };

// The four rounds (gp.round.1-4 names them) and the 16 phases of a round (flow.py PHASES; gp.phase.<id>).
export const ROUNDS = [1, 2, 3, 4];
export const PHASES = ["income", "nobles", "king", "royal_army", "events", "elections", "estate_purchase", "special",
  "recruitment", "campaigns", "invasions", "counterattack", "raids", "estates", "victory_points", "end_of_round"];
export const phaseName = (id) => (has(`gp.phase.${id}`) ? t(`gp.phase.${id}`) : String(id).replace(/_/g, " "));

// Provisional: the printed board's geometry is unknown, so the tiles sit in a 2-column map roughly true to the
// geography (Prussia north, Little Poland south...), each with its enemy's band. Units: the 360-wide viewBox.
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
