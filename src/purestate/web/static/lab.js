// The MENACE lab: start a lab through the API, then train it (server-sent events carry one
// update per batch of games), step it one game at a time, or play against it by clicking.
// When the games asked for are played the page says so and offers more (against a person too:
// the next game then begins); against a person the finished board stays until the next click.
import { api, fitBoard } from "/static/common.js";
import { Boxes } from "/static/boxes.js";

const $ = (id) => document.getElementById(id);
const setup = $("setup");
const message = $("message");
const runButton = $("run");
const boxes = new Boxes($("boxes"), $("filter"), $("stage"), $("used-only"), $("box-count"));
let lab = null;
let events = null;
let running = false;
let person = false;
let nextBoard = null; // the next game's board while the finished one is shown (person mode)

function say(text) {
  message.textContent = text;
}

function showBoard(view) {
  $("board").innerHTML = view.svg;
  fitBoard($("board"));
  $("board-title").textContent = view.title;
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
    const seat = update.last.resigned;
    const resigned = seat === null ? "" : ` (${lab.seat_names[seat]} resigned)`;
    $("last-game").textContent = `Game ${update.last.index + 1}: ${update.last.moves.join(" ")}` +
      ` · MENACE's ${update.last.result}${resigned}`;
  } else $("last-game").textContent = "";
  $("games").dataset.target = String(update.target);
  if (update.board && !nextBoard) showBoard(update.board);
  setRunning(update.running);
  showDone(update);
}

// Train, One game and Top speed are off when the lab can play no more, and the page says why
function showDone(update) {
  const reached = update.done && update.refused_at === null;
  const why = !update.done ? "" : reached
    ? `the ${update.target} games asked for are played`
    : "MENACE refuses to play: its first box is empty";
  for (const id of ["run", "step", "top"]) {
    $(id).disabled = person || update.done;
    $(id).title = why;
  }
  $("done-note").hidden = !reached;
  if (reached) {
    $("done-text").textContent = `Done: the ${update.target} games asked for are played.`;
    $("more-count").textContent = String(moreGames());
  }
}

function moreGames() {
  return Math.max(1, Number(setup.elements.games.value || 1000));
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
  // the previous lab's stream ends when this one starts: closed first, so that the browser does
  // not reconnect to a lab that is gone (a 404)
  if (events) events.close();
  events = null;
  nextBoard = null;
  $("next-game").hidden = true;
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
    person = view.opponent === "person";
    // MENACE's seat named as the game names it ("first (X)")
    [...f.seat.options].forEach((o, i) => { o.textContent = view.seat_names[i]; });
    $("person").hidden = !person;
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
$("top").addEventListener("click", async () => {
  $("speed").value = "0";
  const answer = await control({ running: true, speed: 0 });
  if (answer) setRunning(answer.running);
});
$("more").addEventListener("click", async () => {
  if (!lab) return;
  const now = Number($("games").dataset.value || 0);
  const answer = await control({ games: now + moreGames() });
  if (!answer) return;
  say("");
  // against a person the update carries the next game's board, shown at once: the click on
  // Play more was the person's move on from the finished game
  nextBoard = null;
  $("next-game").hidden = true;
  show(await api("GET", `/api/menace/${lab.id}`));
});
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
function nextGame() {
  showBoard(nextBoard);
  nextBoard = null;
  $("next-game").hidden = true;
}

$("next-game").addEventListener("click", nextGame);
$("board").addEventListener("click", async (event) => {
  if (nextBoard) {
    nextGame(); // the finished game stayed until this click: now the next one
    return;
  }
  const target = event.target.closest("[data-move], [data-illegal]");
  if (!target || !lab) return;
  say("");
  try {
    const update = await api("POST", `/api/menace/${lab.id}/move`,
      { move: target.dataset.move ?? target.dataset.illegal });
    if (update.ended) {
      // the finished board stays, with the result, until the next click
      nextBoard = update.done ? null : update.board;
      show(update);
      showBoard(update.ended);
      const reached = update.done && update.refused_at === null;
      const next = !update.done ? " Click the board (or Next game) for the next game."
        : reached ? ` All ${update.target} games asked for are played: Play ` +
          `${moreGames()} more (above) goes on.` : "";
      $("status").textContent = `Game over: ${update.ended.result}${next}`;
      $("next-game").hidden = update.done;
    } else show(update);
  } catch (err) {
    say(err.message);
  }
});
setup.addEventListener("submit", (event) => {
  event.preventDefault();
  start();
});
start();
