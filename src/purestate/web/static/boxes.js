// MENACE's matchboxes on a page (the lab and a run's time travel): each box is the position the
// server drew, with its bead counts written as text on the squares of the moves they stand for.
// Boxes are grouped by stage and filtered by position text, stage, or the last game's boxes.

const SVG = "http://www.w3.org/2000/svg";

/** The centre and size of a move's clickable shape in a board picture. */
export function place(shape) {
  const n = (a) => Number(shape.getAttribute(a));
  if (shape.tagName === "rect") {
    // a thin strip over a line (dots and boxes) gets text by its length, a square by its side
    const [w, h] = [n("width"), n("height")];
    return { x: n("x") + w / 2, y: n("y") + h / 2,
             size: Math.max(Math.min(w, h), 0.6 * Math.max(w, h)) };
  }
  const box = shape.getBBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2,
           size: Math.min(box.width, box.height) };
}

/** Write ``beads`` ({move: count}) on a box's picture: one text per move, made once. */
function writeBeads(figure, beads) {
  const svg = figure.querySelector("svg");
  for (const [move, count] of Object.entries(beads)) {
    let text = figure.beadText.get(move);
    if (!text) {
      const shape = svg.querySelector(`[data-move="${CSS.escape(move)}"]`);
      if (!shape) continue;
      const at = place(shape);
      text = document.createElementNS(SVG, "text");
      text.setAttribute("x", at.x);
      text.setAttribute("y", at.y);
      text.setAttribute("font-size", Math.max(10, Math.min(36, at.size * 0.5)));
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("dominant-baseline", "central");
      text.setAttribute("class", "bead");
      text.dataset.bead = move;
      svg.appendChild(text);
      figure.beadText.set(move, text);
    }
    text.textContent = String(count);
    text.classList.toggle("none", count === 0);
  }
  const total = [...figure.beadText.values()].reduce((a, t) => a + Number(t.textContent), 0);
  figure.querySelector(".total").textContent = `${total} bead${total === 1 ? "" : "s"}`;
  figure.classList.toggle("empty", total === 0);
}

/** A set of boxes in ``container``: build once with ``boxes`` ({key, stage, svg, beads}). */
export class Boxes {
  constructor(container, filter, stage, usedOnly, count) {
    this.container = container;
    this.filter = filter;
    this.stage = stage;
    this.usedOnly = usedOnly;
    this.count = count;
    this.byKey = new Map();
    for (const el of [filter, stage, usedOnly]) {
      if (el) el.addEventListener("input", () => this.apply());
    }
  }

  build(boxes) {
    this.container.innerHTML = "";
    this.byKey.clear();
    const stages = new Map();
    for (const box of boxes) {
      if (!stages.has(box.stage)) {
        const section = document.createElement("section");
        section.className = "stage";
        section.dataset.stage = String(box.stage);
        section.innerHTML = `<h3>Stage ${box.stage ?? "?"}: MENACE's move ${box.stage ?? "?"}` +
          ` <small></small></h3><div class="box-grid"></div>`;
        this.container.appendChild(section);
        stages.set(box.stage, section);
      }
      const figure = document.createElement("figure");
      figure.className = "box";
      figure.dataset.box = box.key;
      figure.dataset.stage = String(box.stage);
      figure.innerHTML = `${box.svg}<figcaption><code>${box.key}</code> ` +
        `<span class="total"></span></figcaption>`;
      figure.beadText = new Map();
      stages.get(box.stage).querySelector(".box-grid").appendChild(figure);
      this.byKey.set(box.key, figure);
      writeBeads(figure, box.beads);
    }
    if (this.stage) {
      const keep = this.stage.value;
      this.stage.innerHTML = '<option value="">all</option>' + [...stages.keys()]
        .map((s) => `<option value="${s}">${s}</option>`).join("");
      this.stage.value = [...stages.keys()].map(String).includes(keep) ? keep : "";
    }
    this.apply();
  }

  /** New bead counts for some boxes: {key: {move: count}}. */
  update(beads) {
    for (const [key, counts] of Object.entries(beads)) {
      const figure = this.byKey.get(key);
      if (figure) writeBeads(figure, counts);
    }
  }

  /** Highlight the boxes and beads of a game: [[key, move], ...]. */
  highlight(drawn) {
    for (const el of this.container.querySelectorAll(".box.used, text.bead.drawn")) {
      el.classList.remove("used", "drawn");
    }
    for (const [key, move] of drawn) {
      const figure = this.byKey.get(key);
      if (!figure) continue;
      figure.classList.add("used");
      const text = figure.beadText.get(move);
      if (text) text.classList.add("drawn");
    }
    if (this.usedOnly && this.usedOnly.checked) this.apply();
  }

  apply() {
    const text = (this.filter ? this.filter.value : "").trim().toUpperCase();
    const stage = this.stage ? this.stage.value : "";
    const usedOnly = this.usedOnly ? this.usedOnly.checked : false;
    let shown = 0;
    for (const section of this.container.querySelectorAll("section.stage")) {
      let inSection = 0;
      for (const figure of section.querySelectorAll(".box")) {
        const ok = (!text || figure.dataset.box.toUpperCase().includes(text)) &&
          (!stage || figure.dataset.stage === stage) &&
          (!usedOnly || figure.classList.contains("used"));
        figure.hidden = !ok;
        inSection += ok;
      }
      section.hidden = inSection === 0;
      section.querySelector("h3 small").textContent = `${inSection} box${inSection === 1 ? "" : "es"}`;
      shown += inSection;
    }
    if (this.count) this.count.textContent = `(${shown} of ${this.byKey.size} shown)`;
  }
}
