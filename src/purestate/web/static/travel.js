// Time travel on a training run's page: the slider picks k, the server folds the run's first k
// recorded games into the learner's table (the library's learn_step), and the page shows it:
// MENACE's boxes with their beads, or Q-values as heat maps on the boards.
import { api, pageData } from "/static/common.js";
import { Boxes } from "/static/boxes.js";

const { run } = pageData();
const slider = document.getElementById("k");
const label = document.getElementById("k-label");
const status = document.getElementById("travel-status");
const container = document.getElementById("boxes");
const filter = document.getElementById("filter");
const boxes = new Boxes(container, filter, document.getElementById("stage"), null,
  document.getElementById("box-count"));
let built = false;
let asked = null;
let busy = false;

/** A colour for a Q-value: red for negative, blue for positive, white for 0. */
function heat(v) {
  const a = Math.min(1, Math.abs(v));
  const [r, g, b] = v < 0 ? [192, 57, 43] : [31, 95, 191];
  const mix = (c) => Math.round(255 + (c - 255) * a);
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

function heatMaps(table) {
  container.innerHTML = "";
  const grid = document.createElement("div");
  grid.className = "box-grid";
  for (const p of table.positions) {
    const figure = document.createElement("figure");
    figure.className = "box heat";
    figure.dataset.position = p.key;
    figure.innerHTML = `${p.svg}<figcaption><code>${p.key}</code></figcaption>`;
    for (const [move, value] of Object.entries(p.values)) {
      const shape = figure.querySelector(`[data-move="${CSS.escape(move)}"]`);
      if (!shape) continue;
      shape.setAttribute("fill", heat(value));
      shape.dataset.q = String(value);
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = `Q(${move}) = ${value.toFixed(3)}`;
      shape.appendChild(title);
    }
    grid.appendChild(figure);
  }
  container.appendChild(grid);
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
      } else {
        container.textContent = "No picture of this learner's table.";
      }
      const what = table.kind === "q" ? `${table.known} positions known; the ` +
        `${table.positions.length} earliest drawn (blue: a good move, red: a bad one)` :
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
