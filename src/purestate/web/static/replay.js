// The replay page: every ply's board comes from the server (the library replays the record);
// buttons, the slider and the arrow keys step through them; ▶ Play animates the game (a Tron
// match, say), and ``?play=1`` in the address starts the animation on load.
import { api, pageData } from "/static/common.js";

const { run, index } = pageData();
const board = document.getElementById("board");
const slider = document.getElementById("ply");
const status = document.getElementById("status");
const moves = document.getElementById("moves");
let game = null;
let timer = null;
const playButton = document.getElementById("play");

function stop() {
  clearTimeout(timer);
  timer = null;
  playButton.textContent = "▶ Play";
}

function tick() {
  const n = Number(slider.value);
  if (n >= game.frames.length - 1) {
    stop();
    return;
  }
  go(n + 1);
  timer = setTimeout(tick, Number(document.getElementById("pace").value));
}

function play() {
  if (!game) return;
  if (timer !== null) {
    stop();
    return;
  }
  if (Number(slider.value) >= game.frames.length - 1) go(0);
  playButton.textContent = "‖ Pause";
  timer = setTimeout(tick, Number(document.getElementById("pace").value));
}

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
  // the whole game is listed (one column, scrolled): keep the ply shown in view
  const now = moves.children[n - 1];
  if (now) {
    const top = now.offsetTop - moves.offsetTop;
    if (top < moves.scrollTop || top + now.offsetHeight > moves.scrollTop + moves.clientHeight) {
      moves.scrollTop = top - moves.clientHeight / 2;
    }
  }
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
  if (new URLSearchParams(window.location.search).get("play") === "1") play();
}

const step = (d) => () => go(Number(slider.value) + d);
playButton.addEventListener("click", play);
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
