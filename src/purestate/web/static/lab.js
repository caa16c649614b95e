// The MENACE lab: start a lab through the API, then train it (server-sent events carry one
// update per batch of games), step it one game at a time, or play against it by clicking.
import { api } from "/static/common.js";
import { Boxes } from "/static/boxes.js";

const $ = (id) => document.getElementById(id);
const setup = $("setup");
const message = $("message");
const runButton = $("run");
const boxes = new Boxes($("boxes"), $("filter"), $("stage"), $("used-only"), $("box-count"));
let lab = null;
let events = null;
let running = false;

function say(text) {
  message.textContent = text;
}

function showBoard(view) {
  $("board").innerHTML = view.svg;
  $("status").textContent = view.over ? `Game over: ${view.result}` :
    view.your_turn ? "Your move: click a square." : "MENACE is thinking…";
}

function show(update) {
  for (const name of ["games", "wins", "draws", "losses", "incentive"]) {
    $(name).textContent = String(update[name]);
  }
  $("games").dataset.value = String(update.games);
  $("chart").innerHTML = update.chart;
  boxes.update(update.beads);
  boxes.highlight(update.drawn);
  $("refused").hidden = update.refused_at === null;
  if (update.last) {
    const resigned = update.last.resigned === null ? "" : ` (seat ${update.last.resigned} resigned)`;
    $("last-game").textContent = `Game ${update.last.index + 1}: ${update.last.moves.join(" ")}` +
      ` · MENACE's ${update.last.result}${resigned}`;
  } else $("last-game").textContent = "";
  if (update.board) showBoard(update.board);
  setRunning(update.running);
  if (update.done) {
    runButton.disabled = true;
    $("step").disabled = true;
  }
}

function setRunning(on) {
  running = on;
  runButton.textContent = on ? "‖ Pause" : "▶ Train";
}

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/menace/${lab.id}/events`);
  events.onmessage = (event) => show(JSON.parse(event.data));
}

async function start() {
  const f = setup.elements;
  say("");
  const options = {};
  for (const name of ["preset", "beads", "incentives", "symmetric_moves", "empty"]) {
    options[name] = f[name].value;
  }
  try {
    const view = await api("POST", "/api/menace", {
      game: f.game.value.trim(),
      menace: options,
      opponent: f.opponent.value.trim(),
      seat: Number(f.seat.value),
      seed: Number(f.seed.value || 0),
      games: Number(f.games.value || 1000),
    });
    lab = view;
    const person = view.opponent === "person";
    $("person").hidden = !person;
    runButton.disabled = person;
    $("step").disabled = person;
    $("speed").disabled = person;
    $("save").disabled = person;
    boxes.build(view.boxes);
    show(view.update);
    if (view.board) showBoard(view.board);
    if (!person) {
      listen();
      await control({ speed: Number($("speed").value) });
    }
    document.body.dataset.lab = view.id;
  } catch (err) {
    say(err.message);
  }
}

async function control(change) {
  if (!lab) return null;
  try {
    return await api("POST", `/api/menace/${lab.id}/control`, change);
  } catch (err) {
    say(err.message);
    return null;
  }
}

runButton.addEventListener("click", async () => {
  const answer = await control({ running: !running, speed: Number($("speed").value) });
  if (answer) setRunning(answer.running);
});
$("speed").addEventListener("change", () => control({ speed: Number($("speed").value) }));
$("step").addEventListener("click", async () => {
  if (!lab) return;
  try {
    show(await api("POST", `/api/menace/${lab.id}/step`, { games: 1 }));
  } catch (err) {
    say(err.message);
  }
});
$("save").addEventListener("click", async () => {
  if (!lab) return;
  const name = $("save-name").value.trim() || "lab-1";
  try {
    const saved = await api("POST", `/api/menace/${lab.id}/save`, { name });
    say("");
    $("last-game").innerHTML = `Saved ${saved.games} games as ` +
      `<a href="/runs/${encodeURI(saved.saved)}">${saved.saved}</a>.`;
  } catch (err) {
    say(err.message);
  }
});
$("board").addEventListener("click", async (event) => {
  const target = event.target.closest("[data-move], [data-illegal]");
  if (!target || !lab) return;
  say("");
  try {
    const update = await api("POST", `/api/menace/${lab.id}/move`,
      { move: target.dataset.move ?? target.dataset.illegal });
    show(update);
    if (update.ended) {
      const next = update.done ? "" : " A new game: your move.";
      $("status").textContent = `Last game: ${update.ended.result}${next}`;
    }
  } catch (err) {
    say(err.message);
  }
});
setup.addEventListener("submit", (event) => {
  event.preventDefault();
  start();
});
start();
