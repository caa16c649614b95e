"""The HTML pages: small shells around the library's boards; the JavaScript modules in
``static/`` do the clicking and stepping through the JSON API."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from purestate.web.charts import curve_svg


def run_href(name: str) -> str:
    """The address of a run's page (``=`` and ``,`` of a sweep's setting names kept readable)."""
    return "/runs/" + quote(name, safe="/:=,")


def page(title: str, body: str, script: str = "", data: dict[str, Any] | None = None) -> str:
    """A whole HTML page: the header with the site's links, ``body``, and a module script.

    ``data`` is handed to the script as JSON in a ``<script type="application/json">`` block
    (escaped so that no value can close the block).
    """
    blob = ""
    if data is not None:
        text = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e")
        blob = f'<script id="page-data" type="application/json">{text}</script>'
    module = f'<script type="module" src="/static/{script}"></script>' if script else ""
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · purestate</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/static/style.css"></head><body>'
        '<header><a class="brand" href="/">purestate</a>'
        '<nav><a href="/">Games</a><a href="/menace">MENACE lab</a><a href="/tron">Tron</a>'
        '<a href="/runs">Runs</a></nav></header>'
        f"<main>{body}</main>{blob}{module}</body></html>"
    )


def home(games: Mapping[str, Sequence[str]], agents: list[str], runs: int) -> str:
    """The start page: every game with links to play its examples (``games``: name ->
    ``GameSpec.examples``), the agents, the runs."""
    items = []
    for g, examples in games.items():
        links = " · ".join(
            f'<a href="/play/{quote(spec, safe=":=,")}">{escape(spec)}</a>' for spec in examples
        )
        items.append(f"<li><b>{escape(g)}</b>: play {links}</li>")
    body = (
        "<h1>Play and watch two-player games</h1>"
        "<p>Every rule, legal move and bot decision comes from the purestate library; the page "
        "draws its boards and sends your clicks.</p>"
        f'<h2>Games</h2><ul class="games">{"".join(items)}</ul>'
        '<form class="inline" id="spec-form"><label>Any game spec '
        '<input name="spec" value="dots_and_boxes:rows=3,cols=4" size="36"></label> '
        "<button>Play</button></form>"
        f'<h2>Opponents</h2><p class="agents">{escape(", ".join(agents))} '
        "(with options as text, e.g. <code>mcts:simulations=500</code>), or a table saved in "
        "the runs folder.</p>"
        f'<h2>Runs</h2><p><a href="/runs">{runs} run folder(s)</a> in the runs folder.</p>'
    )
    return page("purestate", body, "home.js")


def play(spec: str, opponents: list[str]) -> str:
    """The play page for a game spec: the controls, the board, the status and the moves."""
    options = "".join(f'<option value="{escape(o)}">' for o in opponents)
    body = (
        f'<h1>Play <span id="game-name">{escape(spec)}</span></h1>'
        '<form id="setup" class="controls">'
        f'<label>Game <input name="game" value="{escape(spec)}" size="30"></label>'
        '<label>Opponent <input name="opponent" list="opponents" size="30" '
        'placeholder="the game\'s default"></label>'
        f'<datalist id="opponents">{options}</datalist>'
        '<label>Your seat <select name="seat"><option value="0">first</option>'
        '<option value="1">second</option></select></label>'
        '<label>Seed <input name="seed" type="number" value="0" min="0" size="6"></label>'
        '<button id="new-game">New game</button></form>'
        '<div class="play"><div id="board" class="board-box" tabindex="0"></div>'
        '<aside><p id="status" role="status">Loading…</p>'
        '<p id="message" class="message" role="alert"></p>'
        '<form id="typed" class="inline"><label>Type a move <input name="move" size="10">'
        "</label> <button>Play</button></form>"
        '<h3>Moves</h3><ol id="moves"></ol></aside></div>'
    )
    return page(f"play {spec}", body, "play.js", {"game": spec})


def games_shown(run: dict[str, Any]) -> str:
    """A listed run's number of games: ``N+`` when the listing stopped counting (a huge log)."""
    return f"{run['games']}{'' if run.get('counted', True) else '+'}"


def runs_list(runs: list[dict[str, Any]]) -> str:
    """The runs folder's runs: name, kind, number of games."""
    rows = "".join(
        f'<tr><td><a href="{run_href(r["name"])}">{escape(r["name"])}</a></td>'
        f"<td>{escape(r['kind'])}</td><td>{games_shown(r)}</td></tr>"
        for r in runs
    )
    table = (
        f'<table class="runs"><thead><tr><th>Run</th><th>Kind</th><th>Games</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        if runs
        else '<p class="muted">No runs yet: write one with e.g. <code>purestate selfplay '
        "--out RUNS/first</code> or <code>purestate tournament ... --out RUNS/t</code>.</p>"
    )
    return page("runs", f"<h1>Runs</h1>{table}")


def _value(v: Any) -> str:
    if isinstance(v, (dict, list)):
        return f"<code>{escape(json.dumps(v))[:400]}</code>"
    return escape(str(v))


def run_page(view: dict[str, Any], travel: bool = False) -> str:
    """A run: its summary files as tables, its learning curve, its games and, for a training
    run (``travel``), a slider over the game index showing the learned table after k games."""
    name = view["name"]
    parts = [f"<h1>Run {escape(name)} <small>({escape(view['kind'])})</small></h1>"]
    if view["games"]:
        spec = view["games"][0]["game"]
        parts.append(
            f'<p><a href="{run_href(name)}/games/0?play=1">Watch game 0 animated</a> · '
            f'<a href="/play/{quote(spec, safe=":=,")}">play this game against a bot</a></p>'
        )
    parts.append("<h2>Learning curve</h2>")
    parts.append(curve_svg(view["curve"], view["blocks"], view["block"]))
    count = len(view["games"])
    if travel:
        parts.append(
            '<h2>Time travel</h2><div class="travel">'
            f'<label>The learned table after <b id="k-label">{count}</b> of {count} games<br>'
            f'<input id="k" type="range" min="0" max="{count}" value="{count}" '
            'aria-label="games"></label>'
            '<p id="travel-status" class="muted">Loading…</p>'
            '<div class="controls"><label>Find a position <input id="filter" size="14">'
            '</label><label>Stage <select id="stage"><option value="">all</option></select>'
            '</label><small id="box-count"></small></div>'
            '<div id="boxes"></div></div>'
        )
    tables = []
    for file, data in view["summaries"].items():
        rows = ""
        if isinstance(data, dict):
            rows = "".join(
                f"<tr><th>{escape(str(k))}</th><td>{_value(v)}</td></tr>"
                for k, v in data.items()
                if k != "format"
            )
        tables.append(
            f'<section><h2>{escape(file)}</h2><table class="summary">{rows}</table></section>'
        )
    parts.append(f'<div class="summaries">{"".join(tables)}</div>')
    if view["runs"]:
        links = "".join(
            f'<li><a href="{run_href(r["name"])}">{escape(r["name"])}</a> '
            f"({escape(r['kind'])}, {games_shown(r)} games)</li>"
            for r in view["runs"]
        )
        parts.append(f'<h2>Runs inside ({len(view["runs"])})</h2><ul class="runs">{links}</ul>')
    games = view["games"]
    parts.append(f"<h2>Games ({len(games)})</h2>")
    rows = "".join(
        f'<tr><td><a href="{run_href(name)}/games/{g["index"]}">{g["index"]}</a></td>'
        f"<td>{escape(' vs '.join(g['players']))}</td><td>{escape(g['result'])} "
        f"(seat {g['seat']})</td><td>{g['plies']}</td></tr>"
        for g in games[:2000]
    )
    more = f"<p>… and {len(games) - 2000} more.</p>" if len(games) > 2000 else ""
    parts.append(
        '<div class="scroll"><table class="games-table"><thead><tr><th>#</th><th>Players</th>'
        f"<th>Result</th><th>Plies</th></tr></thead><tbody>{rows}</tbody></table></div>{more}"
    )
    if travel:
        return page(f"run {name}", "".join(parts), "travel.js", {"run": name, "games": len(games)})
    return page(f"run {name}", "".join(parts))


def replay_page(run: str, index: int) -> str:
    """A recorded game, stepped with buttons, a slider or the arrow keys."""
    body = (
        f'<h1><a href="{run_href(run)}">{escape(run)}</a> · game {index}</h1>'
        '<div class="play"><div id="board" class="board-box"></div><aside>'
        '<div class="controls"><button id="first" title="first">|◀</button>'
        '<button id="back" title="back">◀</button><button id="next" title="next">▶</button>'
        '<button id="last" title="last">▶|</button>'
        '<button id="play" title="play the game as an animation">▶ Play</button>'
        '<label>Speed <select id="pace"><option value="600">slow</option>'
        '<option value="200" selected>normal</option><option value="60">fast</option>'
        "</select></label></div>"
        '<input id="ply" type="range" min="0" max="0" value="0" aria-label="ply">'
        '<p id="status" role="status">Loading…</p><ol id="moves"></ol></aside></div>'
    )
    return page(f"{run} game {index}", body, "replay.js", {"run": run, "index": index})


def menace_lab(max_games: int) -> str:
    """The MENACE lab: MENACE's options, the opponent, the pace, the counters, the learning
    curve, the board against a person, and every matchbox with its beads."""
    opponents = ("person", "random", "rules:p=0.7", "perfect", "self", "menace:preset=scroggs")
    options = "".join(f'<option value="{escape(o)}">' for o in opponents)

    def choice(name: str, label: str, values: tuple[str, ...]) -> str:
        items = "".join(f'<option value="{v}">{v or "as the preset"}</option>' for v in values)
        return f'<label>{label} <select name="{name}">{items}</select></label>'

    speeds = "".join(
        f'<option value="{v}"{" selected" if v == 0 else ""}>{t}</option>'
        for v, t in ((1, "1 game/s"), (2, "2 games/s"), (5, "5 games/s"), (20, "20 games/s"),
                     (100, "100 games/s"), (0, "top speed"))
    )  # fmt: skip
    body = (
        "<h1>MENACE lab</h1>"
        '<p class="muted">Michie\'s matchbox machine learning noughts and crosses, box by box. '
        "Every bead drawn and every game played is the purestate library's: a lab with seed "
        "<i>s</i> plays the games of <code>purestate selfplay --seed s</code>.</p>"
        '<form id="setup" class="controls">'
        '<label>Game <input name="game" value="tictactoe" size="14"></label>'
        + choice("preset", "Preset", ("michie", "scroggs"))
        + '<label>Starting beads per stage <input name="beads" size="9" placeholder="4/3/2/1">'
        "</label>"
        '<label>Incentives W/D/L <input name="incentives" size="7" placeholder="3/1/-1"></label>'
        + choice("symmetric_moves", "Symmetric moves", ("", "dedupe", "all"))
        + choice("empty", "Empty box", ("", "resign", "refill", "floor"))
        + '<label>MENACE plays <select name="seat"><option value="0">first</option>'
        '<option value="1">second</option></select></label>'
        '<label>Opponent <input name="opponent" list="lab-opponents" value="rules:p=0.7" '
        'size="16"></label>'
        f'<datalist id="lab-opponents">{options}</datalist>'
        '<label>Seed <input name="seed" type="number" value="0" min="0" size="6"></label>'
        f'<label>Games <input name="games" type="number" value="1000" min="1" max="{max_games}" '
        'size="7"></label>'
        '<button id="new-lab">New lab</button></form>'
        '<div class="controls" id="run-controls">'
        '<button id="run" type="button">▶ Train</button>'
        '<button id="step" type="button">One game</button>'
        f'<label>Speed <select id="speed">{speeds}</select></label>'
        '<label>Save as run <input id="save-name" size="16" placeholder="lab-1"></label>'
        '<button id="save" type="button">Save</button></div>'
        '<p id="message" class="message" role="alert"></p>'
        '<div class="lab-top"><div>'
        '<p class="counters" role="status">Games <b id="games">0</b> · '
        '<span class="w">W <b id="wins">0</b></span> · <span class="d">D <b id="draws">0</b>'
        '</span> · <span class="l">L <b id="losses">0</b></span> · 3W + D − L '
        '<b id="incentive">0</b></p>'
        '<p id="refused" class="refused" hidden>MENACE refuses to play: its first box is '
        "empty.</p>"
        '<p id="last-game" class="muted"></p>'
        '<div id="chart"></div></div>'
        '<div id="person" hidden><p id="status" role="status"></p>'
        '<div id="board" class="board-box"></div></div></div>'
        '<h2>Matchboxes <small id="box-count"></small></h2>'
        '<div class="controls"><label>Find a box <input id="filter" size="14" '
        'placeholder="position, e.g. X...O"></label>'
        '<label>Stage <select id="stage"><option value="">all</option></select></label>'
        '<label><span>Only the boxes of the last game</span><input id="used-only" '
        'type="checkbox"></label></div>'
        '<div id="boxes"></div>'
    )
    return page("MENACE lab", body, "lab.js")


def tron_page(runs: list[dict[str, Any]], maps: Sequence[tuple[str, str]]) -> str:
    """Tron: the recorded matches of the runs folder to watch, and the maps (drawn by the
    library at their start) to play against a bot."""
    cards = "".join(
        f'<figure class="map"><a href="/play/tron:map={quote(name)}" title="play {escape(name)}">'
        f"{picture}</a><figcaption>{escape(name)}</figcaption></figure>"
        for name, picture in maps
    )
    rows = []
    for r in runs:
        watch = " ".join(
            f'<a class="watch" href="{run_href(r["name"])}/games/{i}?play=1">{i}</a>'
            for i in range(min(r["games"], MAX_WATCH))
        )
        more = " …" if r["games"] > MAX_WATCH else ""
        rows.append(
            f'<li><a href="{run_href(r["name"])}">{escape(r["name"])}</a> '
            f"({games_shown(r)} games): watch game {watch}{more}</li>"
        )
    matches = (
        f'<ul class="runs">{"".join(rows)}</ul>'
        if runs
        else '<p class="muted">No Tron matches recorded yet: write some with <code>purestate '
        "tron run --out RUNS/tron</code>.</p>"
    )
    body = (
        "<h1>Tron</h1><h2>Watch a recorded match</h2>"
        "<p>Each game of a Tron run is replayed by the library and animated (pause it, step it "
        "with the arrow keys, or jump with the slider).</p>"
        f"{matches}<h2>Play a map against a bot</h2>"
        "<p>Pick a map; steer with the arrow keys or click a cell next to your head.</p>"
        f'<div class="maps">{cards}</div>'
    )
    return page("Tron", body)


MAX_WATCH = 10
"""Games of a Tron run linked from the Tron page (the run's page links them all)."""
