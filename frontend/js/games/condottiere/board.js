// The 17 regions of the FFG Condottiere board and their borders.
//
// Source: /work/shared/boards/condottiere.md (project research notes), §1.3
// (34 undirected borders, checked against three sources) and §1.6 (seal
// centres measured on the FFG board photo, as fractions of 517x710 px). The
// engine owns the rules copy (backend/engines/condottiere/board.py); this one
// only draws. Positions below are those measurements scaled to the map's
// 480x700 viewBox and then nudged apart by hand so that every region keeps a
// 44 px touch target on a 360 px phone (the photo's Mantova/Modena/Ferrara/
// Bologna seals sit closer than a finger).

export const REGIONS = [
  // id, display name, x, y   (photo measurement x*517, y*710 in the comment)
  ["torino", "Torino", 52, 82], // 57, 80
  ["milano", "Milano", 152, 62], // 156, 67
  ["venezia", "Venezia", 352, 98], // 348, 116
  ["genova", "Genova", 78, 186], // 86, 180
  ["mantova", "Mantova", 252, 122], // 240, 143
  ["ferrara", "Ferrara", 334, 190], // 302, 198
  ["modena", "Modena", 232, 196], // 227, 196
  ["parma", "Parma", 142, 256], // 152, 252
  ["bologna", "Bologna", 292, 262], // 266, 241
  ["lucca", "Lucca", 132, 338], // 150, 298
  ["firenze", "Firenze", 232, 322], // 249, 306
  ["siena", "Siena", 186, 424], // 191, 381
  ["urbino", "Urbino", 372, 336], // 355, 351
  ["ancona", "Ancona", 428, 420], // 420, 395
  ["spoleto", "Spoleto", 322, 442], // 312, 432
  ["roma", "Roma", 290, 552], // 299, 540
  ["napoli", "Napoli", 420, 640], // 424, 646
].map(([id, name, x, y]) => ({ id, name, x, y }));

export const REGION = Object.fromEntries(REGIONS.map((r) => [r.id, r]));

export const ADJACENCY = {
  torino: ["milano", "genova"],
  milano: ["torino", "genova", "parma", "modena", "mantova", "venezia"],
  genova: ["torino", "milano", "parma"],
  venezia: ["milano", "mantova", "ferrara"],
  mantova: ["milano", "venezia", "ferrara", "modena"],
  ferrara: ["venezia", "mantova", "modena", "bologna"],
  parma: ["genova", "milano", "modena", "lucca"],
  modena: ["milano", "mantova", "ferrara", "bologna", "firenze", "lucca", "parma"],
  bologna: ["modena", "ferrara", "firenze", "urbino"],
  lucca: ["parma", "modena", "firenze"],
  firenze: ["lucca", "modena", "bologna", "urbino", "spoleto", "roma", "siena"],
  siena: ["firenze", "roma"],
  urbino: ["bologna", "firenze", "spoleto", "ancona"],
  ancona: ["urbino", "spoleto", "napoli"],
  spoleto: ["firenze", "urbino", "ancona", "roma", "napoli"],
  roma: ["siena", "firenze", "spoleto", "napoli"],
  napoli: ["roma", "spoleto", "ancona"],
};

export const EDGES = Object.entries(ADJACENCY).flatMap(([a, ns]) => ns.filter((b) => a < b).map((b) => [a, b]));

export function regionName(id) {
  return (REGION[id] && REGION[id].name) || (id ? id[0].toUpperCase() + id.slice(1) : "");
}

// A stylised peninsula behind the regions (decoration only, not geography).
export const LAND_PATH =
  "M14 70 C30 30 90 18 150 22 C220 20 300 30 372 50 C410 62 420 100 402 132 " +
  "C392 170 372 200 376 236 C392 280 440 330 462 380 C478 420 470 470 468 520 " +
  "C470 580 476 640 462 688 C430 700 396 690 380 662 C350 620 320 600 280 600 " +
  "C240 590 220 540 196 500 C170 460 140 440 112 400 C90 360 88 320 70 280 " +
  "C54 250 40 236 22 214 C6 180 4 120 14 70 Z";
