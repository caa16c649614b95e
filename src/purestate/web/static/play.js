// The play page: start a game through the API, send clicks (and arrow keys in Tron), show
// the board the server draws, the bot's moves, refusals and the result; undo takes back the
// person's last move and the bot's answer.
import { api, fitBoard, pageData } from "/static/common.js";

const setup = document.getElementById("setup");
const board = document.getElementById("board");
const status = document.getElementById("status");
const message = document.getElementById("message");
const moves = document.getElementById("moves");
const typed = document.getElementById("typed");
const youAre = document.getElementById("you-are");
const undo = document.getElementById("undo");
let current = null;
let busy = false;

const ARROWS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };

function show(view) {
  current = view;
  board.innerHTML = view.svg;
  fitBoard(board);
  document.getElementById("board-title").textContent = view.title;
  youAre.textContent = `You are ${view.you_are}.`;
  // the seat choice names each seat as the game does ("first (X)", "second (blue)")
  [...setup.elements.seat.options].forEach((o, i) => { o.textContent = view.seat_names[i]; });
  undo.disabled = !view.can_undo;
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
  } else status.textContent = `${view.opponent} is thinking…`;
  board.dataset.over = String(view.over);
}

let starts = 0; // a start answered after a newer one began is dropped

async function start() {
  const mine = ++starts;
  const f = setup.elements;
  message.textContent = "";
  status.textContent = "Starting…";
  // the last game's board goes at once: what is shown next is the new game's
  current = null;
  board.innerHTML = "";
  youAre.textContent = "";
  document.getElementById("board-title").textContent = "";
  undo.disabled = true;
  try {
    // a bot that solves the game first says so: the start then takes seconds, not a moment
    const query = new URLSearchParams({ game: f.game.value.trim(), opponent: f.opponent.value.trim() });
    const { note } = await api("GET", `/api/solving?${query}`);
    if (mine !== starts) return;
    if (note) status.textContent = `The bot is ${note}…`;
    const view = await api("POST", "/api/play", {
      game: f.game.value.trim(),
      opponent: f.opponent.value.trim(),
      seat: Number(f.seat.value),
      seed: Number(f.seed.value || 0),
    });
    if (mine !== starts) return;
    show(view);
    document.getElementById("game-name").textContent = current.game;
    const path = `/play/${encodeURI(current.game)}`;
    if (window.location.pathname !== path) history.replaceState(null, "", path);
    board.focus({ preventScroll: true });
  } catch (err) {
    if (mine !== starts) return;
    status.textContent = "No game.";
    message.textContent = err.message;
  }
}

async function send(text) {
  if (!current || busy) return;
  busy = true;
  message.textContent = "";
  status.textContent = `${current.opponent} is thinking…`;
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
undo.addEventListener("click", async () => {
  if (!current || busy) return;
  busy = true;
  message.textContent = "";
  try {
    show(await api("POST", `/api/play/${current.id}/undo`));
  } catch (err) {
    message.textContent = err.message;
  } finally {
    busy = false;
  }
});
setup.addEventListener("submit", (event) => {
  event.preventDefault();
  start();
});

setup.elements.game.value = pageData().game || "tictactoe";
start();
