// How each Condottiere card looks; its name and what it does come from the
// catalogues (cd.card.* the table's, cd.help.* the rules page's: the Hungarian rulebook's terms,
// effects paraphrased from pp. 10-15, docs/rules/condottiere.md). The server computes
// everything; this is only what the card face says.
import { has, t } from "../../i18n.js";

// The help sheet's longer explanations (regions, moves, the token) are the rules page's words, fetched when
// help first opens (js/help.js): the table does not carry them.
export const RULES_WORDS = "rules_condottiere";

const MERC = { kind: "mercenary", glyph: "" };

export const CARDS = {
  m1: { ...MERC, value: 1 },
  m2: { ...MERC, value: 2 },
  m3: { ...MERC, value: 3 },
  m4: { ...MERC, value: 4 },
  m5: { ...MERC, value: 5 },
  m6: { ...MERC, value: 6 },
  m10: { ...MERC, value: 10 },
  winter: { kind: "season", glyph: "❄", value: null },
  spring: { kind: "season", glyph: "✿", value: null },
  bishop: { kind: "special", glyph: "✝", value: null },
  courtesan: { kind: "heroic", glyph: "♥", value: 1 },
  drummer: { kind: "special", glyph: "♫", value: null },
  heroine: { kind: "heroic", glyph: "♛", value: 10 },
  scarecrow: { kind: "special", glyph: "↶", value: null },
  surrender: { kind: "special", glyph: "⚐", value: null },
};

export function cardInfo(code) {
  const card = CARDS[code];
  if (!card) return { kind: "special", name: code, glyph: "?", value: null, help: "" };
  // What it does is read only where the rules' words are in (the help sheet, the rules page), hence a getter.
  return { ...card, name: t(`cd.card.${code}`), get help() { return t(card.kind === "mercenary" ? "cd.help.merc" : `cd.help.${code}`); } };
}

export function cardName(code) {
  return has(`cd.card.${code}`) ? t(`cd.card.${code}`) : code;
}
