import sharp from "sharp";

/**
 * The sandbox listings' photos, drawn here as SVG and rasterised by sharp: building fronts and
 * landscapes, rooms in one-point perspective, and floor plans with their rooms' outlines and labels.
 * Nothing is fetched. Each listing's pictures are the same on every seed (a generator seeded from
 * the listing's title), and listings differ in colours, sizes and layout.
 */

export const samplePhotoWidth = 1600;
export const samplePhotoHeight = 1067;

export type SceneKind =
  | "apartment_block"
  | "house"
  | "land"
  | "shopfront"
  | "office_tower"
  | "warehouse"
  | "development"
  | "living_room"
  | "bedroom"
  | "kitchen"
  | "meeting_room"
  | "shop_floor"
  | "warehouse_area"
  | "floor_plan"
  | "site_plan";

/** One picture to draw: its scene, and the room labels and level tag the seed gives the photo. */
export interface SamplePhotoPlan {
  scene: SceneKind;
  rooms: string[];
  floor?: string;
}

export interface SamplePhoto extends SamplePhotoPlan {
  bytes: Buffer;
  contentType: "image/jpeg" | "image/png";
}

export interface ListingShape {
  type: string;
  title: string;
  rooms?: number;
  floor?: string;
  total_floors?: number;
  usable_area_sqm?: number;
  land_area_sqm?: number;
}

/** What the drawings read of a listing document (the seed's own documents, so the fields are as declared). */
export function listingShape(document: Record<string, unknown>): ListingShape {
  const text = (key: string) => (typeof document[key] === "string" ? (document[key] as string) : undefined);
  const number = (key: string) => (typeof document[key] === "number" ? (document[key] as number) : undefined);
  return {
    type: text("type") ?? "apartment",
    title: text("title") ?? "",
    rooms: number("rooms"),
    floor: text("floor"),
    total_floors: number("total_floors"),
    usable_area_sqm: number("usable_area_sqm"),
    land_area_sqm: number("land_area_sqm"),
  };
}

/** Which pictures a listing gets (2 to 4): its outside first (the cover), then rooms, then its plan. */
export function samplePhotoPlans(listing: ListingShape): SamplePhotoPlan[] {
  const floor = listing.floor ? { floor: listing.floor } : {};
  switch (listing.type) {
    case "apartment":
      return [
        { scene: "apartment_block", rooms: ["building"] },
        { scene: "living_room", rooms: ["living_room"], ...floor },
        ...((listing.rooms ?? 1) > 1 ? [{ scene: "bedroom" as const, rooms: ["bedroom"], ...floor }] : []),
        { scene: "floor_plan", rooms: ["floor_plan"], ...floor },
      ];
    case "house":
      return [
        { scene: "house", rooms: ["facade", "garden"] },
        { scene: "living_room", rooms: ["living_room"], floor: "ground" },
        { scene: "kitchen", rooms: ["kitchen"], floor: "ground" },
        { scene: "floor_plan", rooms: ["floor_plan"], floor: "ground" },
      ];
    case "land":
      return [
        { scene: "land", rooms: ["land_plot", "view"] },
        { scene: "site_plan", rooms: ["floor_plan", "land_plot"] },
      ];
    case "commercial":
      return [
        { scene: "shopfront", rooms: ["facade", "entrance"] },
        { scene: "shop_floor", rooms: ["shop_floor"], ...floor },
        { scene: "floor_plan", rooms: ["floor_plan"], ...floor },
      ];
    case "office":
      return [
        { scene: "office_tower", rooms: ["building"] },
        { scene: "meeting_room", rooms: ["meeting_room"] },
        { scene: "floor_plan", rooms: ["floor_plan"] },
      ];
    case "industrial":
      return [
        { scene: "warehouse", rooms: ["building", "yard"] },
        { scene: "warehouse_area", rooms: ["warehouse_area"] },
      ];
    default:
      return [
        { scene: "development", rooms: ["building"] },
        { scene: "living_room", rooms: ["living_room"] },
        { scene: "site_plan", rooms: ["floor_plan"] },
      ];
  }
}

/**
 * Draws a listing's pictures: photographs as JPEG, plans as PNG (sharp edges and text), at
 * 1600 × 1067, the photo pipeline makes its sizes from them like from any upload.
 */
export async function drawSamplePhotos(listing: ListingShape): Promise<SamplePhoto[]> {
  const plans = samplePhotoPlans(listing);
  return Promise.all(
    plans.map(async (plan, index) => {
      const random = generator(`${listing.title}#${index}`);
      const svg = drawScene(plan.scene, random, listing);
      const image = sharp(Buffer.from(svg));
      const plan2d = plan.scene === "floor_plan" || plan.scene === "site_plan";
      const bytes = plan2d ? await image.png({ compressionLevel: 6 }).toBuffer() : await image.jpeg({ quality: 82 }).toBuffer();
      return { ...plan, bytes, contentType: plan2d ? ("image/png" as const) : ("image/jpeg" as const) };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Randomness: mulberry32 over a string hash, so a listing draws the same pictures on every seed.

export interface Random {
  (): number;
  between(low: number, high: number): number;
  int(low: number, high: number): number;
  pick<T>(items: readonly T[]): T;
}

export function generator(seed: string): Random {
  let state = 2166136261;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 16777619);
  const next = (() => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Random;
  next.between = (low, high) => low + next() * (high - low);
  next.int = (low, high) => Math.floor(next.between(low, high + 1));
  next.pick = (items) => items[Math.floor(next() * items.length)];
  return next;
}

// ---------------------------------------------------------------------------------------------
// Drawing helpers.

const W = samplePhotoWidth;
const H = samplePhotoHeight;
const r1 = (value: number) => Math.round(value * 10) / 10;

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const rect = (x: number, y: number, w: number, h: number, fill: string, extra = "") =>
  `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}" ${extra}/>`;

const poly = (points: [number, number][], fill: string, extra = "") =>
  `<polygon points="${points.map(([x, y]) => `${r1(x)},${r1(y)}`).join(" ")}" fill="${fill}" ${extra}/>`;

const svgDocument = (defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;

const vertical = (id: string, stops: [number, string][]) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join("")}</linearGradient>`;

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h)},${Math.round(s)}%,${Math.round(l)}%)`;

const skies = [
  { top: "#2f6fb8", bottom: "#cfe6fb", sun: "#fff6d5" }, // clear day
  { top: "#5b8fc9", bottom: "#f2f0e6", sun: "#fffbe8" }, // hazy noon
  { top: "#3d4f8f", bottom: "#f6b780", sun: "#ffd9a0" }, // evening
  { top: "#6aa8dc", bottom: "#e8f3fb", sun: "#ffffff" }, // bright morning
];

const facadeColours = ["#e8dcc4", "#d9c2a0", "#c9d3cf", "#efe6d8", "#d6b8a5", "#bfc8d6", "#e4d2b0", "#cdbfae"];

function sky(random: Random, horizon: number): { defs: string; body: string } {
  const colours = random.pick(skies);
  const sunX = random.between(150, W - 150);
  const sunY = random.between(80, horizon * 0.45);
  const clouds = Array.from({ length: random.int(2, 5) }, () => {
    const x = random.between(0, W);
    const y = random.between(40, horizon * 0.6);
    const s = random.between(0.6, 1.5);
    return [0, 1, 2]
      .map(
        (k) =>
          `<ellipse cx="${r1(x + k * 70 * s)}" cy="${r1(y - (k === 1 ? 25 * s : 0))}" rx="${r1(90 * s)}" ry="${r1(38 * s)}" fill="#ffffff" opacity="0.75"/>`,
      )
      .join("");
  }).join("");
  return {
    defs: vertical("sky", [
      [0, colours.top],
      [1, colours.bottom],
    ]),
    body: `${rect(0, 0, W, horizon + 2, "url(#sky)")}<circle cx="${r1(sunX)}" cy="${r1(sunY)}" r="55" fill="${colours.sun}" opacity="0.9"/>${clouds}`,
  };
}

function ground(random: Random, horizon: number, kind: "lawn" | "pavement"): string {
  const hue = random.between(85, 115);
  const lawn = rect(0, horizon, W, H - horizon, hsl(hue, 35, 42));
  const path = kind === "pavement" ? rect(0, horizon + 40, W, H - horizon - 40, "#9a9890") + rect(0, H - 90, W, 90, "#5d5d5a") : "";
  return lawn + path;
}

function tree(x: number, baseY: number, size: number, random: Random): string {
  const green = hsl(random.between(90, 135), random.between(30, 50), random.between(25, 38));
  return (
    rect(x - size * 0.08, baseY - size * 0.9, size * 0.16, size * 0.9, "#6b4a2f") +
    `<circle cx="${r1(x)}" cy="${r1(baseY - size)}" r="${r1(size * 0.45)}" fill="${green}"/>` +
    `<circle cx="${r1(x - size * 0.3)}" cy="${r1(baseY - size * 0.8)}" r="${r1(size * 0.35)}" fill="${green}"/>` +
    `<circle cx="${r1(x + size * 0.3)}" cy="${r1(baseY - size * 0.8)}" r="${r1(size * 0.35)}" fill="${green}"/>`
  );
}

function windowPane(x: number, y: number, w: number, h: number, random: Random, frame = "#f7f7f2"): string {
  const lit = random() < 0.18;
  return (
    rect(x - 4, y - 4, w + 8, h + 8, frame) +
    rect(x, y, w, h, lit ? "#ffe7a3" : "url(#glass)") +
    `<line x1="${r1(x + w / 2)}" y1="${r1(y)}" x2="${r1(x + w / 2)}" y2="${r1(y + h)}" stroke="${frame}" stroke-width="4"/>`
  );
}

const glassDefs = vertical("glass", [
  [0, "#8fb4d4"],
  [0.5, "#5f86ab"],
  [1, "#a9c6de"],
]);

// ---------------------------------------------------------------------------------------------
// Outside.

function apartmentBlock(random: Random, listing: ListingShape): string {
  const horizon = H * 0.72;
  const s = sky(random, horizon);
  const floors = Math.min(Math.max(listing.total_floors ?? random.int(4, 10), 2), 10);
  const columns = random.int(5, 8);
  const buildingW = random.between(0.5, 0.68) * W;
  const x0 = (W - buildingW) / 2 + random.between(-120, 120);
  const floorH = Math.min(78, (horizon - 120) / (floors + 1));
  const buildingH = floorH * (floors + 1);
  const y0 = horizon + 30 - buildingH;
  const wall = random.pick(facadeColours);
  const cellW = buildingW / columns;
  let windows = "";
  for (let f = 0; f < floors + 1; f++) {
    for (let c = 0; c < columns; c++) {
      const wx = x0 + c * cellW + cellW * 0.22;
      const wy = y0 + f * floorH + floorH * 0.2;
      if (f === floors && c === Math.floor(columns / 2)) continue;
      windows += windowPane(wx, wy, cellW * 0.56, floorH * 0.55, random);
      if (f > 0 && f < floors && random() < 0.35) windows += rect(wx - 10, wy + floorH * 0.55, cellW * 0.56 + 20, 10, "#7c7c7c");
    }
  }
  const door = rect(x0 + buildingW / 2 - 40, horizon + 30 - floorH * 0.9, 80, floorH * 0.9, "#5a3e2b");
  const roof = rect(x0 - 12, y0 - 18, buildingW + 24, 18, "#6f6a64");
  const trees = [
    tree(x0 - 90, horizon + 40, random.between(150, 220), random),
    tree(x0 + buildingW + 90, horizon + 40, random.between(150, 220), random),
  ];
  return svgDocument(
    s.defs + glassDefs,
    s.body + ground(random, horizon, "pavement") + roof + rect(x0, y0, buildingW, buildingH, wall) + windows + door + trees.join(""),
  );
}

function house(random: Random): string {
  const horizon = H * 0.66;
  const s = sky(random, horizon);
  const bodyW = random.between(520, 720);
  const bodyH = random.between(250, 320);
  const x0 = (W - bodyW) / 2 + random.between(-150, 150);
  const base = horizon + 110;
  const y0 = base - bodyH;
  const wall = random.pick(facadeColours);
  const roofColour = random.pick(["#8e3b2c", "#5a4a42", "#3f4a57", "#a0522d"]);
  const roof = poly(
    [
      [x0 - 40, y0],
      [x0 + bodyW / 2, y0 - random.between(160, 230)],
      [x0 + bodyW + 40, y0],
    ],
    roofColour,
  );
  const chimney = rect(x0 + bodyW * 0.7, y0 - 170, 40, 110, "#7a5a4a");
  const windows = [0.12, 0.62].flatMap((fx) => [windowPane(x0 + bodyW * fx, y0 + 60, bodyW * 0.22, 110, random, "#ffffff")]).join("");
  const door = rect(x0 + bodyW * 0.42, base - 170, bodyW * 0.14, 170, "#6b4226");
  const fence =
    Array.from({ length: 40 }, (_, i) => rect(i * 42, base + 60, 12, 70, "#f1efe7")).join("") + rect(0, base + 85, W, 10, "#f1efe7");
  const trees = Array.from({ length: random.int(2, 4) }, () =>
    tree(random.pick([random.between(60, x0 - 80), random.between(x0 + bodyW + 80, W - 60)]), base + 20, random.between(160, 260), random),
  );
  return svgDocument(
    s.defs + glassDefs,
    s.body + ground(random, horizon, "lawn") + trees.join("") + chimney + roof + rect(x0, y0, bodyW, bodyH, wall) + windows + door + fence,
  );
}

function land(random: Random): string {
  const horizon = H * 0.5;
  const s = sky(random, horizon);
  const hills = Array.from({ length: 3 }, (_, i) => {
    const y = horizon - 40 + i * 70;
    const hue = random.between(70, 120);
    const c1 = random.between(100, 500);
    return `<path d="M0 ${r1(y + random.between(-40, 40))} Q ${r1(c1)} ${r1(y - random.between(60, 140))} ${r1(W / 2)} ${r1(y)} T ${W} ${r1(y + random.between(-30, 30))} L ${W} ${H} L 0 ${H} Z" fill="${hsl(hue, 30 + i * 8, 52 - i * 7)}"/>`;
  }).join("");
  const rows = Array.from({ length: 9 }, (_, i) => {
    const y = horizon + 230 + i * 40;
    return (
      `<path d="M ${r1(W / 2 - 40 - i * 12)} ${r1(horizon + 200)} L ${r1(-200 + i * 220)} ${H}" stroke="#6f8a3a" stroke-width="3" opacity="0.35"/>` +
      `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="#d9c77a" stroke-width="2" opacity="0.25"/>`
    );
  }).join("");
  const pegs = [0.2, 0.45, 0.7, 0.9]
    .map((fx) => rect(W * fx, horizon + 300 + random.between(-20, 40), 10, 60, "#f2f2f2") + rect(W * fx, horizon + 300, 10, 14, "#d9432b"))
    .join("");
  const trees = Array.from({ length: random.int(3, 6) }, () =>
    tree(random.between(40, W - 40), horizon + random.between(40, 120), random.between(70, 130), random),
  ).join("");
  return svgDocument(s.defs, s.body + hills + trees + rows + pegs);
}

function shopfront(random: Random): string {
  const horizon = H * 0.78;
  const s = sky(random, horizon);
  const wall = random.pick(facadeColours);
  const awning = hsl(random.between(0, 360), 55, 45);
  const stripes = Array.from({ length: 16 }, (_, i) => rect(120 + i * 85, 430, 42, 70, i % 2 ? "#ffffff" : awning)).join("");
  const upper = Array.from({ length: 2 }, (_, f) =>
    Array.from({ length: 6 }, (_, c) => windowPane(170 + c * 220, 120 + f * 150 - 110, 120, 100, random, "#ffffff")).join(""),
  ).join("");
  const vitrine = rect(150, 520, 1000, 300, "url(#glass)") + rect(1200, 540, 220, 280, "#4b3a2e") + rect(150, 500, 1300, 20, "#3b3b3b");
  const shelves = Array.from({ length: 3 }, (_, i) => rect(190, 580 + i * 75, 920, 8, "#e9e2d2")).join("");
  return svgDocument(
    s.defs + glassDefs,
    s.body +
      rect(80, 0, W - 160, horizon, wall) +
      upper +
      stripes +
      vitrine +
      shelves +
      rect(0, horizon, W, H - horizon, "#8f8d86") +
      rect(0, H - 80, W, 80, "#555"),
  );
}

function officeTower(random: Random): string {
  const horizon = H * 0.82;
  const s = sky(random, horizon);
  const towerW = random.between(480, 640);
  const x0 = (W - towerW) / 2 + random.between(-180, 180);
  const y0 = random.between(60, 160);
  const panels = Array.from({ length: 14 }, (_, row) =>
    Array.from({ length: 8 }, (_, col) =>
      rect(
        x0 + 12 + col * ((towerW - 24) / 8),
        y0 + 12 + row * ((horizon - y0 - 24) / 14),
        (towerW - 24) / 8 - 6,
        (horizon - y0 - 24) / 14 - 6,
        `hsl(208,${r1(random.between(30, 45))}%,${r1(random.between(42, 62))}%)`,
      ),
    ).join(""),
  ).join("");
  const neighbour = rect(x0 + towerW + 60, horizon - 380, 260, 380, "#b9b4aa") + rect(x0 - 320, horizon - 300, 260, 300, "#c7c0b2");
  return svgDocument(
    s.defs,
    s.body + neighbour + rect(x0, y0, towerW, horizon - y0, "#3e4c5a") + panels + rect(0, horizon, W, H - horizon, "#8c8a84"),
  );
}

function warehouse(random: Random): string {
  const horizon = H * 0.6;
  const s = sky(random, horizon);
  const y0 = horizon - 160;
  const wall = random.pick(["#c9ced3", "#b8c0c8", "#d5d0c4"]);
  const ribs = Array.from({ length: 60 }, (_, i) => rect(100 + i * 23, y0, 3, 330, "#9aa2aa")).join("");
  const docks = Array.from(
    { length: 4 },
    (_, i) => rect(220 + i * 300, y0 + 150, 200, 180, "#5f6a74") + rect(220 + i * 300, y0 + 150, 200, 18, "#f2c230"),
  ).join("");
  return svgDocument(
    s.defs,
    s.body +
      rect(0, horizon, W, H - horizon, "#a3a39c") +
      poly(
        [
          [80, y0],
          [W / 2, y0 - 70],
          [W - 80, y0],
        ],
        "#7b838b",
      ) +
      rect(100, y0, W - 200, 330, wall) +
      ribs +
      docks +
      Array.from({ length: 8 }, (_, i) => rect(i * 220 + 40, H - 140, 120, 10, "#f4f4f4")).join(""),
  );
}

function development(random: Random): string {
  const horizon = H * 0.74;
  const s = sky(random, horizon);
  const blocks = [0, 1, 2]
    .map((i) => {
      const w = random.between(300, 380);
      const h = random.between(420, 620);
      const x = 120 + i * 470 + random.between(-30, 30);
      const wall = facadeColours[(i * 3 + random.int(0, 7)) % facadeColours.length];
      const windows = Array.from({ length: Math.floor(h / 70) }, (_, f) =>
        Array.from({ length: 4 }, (_, c) => windowPane(x + 25 + c * (w / 4), horizon - h + 25 + f * 70, w / 4 - 50, 40, random)).join(""),
      ).join("");
      return rect(x, horizon - h, w, h, wall) + windows;
    })
    .join("");
  const craneX = random.between(300, 1300);
  const crane =
    rect(craneX, 120, 16, horizon - 120, "#e0a526") +
    rect(craneX - 220, 110, 520, 14, "#e0a526") +
    `<line x1="${r1(craneX + 200)}" y1="124" x2="${r1(craneX + 200)}" y2="330" stroke="#333" stroke-width="3"/>`;
  return svgDocument(
    s.defs + glassDefs,
    s.body +
      ground(random, horizon, "lawn") +
      crane +
      blocks +
      tree(80, horizon + 60, 180, random) +
      tree(W - 70, horizon + 60, 200, random),
  );
}

// ---------------------------------------------------------------------------------------------
// Inside: one-point perspective, the back wall in the middle.

function room(random: Random, furnish: (frame: RoomFrame) => string, options: { windowOnBack?: boolean } = {}): string {
  const bx = random.between(360, 460);
  const by = random.between(220, 280);
  const frame: RoomFrame = { bx, by, bw: W - 2 * bx, bh: random.between(430, 480), random };
  const backBottom = by + frame.bh;
  const wallHue = random.between(20, 60);
  const wall = hsl(wallHue, random.between(10, 30), random.between(82, 90));
  const side = hsl(wallHue, 15, 72);
  const floorColour = random.pick(["#b07a4a", "#c4955f", "#8d6244", "#d1b48c", "#9e9e9e"]);
  const planks = Array.from({ length: 14 }, (_, i) => {
    const x = bx + (i * frame.bw) / 13;
    return `<line x1="${r1(x)}" y1="${r1(backBottom)}" x2="${r1(W / 2 + (x - W / 2) * 3.2)}" y2="${H}" stroke="#000" stroke-opacity="0.12" stroke-width="3"/>`;
  }).join("");
  const sky = vertical("roomsky", [
    [0, "#6fa6d8"],
    [1, "#e6f1fa"],
  ]);
  const windowW = frame.bw * random.between(0.32, 0.42);
  const windowX = bx + random.between(0.08, 0.55) * (frame.bw - windowW);
  const backWindow =
    options.windowOnBack === false
      ? ""
      : rect(windowX - 10, by + 50, windowW + 20, frame.bh * 0.5 + 20, "#fafafa") +
        rect(windowX, by + 60, windowW, frame.bh * 0.5, "url(#roomsky)") +
        rect(windowX, by + 60 + frame.bh * 0.38, windowW, frame.bh * 0.12, hsl(110, 30, 45)) +
        `<line x1="${r1(windowX + windowW / 2)}" y1="${r1(by + 60)}" x2="${r1(windowX + windowW / 2)}" y2="${r1(by + 60 + frame.bh * 0.5)}" stroke="#fafafa" stroke-width="8"/>`;
  const lampX = W / 2 + random.between(-150, 150);
  const body =
    poly(
      [
        [0, 0],
        [W, 0],
        [W - bx, by],
        [bx, by],
      ],
      "#f4f2ee",
    ) +
    poly(
      [
        [0, 0],
        [bx, by],
        [bx, backBottom],
        [0, H],
      ],
      side,
    ) +
    poly(
      [
        [W, 0],
        [W - bx, by],
        [W - bx, backBottom],
        [W, H],
      ],
      side,
      'opacity="0.92"',
    ) +
    rect(bx, by, frame.bw, frame.bh, wall) +
    poly(
      [
        [bx, backBottom],
        [W - bx, backBottom],
        [W, H],
        [0, H],
      ],
      floorColour,
    ) +
    planks +
    backWindow +
    `<line x1="${r1(lampX)}" y1="0" x2="${r1(lampX)}" y2="${r1(by - 40)}" stroke="#444" stroke-width="3"/><ellipse cx="${r1(lampX)}" cy="${r1(by - 30)}" rx="48" ry="22" fill="#f5e6c4"/>` +
    furnish(frame);
  return svgDocument(sky, body);
}

interface RoomFrame {
  bx: number;
  by: number;
  bw: number;
  bh: number;
  random: Random;
}

const fabric = (random: Random) => hsl(random.between(0, 360), random.between(20, 45), random.between(35, 55));

const sofa = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const colour = fabric(random);
  const x = bx + bw * random.between(0.05, 0.35);
  const y = by + bh - 150;
  const w = bw * 0.55;
  return (
    `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="110" rx="22" fill="${colour}"/>` +
    `<rect x="${r1(x - 20)}" y="${r1(y + 40)}" width="50" height="110" rx="16" fill="${colour}"/>` +
    `<rect x="${r1(x + w - 30)}" y="${r1(y + 40)}" width="50" height="110" rx="16" fill="${colour}"/>` +
    `<rect x="${r1(x + 20)}" y="${r1(y + 70)}" width="${r1(w - 40)}" height="70" rx="12" fill="${colour}" opacity="0.85"/>` +
    `<ellipse cx="${r1(W / 2)}" cy="${r1(H - 140)}" rx="330" ry="70" fill="${fabric(random)}" opacity="0.55"/>` +
    `<rect x="${r1(W / 2 - 140)}" y="${r1(H - 230)}" width="280" height="26" rx="6" fill="#6b4a2f"/>` +
    rect(W / 2 - 120, H - 204, 12, 70, "#5a3e28") +
    rect(W / 2 + 108, H - 204, 12, 70, "#5a3e28") +
    rect(bx + bw * 0.75, by + 90, 90, 120, fabric(random), 'stroke="#333" stroke-width="6"')
  );
};

const bed = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const x = bx + bw * 0.25;
  const y = by + bh - 160;
  const w = bw * 0.5;
  return (
    rect(x - 20, y - 110, w + 40, 150, "#6b4a2f") +
    poly(
      [
        [x, y],
        [x + w, y],
        [x + w + 170, H - 60],
        [x - 170, H - 60],
      ],
      "#f5f3ee",
    ) +
    poly(
      [
        [x - 40, y + 150],
        [x + w + 40, y + 150],
        [x + w + 170, H - 60],
        [x - 170, H - 60],
      ],
      fabric(random),
    ) +
    `<rect x="${r1(x + 30)}" y="${r1(y + 10)}" width="${r1(w / 2 - 50)}" height="60" rx="18" fill="#ffffff"/>` +
    `<rect x="${r1(x + w / 2 + 20)}" y="${r1(y + 10)}" width="${r1(w / 2 - 50)}" height="60" rx="18" fill="#ffffff"/>` +
    rect(x - 150, y + 20, 100, 90, "#8a6a4a") +
    `<ellipse cx="${r1(x - 100)}" cy="${r1(y - 20)}" rx="30" ry="40" fill="#f5e6c4"/>`
  );
};

const kitchen = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const cabinet = random.pick(["#f3f1ea", "#2f4a5c", "#6c7a5a", "#c9b79c"]);
  const counterY = by + bh - 190;
  const units = Array.from({ length: 6 }, (_, i) =>
    rect(bx + 10 + (i * (bw - 20)) / 6, counterY + 20, (bw - 20) / 6 - 8, 150, cabinet, 'stroke="#00000022" stroke-width="3"'),
  ).join("");
  const uppers = Array.from({ length: 3 }, (_, i) =>
    rect(bx + 10 + (i * (bw - 20)) / 6, by + 20, (bw - 20) / 6 - 8, 130, cabinet, 'stroke="#00000022" stroke-width="3"'),
  ).join("");
  return (
    rect(bx, counterY, bw, 22, "#d8d4cc") +
    units +
    uppers +
    rect(bx + bw * 0.62, counterY - 40, 110, 40, "#888") +
    rect(W / 2 - 220, H - 260, 440, 40, "#7a5a3a") +
    rect(W / 2 - 200, H - 220, 20, 160, "#5a3e28") +
    rect(W / 2 + 180, H - 220, 20, 160, "#5a3e28")
  );
};

const meetingTable = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const chairs = Array.from({ length: 5 }, (_, i) => {
    const x = W / 2 - 360 + i * 180;
    return `<rect x="${r1(x - 35)}" y="${r1(H - 330)}" width="70" height="90" rx="12" fill="${i % 2 ? "#2f3b48" : "#3d4b5a"}"/>`;
  }).join("");
  return (
    rect(bx + bw * 0.2, by + 60, bw * 0.6, bh * 0.45, "#1f2328") +
    rect(bx + bw * 0.2 + 10, by + 70, bw * 0.6 - 20, bh * 0.45 - 20, fabric(random), 'opacity="0.5"') +
    chairs +
    poly(
      [
        [W / 2 - 420, H - 270],
        [W / 2 + 420, H - 270],
        [W / 2 + 560, H - 120],
        [W / 2 - 560, H - 120],
      ],
      "#e8e4dc",
    ) +
    rect(W / 2 - 560, H - 120, 1120, 24, "#b9b2a6")
  );
};

const shelves = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const rows = Array.from({ length: 4 }, (_, i) => {
    const y = by + 60 + i * ((bh - 100) / 4);
    const goods = Array.from({ length: 12 }, (_, j) =>
      rect(bx + 30 + j * ((bw - 60) / 12), y - 44, (bw - 60) / 12 - 10, 44, fabric(random)),
    ).join("");
    return rect(bx + 20, y, bw - 40, 10, "#d9d4c8") + goods;
  }).join("");
  return rows + rect(W / 2 - 180, H - 260, 360, 120, "#efeae0", 'stroke="#9a9285" stroke-width="4"');
};

const racks = ({ bx, by, bw, bh, random }: RoomFrame) => {
  const stacks = [0, 1, 2, 3]
    .map((k) => {
      const x = bx + k * (bw / 4) + 20;
      return (
        rect(x, by + 20, 12, bh - 20, "#2f5fa8") +
        rect(x + bw / 4 - 50, by + 20, 12, bh - 20, "#2f5fa8") +
        [0, 1, 2]
          .map(
            (level) =>
              rect(x, by + 60 + level * (bh / 3.3), bw / 4 - 38, 10, "#e07a1f") +
              rect(x + 20, by + 60 + level * (bh / 3.3) - 70, bw / 4 - 80, 70, random() < 0.8 ? "#c8a878" : "#dcd6c8"),
          )
          .join("")
      );
    })
    .join("");
  return stacks + rect(W / 2 - 8, by + bh, 16, H - by - bh, "#f2c230");
};

// ---------------------------------------------------------------------------------------------
// Plans: a rectangle cut into rooms, walls drawn thick, each room labelled with its name and area.

interface PlanRoom {
  x: number;
  y: number;
  w: number;
  h: number;
  name: string;
}

const roomNames = {
  living: "Living",
  bedroom: "Dormitor",
  kitchen: "Bucătărie",
  bath: "Baie",
  hall: "Hol",
  office: "Birou",
  meeting: "Sală ședințe",
  shop: "Spațiu vânzare",
  storage: "Depozit",
};

function planRooms(listing: ListingShape, random: Random): string[] {
  if (listing.type === "office")
    return [roomNames.office, roomNames.office, roomNames.meeting, roomNames.kitchen, roomNames.bath, roomNames.hall];
  if (listing.type === "commercial") return [roomNames.shop, roomNames.storage, roomNames.bath];
  const rooms = Math.min(Math.max(listing.rooms ?? 2, 1), 5);
  const bedrooms = Array.from({ length: Math.max(rooms - 1, 0) }, () => roomNames.bedroom);
  return [roomNames.living, ...bedrooms, roomNames.kitchen, roomNames.bath, ...(random() < 0.7 ? [roomNames.hall] : [])];
}

/** Cuts the area into as many rooms as names, the larger side first, the first (main) room the largest. */
function cut(area: Omit<PlanRoom, "name">, names: string[], random: Random): PlanRoom[] {
  if (names.length === 1) return [{ ...area, name: names[0] }];
  const share = random.between(0.42, 0.6);
  const firstCount = Math.max(1, Math.round(names.length * (names.length > 3 ? 0.4 : 0.34)));
  const [first, rest] = [names.slice(0, firstCount), names.slice(firstCount)];
  if (area.w >= area.h) {
    const w1 = area.w * share;
    return [...cut({ ...area, w: w1 }, first, random), ...cut({ ...area, x: area.x + w1, w: area.w - w1 }, rest, random)];
  }
  const h1 = area.h * share;
  return [...cut({ ...area, h: h1 }, first, random), ...cut({ ...area, y: area.y + h1, h: area.h - h1 }, rest, random)];
}

function floorPlan(random: Random, listing: ListingShape): string {
  const total = listing.usable_area_sqm ?? random.between(45, 110);
  const planW = random.between(1180, 1340);
  const planH = random.between(720, 800);
  const x0 = (W - planW) / 2;
  const y0 = (H - planH) / 2 + 20;
  const rooms = cut({ x: x0, y: y0, w: planW, h: planH }, planRooms(listing, random), random);
  const sqmPerPixel = total / (planW * planH);
  const font = 'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"';
  const drawn = rooms
    .map((room) => {
      const area = room.w * room.h * sqmPerPixel;
      const doorX = room.x + Math.min(60, room.w / 4);
      const size = Math.max(22, Math.min(34, room.w / 9));
      return (
        rect(room.x, room.y, room.w, room.h, "#fbfaf6", 'stroke="#2b2b2b" stroke-width="10"') +
        // A door: a gap in the wall with its swing.
        rect(doorX, room.y + room.h - 7, 70, 14, "#fbfaf6") +
        `<path d="M ${r1(doorX)} ${r1(room.y + room.h)} A 70 70 0 0 1 ${r1(doorX + 70)} ${r1(room.y + room.h - 70)}" fill="none" stroke="#8a8a8a" stroke-width="2"/>` +
        `<text x="${r1(room.x + room.w / 2)}" y="${r1(room.y + room.h / 2)}" ${font} font-size="${r1(size)}" font-weight="bold" text-anchor="middle" fill="#2b2b2b">${escapeXml(room.name)}</text>` +
        `<text x="${r1(room.x + room.w / 2)}" y="${r1(room.y + room.h / 2 + size * 1.3)}" ${font} font-size="${r1(size * 0.8)}" text-anchor="middle" fill="#555">${area.toFixed(1).replace(".", ",")} m²</text>`
      );
    })
    .join("");
  const windows = [0.2, 0.5, 0.8]
    .map((fx) => rect(x0 + planW * fx - 60, y0 - 7, 120, 14, "#9cc3e6", 'stroke="#2b2b2b" stroke-width="2"'))
    .join("");
  const title = `<text x="${r1(x0)}" y="${r1(y0 - 40)}" ${font} font-size="30" fill="#2b2b2b">Plan · ${total.toLocaleString("ro-RO")} m² utili</text>`;
  const north = `<g transform="translate(${r1(W - 90)},${r1(y0 - 50)})"><polygon points="0,-30 14,12 0,4 -14,12" fill="#2b2b2b"/><text y="40" ${font} font-size="22" text-anchor="middle">N</text></g>`;
  return svgDocument("", rect(0, 0, W, H, "#ffffff") + drawn + windows + title + north);
}

function sitePlan(random: Random, listing: ListingShape): string {
  const font = 'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"';
  const grass = hsl(random.between(85, 110), 35, 80);
  const road =
    rect(0, H - 170, W, 110, "#c9c9c4") +
    `<line x1="0" y1="${H - 115}" x2="${W}" y2="${H - 115}" stroke="#fff" stroke-width="6" stroke-dasharray="40 30"/>`;
  const plot = poly(
    [
      [260 + random.between(-40, 40), 140 + random.between(-30, 30)],
      [W - 260 + random.between(-40, 40), 120 + random.between(-30, 30)],
      [W - 300 + random.between(-30, 30), H - 200],
      [300 + random.between(-30, 30), H - 200],
    ],
    grass,
    'stroke="#2b2b2b" stroke-width="8" stroke-dasharray="28 14"',
  );
  const buildings =
    listing.type === "development"
      ? [0, 1, 2].map((i) => rect(380 + i * 320, 260 + (i % 2) * 80, 220, 300, "#e9e4da", 'stroke="#2b2b2b" stroke-width="8"')).join("")
      : rect(W / 2 - 200, 330, 400, 260, "none", 'stroke="#777" stroke-width="4" stroke-dasharray="12 10"');
  const label =
    listing.type === "development"
      ? "Bloc A · Bloc B · Bloc C"
      : listing.land_area_sqm
        ? `Teren ${listing.land_area_sqm.toLocaleString("ro-RO")} m² · zonă construibilă`
        : "Teren · zonă construibilă";
  const trees = Array.from(
    { length: 8 },
    () =>
      `<circle cx="${r1(random.between(320, W - 320))}" cy="${r1(random.between(180, H - 260))}" r="22" fill="${hsl(110, 35, 45)}" opacity="0.8"/>`,
  ).join("");
  return svgDocument(
    "",
    rect(0, 0, W, H, "#ffffff") +
      road +
      plot +
      trees +
      buildings +
      `<text x="${W / 2}" y="${H - 215}" ${font} font-size="32" text-anchor="middle" fill="#2b2b2b">${escapeXml(label)}</text>` +
      `<text x="${W / 2}" y="${H - 72}" ${font} font-size="24" text-anchor="middle" fill="#555">Drum de acces</text>`,
  );
}

function drawScene(scene: SceneKind, random: Random, listing: ListingShape): string {
  switch (scene) {
    case "apartment_block":
      return apartmentBlock(random, listing);
    case "house":
      return house(random);
    case "land":
      return land(random);
    case "shopfront":
      return shopfront(random);
    case "office_tower":
      return officeTower(random);
    case "warehouse":
      return warehouse(random);
    case "development":
      return development(random);
    case "living_room":
      return room(random, sofa);
    case "bedroom":
      return room(random, bed);
    case "kitchen":
      return room(random, kitchen);
    case "meeting_room":
      return room(random, meetingTable);
    case "shop_floor":
      return room(random, shelves, { windowOnBack: false });
    case "warehouse_area":
      return room(random, racks, { windowOnBack: false });
    case "floor_plan":
      return floorPlan(random, listing);
    case "site_plan":
      return sitePlan(random, listing);
  }
}

/**
 * The photo the quickstart uploads (GET /sandbox/sample-photo.jpg): a living room drawn as the seed
 * draws one, the same bytes on every call, so a reader has a JPEG to send without bringing their own.
 */
export async function drawQuickstartPhoto(): Promise<Buffer> {
  const listing: ListingShape = { type: "apartment", title: "Apartament 3 camere Floreasca", rooms: 3, floor: "4", total_floors: 8 };
  const svg = drawScene("living_room", generator(`${listing.title}#quickstart`), listing);
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}
