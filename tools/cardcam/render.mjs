// Render the 24 cards of Sixty-six (9 to A, four French suits) of each card design to PNG
// with resvg, for the camera model's training and its held-out tests (tools/cardcam/).
//
//   node tools/cardcam/render.mjs OUTDIR [DESIGN ...]      (default: every design)
//
// writes OUTDIR/DESIGN/<rank><suit>.png (ranks 9 T J Q K A, suits C D H S) and back.png,
// WIDTH pixels wide.
// The held-out design (younestouati) is a devDependency of the root package.json, so the
// tests can render it; the two training designs are in tools/cardcam/package.json.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const WIDTH = 240;
const RANKS = ["9", "T", "J", "Q", "K", "A"];
const SUITS = ["C", "D", "H", "S"];
const rootRequire = createRequire(path.join(ROOT, "package.json"));
const ownRequire = createRequire(path.join(HERE, "package.json"));

function younestouati() {
  const dir = path.join(path.dirname(
    rootRequire.resolve("@younestouati/playing-cards-standard-deck/package.json")), "cards");
  const num = { 9: "9", T: "10", J: "11", Q: "12", K: "13", A: "1" };
  return (rank, suit) => fs.readFileSync(path.join(dir, rank === "back" ? "back.svg"
    : num[rank] + suit.toLowerCase() + ".svg"), "utf8");
}

// style: "2color" (the classic faces) or "2color-bf" (big index letters, small faces)
function heruka(style = "2color") {
  const dir = path.join(path.dirname(
    ownRequire.resolve("@heruka_urgyen/react-playing-cards/package.json")), "src", "images", style);
  return (rank, suit) => fs.readFileSync(rank === "back" ? path.join(dir, "..", "back.svg")
    : path.join(dir, rank + suit + ".svg"), "utf8");
}

// @letele/playing-cards ships React components in an ES module without "type": "module";
// a copy beside it named .mjs loads as one, and react-dom/server turns each into SVG text.
async function letele() {
  const base = path.dirname(ownRequire.resolve("@letele/playing-cards/package.json"));
  const copy = path.join(base, "dist", "index.cardcam.mjs");
  fs.copyFileSync(path.join(base, "dist", "index.esm.js"), copy);
  const cards = await import(pathToFileURL(copy).href);
  const React = ownRequire("react");
  const server = ownRequire("react-dom/server");
  const name = { 9: "9", T: "10", J: "j", Q: "q", K: "k", A: "a" };
  return (rank, suit) => server.renderToStaticMarkup(React.createElement(
    rank === "back" ? cards.B1 : cards[suit + name[rank]]));
}

const DESIGNS = { younestouati, letele, heruka, herukabf: () => heruka("2color-bf") };

async function main() {
  const [out, ...names] = process.argv.slice(2);
  if (!out) throw new Error("usage: render.mjs OUTDIR [DESIGN ...]");
  const { Resvg } = rootRequire("@resvg/resvg-js");
  for (const design of names.length ? names : Object.keys(DESIGNS)) {
    const svgOf = await DESIGNS[design]();
    fs.mkdirSync(path.join(out, design), { recursive: true });
    for (const rank of RANKS) {
      for (const suit of SUITS) {
        const png = new Resvg(svgOf(rank, suit), {
          fitTo: { mode: "width", value: WIDTH }, background: "rgba(0,0,0,0)",
        }).render().asPng();
        fs.writeFileSync(path.join(out, design, rank + suit + ".png"), png);
      }
    }
    // the back: a card face down is "no card" to the model
    fs.writeFileSync(path.join(out, design, "back.png"), new Resvg(svgOf("back", ""), {
      fitTo: { mode: "width", value: WIDTH }, background: "rgba(0,0,0,0)",
    }).render().asPng());
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
