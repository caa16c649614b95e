// The play page: start a game through the API, send clicks (and arrow keys in Tron), show
// the board the server draws, the bot's moves, refusals and the result.
import { api, pageData } from "/static/common.js";

const setup = document.getElementById("setup");
const board = document.getElementById("board");
const status = document.getElementById("status");
const message = document.getElementById("message");
const moves = document.getElementById("moves");
const typed = document.getElementById("typed");
let current = null;
let busy = false;

const ARROWS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };

function show(view) {
  current = view;
  board.innerHTML = view.svg;
  moves.innerHTML = "";
  view.moves.forEach((m, i) => {
    const item = document.createElement("li");
    item.textContent = `${view.movers[i] === view.seat ? "you" : "bot"}: ${m}`;
    moves.appendChild(item);
  });
  status.classList.toggle("over", view.over);
  if (view.over) status.textContent = `Game over: ${view.result}`;
  else if (view.your_turn) {
    const bot = view.bot_moves.length ? `${view.opponent} played ${view.bot_moves.join(", ")}. ` : "";
    status.textContent = `${bot}Your move.`;
  } else status.textContent = "The bot is thinking…";
  board.dataset.over = String(view.over);
}

async function start() {
  const f = setup.elements;
  message.textContent = "";
  status.textContent = "Starting…";
  try {
    show(await api("POST", "/api/play", {
      game: f.game.value.trim(),
      opponent: f.opponent.value.trim(),
      seat: Number(f.seat.value),
      seed: Number(f.seed.value || 0),
    }));
    document.getElementById("game-name").textContent = current.game;
    const path = `/play/${encodeURI(current.game)}`;
    if (window.location.pathname !== path) history.replaceState(null, "", path);
    board.focus();
  } catch (err) {
    status.textContent = "No game.";
    message.textContent = err.message;
  }
}

async function send(text) {
  if (!current || busy) return;
  busy = true;
  message.textContent = "";
  status.textContent = "The bot is thinking…";
  try {
    show(await api("POST", `/api/play/${current.id}/move`, { move: text }));
  } catch (err) {
    message.textContent = err.message;
    show(current);
  } finally {
    busy = false;
  }
}

function offers(move) {
  return [...board.querySelectorAll("[data-move]")].some((e) => e.dataset.move === move);
}

board.addEventListener("click", (event) => {
  const target = event.target.closest("[data-move], [data-illegal]");
  if (!target) return;
  send(target.dataset.move ?? target.dataset.illegal);
});
document.addEventListener("keydown", (event) => {
  // the arrows steer where the board offers their moves (Tron's U, D, L, R), in any game
  if (!current || !(event.key in ARROWS) || !offers(ARROWS[event.key])) return;
  if (event.target.closest("input, select")) return;
  event.preventDefault();
  send(ARROWS[event.key]);
});
typed.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = typed.elements.move.value;
  typed.elements.move.value = "";
  send(text);
});
setup.addEventListener("submit", (event) => {
  event.preventDefault();
  start();
});

setup.elements.game.value = pageData().game || "tictactoe";
start();
