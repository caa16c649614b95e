// Time travel on a training run's page: the slider picks k, the server folds the run's first k
// recorded games into the learner's table (the library's learn_step), and the page shows it:
// MENACE's boxes with their beads, or Q-values as heat maps on the boards.
import { api, pageData } from "/static/common.js";
import { Boxes, place } from "/static/boxes.js";

const { run } = pageData();
const slider = document.getElementById("k");
const label = document.getElementById("k-label");
const status = document.getElementById("travel-status");
const container = document.getElementById("boxes");
const filter = document.getElementById("filter");
const boxes = new Boxes(container, filter, document.getElementById("stage"), null,
  document.getElementById("box-count"));
const SVG = "http://www.w3.org/2000/svg";
let built = false;

let asked = null;
let busy = false;

/** A colour for a Q-value, against the largest size ``top`` on its board: red for negative,
 * blue for positive, white for 0. */
function heat(v, top) {
  const a = top > 0 ? Math.min(1, Math.abs(v) / top) : 0;
  const [r, g, b] = v < 0 ? [192, 57, 43] : [31, 95, 191];
  const mix = (c) => Math.round(255 + (c - 255) * a);
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

function heatMaps(table) {
  container.innerHTML = "";
  const grid = document.createElement("div");
  grid.className = "box-grid";
  container.appendChild(grid); // in the page first: a shape's size may need its layout
  for (const p of table.positions) {
    const figure = document.createElement("figure");
    figure.className = "box heat";
    figure.dataset.position = p.key;
    figure.innerHTML = `${p.svg}<figcaption><code>${p.key}</code></figcaption>`;
    grid.appendChild(figure);
    const top = Math.max(0, ...Object.values(p.values).map(Math.abs));
    const svg = figure.querySelector("svg");
    for (const [move, value] of Object.entries(p.values)) {
      const shape = svg.querySelector(`[data-move="${CSS.escape(move)}"]`);
      if (!shape) continue;
      shape.setAttribute("fill", heat(value, top));
      shape.dataset.q = String(value);
      const title = document.createElementNS(SVG, "title");
      title.textContent = `Q(${move}) = ${value.toFixed(3)}`;
      shape.appendChild(title);
      // the value itself, on the square (two decimals; the title has three)
      const at = place(shape);
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("x", at.x);
      text.setAttribute("y", at.y);
      text.setAttribute("font-size", Math.max(10, at.size * 0.28));
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("dominant-baseline", "central");
      text.setAttribute("class", top > 0 && Math.abs(value) / top > 0.55 ? "q strong" : "q");
      text.textContent = value.toFixed(2).replace(/^(-?)0\./, "$1.");
      svg.appendChild(text);
    }
  }
  const text = (filter.value || "").trim().toUpperCase();
  for (const f of grid.children) f.hidden = text && !f.dataset.position.toUpperCase().includes(text);
}

async function show(k) {
  asked = k;
  if (busy) return;
  busy = true;
  try {
    while (asked !== null) {
      const want = asked;
      asked = null;
      const boards = !built ? "?boards=1" : "";
      const table = await api("GET", `/api/runs/${encodeURI(run)}/table/${want}${boards}`);
      if (table.kind === "menace") {
        if (!built) boxes.build(table.boxes);
        else boxes.update(Object.fromEntries(table.boxes.map((b) => [b.key, b.beads])));
        boxes.highlight(table.drawn);
        built = true;
      } else if (table.kind === "q") {
        heatMaps(table);
        document.getElementById("stage").parentElement.style.display = "none"; // no stages
      } else {
        container.textContent = "No picture of this learner's table.";
      }
      const what = table.kind === "q" ? `${table.known} positions known; the ` +
        `${table.positions.length} with the largest values drawn (blue: a good move, red: a bad ` +
        "one, each board on its own scale)" :
        `${table.boxes ? table.boxes.length : 0} boxes`;
      const game = table.last ? ` · game ${table.last.index + 1} (highlighted): ` +
        `${table.last.moves.join(" ")}, a ${table.last.result}` : "";
      status.textContent = `${table.agent} after ${want} games: ${what}${game}`;
      status.dataset.k = String(want);
    }
  } catch (err) {
    status.textContent = err.message;
  } finally {
    busy = false;
  }
}

slider.addEventListener("input", () => {
  label.textContent = slider.value;
  show(Number(slider.value));
});
filter.addEventListener("input", () => {
  for (const f of container.querySelectorAll("figure.heat")) {
    f.hidden = filter.value && !f.dataset.position.toUpperCase().includes(filter.value.trim().toUpperCase());
  }
});
show(Number(slider.value));
