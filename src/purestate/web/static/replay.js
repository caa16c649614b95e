// The replay page: every ply's board comes from the server (the library replays the record);
// buttons, the slider and the arrow keys step through them.
import { api, pageData } from "/static/common.js";

const { run, index } = pageData();
const board = document.getElementById("board");
const slider = document.getElementById("ply");
const status = document.getElementById("status");
const moves = document.getElementById("moves");
let game = null;

function go(ply) {
  const last = game.frames.length - 1;
  const n = Math.max(0, Math.min(last, ply));
  slider.value = String(n);
  board.innerHTML = game.frames[n];
  const played = n ? `seat ${game.plies[n - 1].seat} played ${game.plies[n - 1].move}` : "start";
  const end = n === last ? ` · result: ${game.ending}` : "";
  status.textContent = `ply ${n}/${last} · ${played}${end}`;
  status.dataset.ply = String(n);
  [...moves.children].forEach((li, i) => li.classList.toggle("now", i === n - 1));
}

async function load() {
  try {
    game = await api("GET", `/api/runs/${encodeURI(run)}/games/${index}`);
  } catch (err) {
    status.textContent = err.message;
    return;
  }
  slider.max = String(game.frames.length - 1);
  game.plies.forEach((p) => {
    const li = document.createElement("li");
    li.textContent = `seat ${p.seat}: ${p.move}`;
    moves.appendChild(li);
  });
  go(0);
}

const step = (d) => () => go(Number(slider.value) + d);
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", step(-1));
document.getElementById("next").addEventListener("click", step(1));
document.getElementById("last").addEventListener("click", () => go(game.frames.length - 1));
slider.addEventListener("input", () => go(Number(slider.value)));
document.addEventListener("keydown", (event) => {
  if (!game) return;
  if (event.key === "ArrowRight") go(Number(slider.value) + 1);
  if (event.key === "ArrowLeft") go(Number(slider.value) - 1);
});
load();
