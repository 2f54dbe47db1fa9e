// How each Condottiere card looks and what it does, in words for players.
// Effects paraphrase the FFG rulebook pp. 10-15 (docs/rules/condottiere.md);
// the server computes everything, this is only what the card face says.

const MERC = { kind: "mercenary", glyph: "", help: "Mercenary: its strength counts for your line." };

export const CARDS = {
  m1: { ...MERC, name: "Mercenary 1", value: 1 },
  m2: { ...MERC, name: "Mercenary 2", value: 2 },
  m3: { ...MERC, name: "Mercenary 3", value: 3 },
  m4: { ...MERC, name: "Mercenary 4", value: 4 },
  m5: { ...MERC, name: "Mercenary 5", value: 5 },
  m6: { ...MERC, name: "Mercenary 6", value: 6 },
  m10: { ...MERC, name: "Mercenary 10", value: 10 },
  winter: { kind: "season", name: "Winter", glyph: "❄", value: null,
    help: "Every mercenary in every line counts as 1. Discards any Spring in play." },
  spring: { kind: "season", name: "Spring", glyph: "✿", value: null,
    help: "The highest mercenaries in play get +3, in every line. Discards any Winter in play." },
  bishop: { kind: "special", name: "Bishop", glyph: "✝", value: null,
    help: "Discards the highest mercenaries in every line; you then place the papal legate." },
  courtesan: { kind: "heroic", name: "Courtesan", glyph: "♥", value: 1,
    help: "Strength 1. Most courtesans in a battle takes the condottiere token." },
  drummer: { kind: "special", name: "Drummer", glyph: "♫", value: null,
    help: "Doubles the mercenaries in your line." },
  heroine: { kind: "heroic", name: "Heroine", glyph: "♛", value: 10,
    help: "Strength 10; no card affects her." },
  scarecrow: { kind: "special", name: "Scarecrow", glyph: "↶", value: null,
    help: "Take one of your mercenaries back to your hand (or none)." },
  surrender: { kind: "special", name: "Surrender", glyph: "⚐", value: null,
    help: "Ends the battle at once; the strongest line wins." },
};

export function cardInfo(code) {
  return CARDS[code] || { kind: "special", name: code, glyph: "?", value: null, help: "" };
}

export function cardName(code) {
  return cardInfo(code).name;
}
