"""The HTML pages: small shells around the library's boards; the JavaScript modules in
``static/`` do the clicking and stepping through the JSON API."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from purestate.web.charts import (
    cumulative_svg,
    learning_svg,
    optimal_svg,
    references_svg,
    sweep_svg,
)


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
        '<div class="play"><div class="board-column"><p id="board-title" class="board-title"></p>'
        '<div id="board" class="board-box" tabindex="0"></div></div>'
        '<aside><p id="you-are" class="you-are"></p><p id="status" role="status">Loading…</p>'
        '<p id="message" class="message" role="alert"></p>'
        '<form id="typed" class="inline"><label>Type a move <input name="move" size="10">'
        "</label> <button>Play</button> "
        '<button id="undo" type="button" title="take back your last move and the bot\'s answer"'
        " disabled>↶ Undo</button></form>"
        '<h3>Moves</h3><ol id="moves"></ol></aside></div>'
    )
    return page(f"play {spec}", body, "play.js", {"game": spec})


def games_shown(run: dict[str, Any]) -> str:
    """A listed run's number of games: ``N+`` when the listing stopped counting (a huge log)."""
    return f"{run['games']}{'' if run.get('counted', True) else '+'}"


def runs_list(runs: list[dict[str, Any]]) -> str:
    """The runs folder's runs: name, kind, number of games; the runs inside another run (a
    sweep's, one per setting and seed) are counted on its row and listed on its page."""
    names = [r["name"] for r in runs]
    inner: dict[str, int] = {}
    top = []
    for r in runs:
        parent = next((n for n in names if r["name"].startswith(n + "/")), None)
        if parent is None:
            top.append(r)
        else:
            inner[parent] = inner.get(parent, 0) + 1
    rows = "".join(
        f'<tr><td><a href="{run_href(r["name"])}">{escape(r["name"])}</a></td>'
        f"<td>{escape(r['kind'])}</td><td>{games_shown(r)}"
        + (f" <small>({inner[r['name']]} runs inside)</small>" if r["name"] in inner else "")
        + "</td></tr>"
        for r in top
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


def _pct(rate: float) -> str:
    return f"{rate:.1%}"


def _band(low: float, high: float) -> str:
    """A rate's 95% interval, in percent."""
    return f'<small class="muted">{low:.0%}–{high:.0%}</small>'


def _score_band(low: float, high: float) -> str:
    """A score's 95% interval, as the score is written (0 to 1)."""
    return f'<small class="muted">{low:.2f}–{high:.2f}</small>'


def _elo(r: dict[str, Any]) -> str:
    """A rating's Elo with its 95% interval, or the note that replaces a meaningless interval."""
    elo = r.get("elo")
    head = f"{elo:+.0f}" if isinstance(elo, (int, float)) else "?"
    note = r.get("interval_note")
    if isinstance(note, str):
        return f'{head}</td><td class="note">{escape(note)}'
    low, high = r.get("elo_low"), r.get("elo_high")
    if isinstance(low, (int, float)) and isinstance(high, (int, float)):
        return f"{head}</td><td>{low:+.0f} .. {high:+.0f}"
    return f"{head}</td><td>"


def _standings(st: dict[str, Any] | None) -> str:
    """A tournament's standings and pair matrix as tables."""
    if st is None:
        return '<p class="muted">standings.json holds no standings.</p>'
    rows = "".join(
        f"<tr><td>{n}</td><td>{escape(str(r.get('agent')))}</td><td>{_elo(r)}</td>"
        f"<td>{r.get('wins')}</td><td>{r.get('draws')}</td><td>{r.get('losses')}</td>"
        f"<td>{_value(r.get('score'))}</td></tr>"
        for n, r in enumerate(st["ratings"], 1)
    )
    head = (
        f"<p>{escape(str(st['game']))}, {st['games_per_pair']} games per pair, seed {st['seed']}."
        "</p>"
    )
    ratings = (
        '<table class="standings"><thead><tr><th>#</th><th>Agent</th><th>Elo</th>'
        "<th>95% interval</th><th>W</th><th>D</th><th>L</th><th>Score</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    agents = st["agents"]
    cols = "".join(f"<th>{escape(a)}</th>" for a in agents)
    body = []
    for a, cells in zip(agents, st["matrix"], strict=True):
        tds = []
        for b, c in zip(agents, cells, strict=True):
            if a == b or c is None:
                tds.append('<td class="none">—</td>')
                continue
            tds.append(
                f'<td title="{escape(a)} against {escape(b)}"><b>{c["score"]:.2f}</b> '
                f"{_score_band(c['low'], c['high'])}<br><small>{c['wins']}–{c['draws']}–"
                f"{c['losses']}</small></td>"
            )
        body.append(f"<tr><th>{escape(a)}</th>{''.join(tds)}</tr>")
    matrix = (
        '<h2>Pairs</h2><p class="muted">The row agent\'s score against the column agent '
        "(win 1, draw ½), its Wilson 95% interval, and its wins–draws–losses.</p>"
        f'<table class="matrix"><thead><tr><th></th>{cols}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    return f"<h2>Standings</h2>{head}{ratings}{matrix}"


def _results(results: dict[str, Any]) -> str:
    """A run of bot matches: results by game (map, start, first player) and players."""
    rows = "".join(
        f"<tr><td><code>{escape(r['game'])}</code></td>"
        f"<td>{escape(r['players'][0])} vs {escape(r['players'][1])}</td><td>{r['games']}</td>"
        f'<td title="{_pct(r["win_rate"]["rate"])} wins, {_pct(r["draw_rate"]["rate"])} draws, '
        f'{_pct(r["loss_rate"]["rate"])} losses">{r["wins"]}–{r["draws"]}–{r["losses"]}</td>'
        f"<td>{r['score']:.2f} {_score_band(r['score_low'], r['score_high'])}</td></tr>"
        for r in results["rows"] + results["totals"]
    )
    more = f"<p>… and {results['more']} more groups.</p>" if results["more"] else ""
    return (
        "<h2>Results by game and players</h2>"
        '<p class="muted">Per game (its spec names the map, the start and who moves first, less '
        "what is drawn afresh each game) and players in the records' order: the first named "
        "player's wins–draws–losses and score (win 1, draw ½) with its Wilson 95% interval.</p>"
        '<table class="results"><thead><tr><th>Game</th><th>Players</th><th>Games</th>'
        "<th>W–D–L</th><th>Score</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{more}"
    )


def _run_links(runs: list[dict[str, Any]], short: str = "") -> str:
    """Links to runs, named by what follows ``short`` in their names."""
    return " ".join(
        f'<a href="{run_href(r["name"])}" title="{games_shown(r)} games">'
        f"{escape(r['name'].removeprefix(short))}</a>"
        for r in runs
    )


def _sweep(name: str, settings: list[dict[str, Any]], summaries: dict[str, Any]) -> str:
    """A sweep: its mean curves with bands, and one row per setting linking to its seeds."""
    aggregate = [s["aggregate"] for s in settings if s["aggregate"] is not None]
    rows = []
    for s in settings:
        a = s["aggregate"]
        prefix = s["runs"][0]["name"].rsplit("/", 1)[0] + "/" if s["runs"] else ""
        if a is None:
            totals = '<td colspan="4" class="muted">not in aggregate.json</td>'
        else:
            t = a.get("total", {})
            totals = f"<td>{len(a.get('seeds', []))}</td>" + "".join(
                f"<td>{t[k]['mean']:.1%} {_band(t[k]['low'], t[k]['high'])}</td>"
                if isinstance(t.get(k), dict)
                else "<td></td>"
                for k in ("wins", "draws", "losses")
            )
        rows.append(
            f"<tr><td><code>{escape(s['agent'])}</code></td>{totals}"
            f'<td class="seeds">{_run_links(s["runs"], prefix)}</td></tr>'
        )
    sweep = summaries.get("sweep.json")
    about = ""
    if isinstance(sweep, dict):
        about = (
            f"<p>{escape(str(sweep.get('game')))} against {escape(str(sweep.get('opponent')))}, "
            f"{sweep.get('games')} games a run, the learner {escape(str(sweep.get('seat')))}, "
            f"blocks of {sweep.get('block')} games.</p>"
        )
    return (
        f"<h2>Mean curves</h2>{about}{sweep_svg(aggregate)}"
        '<p class="muted">Each line is a setting\'s mean rate per block over its seeds; the band '
        "is its 95% confidence band (Student t across seeds), as in <code>curves.png</code>.</p>"
        "<h2>Settings</h2>"
        '<table class="settings"><thead><tr><th>Setting</th><th>Seeds</th><th>Wins</th>'
        "<th>Draws</th><th>Losses</th><th>Runs (one per seed)</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _pager(name: str, view: dict[str, Any]) -> str:
    """Links to the previous and next pages of a run's games."""
    page, pages = view["page"], view["pages"]
    if pages <= 1:
        return ""
    first = page * view["per_page"]
    shown = f"games {first}–{first + len(view['games']) - 1} of {view['total']:,}"
    prev = (
        f'<a rel="prev" href="{run_href(name)}?page={page - 1}#games">← previous</a>'
        if page
        else '<span class="muted">← previous</span>'
    )
    nxt = (
        f'<a rel="next" href="{run_href(name)}?page={page + 1}#games">next →</a>'
        if page + 1 < pages
        else '<span class="muted">next →</span>'
    )
    return f'<p class="pager">{prev} · page {page + 1} of {pages} ({shown}) · {nxt}</p>'


def _summary_tables(summaries: dict[str, Any], skip: tuple[str, ...]) -> str:
    """The run's summary files as key/value tables (the long lists a page shows otherwise left
    out)."""
    tables = []
    for file, data in summaries.items():
        if file in skip:
            continue
        rows = ""
        if isinstance(data, dict):
            rows = "".join(
                f"<tr><th>{escape(str(k))}</th><td>{_value(v)}</td></tr>"
                for k, v in data.items()
                if k not in ("format", "blocks")
            )
        tables.append(
            f'<section><h2>{escape(file)}</h2><table class="summary">{rows}</table></section>'
        )
    return f'<div class="summaries">{"".join(tables)}</div>' if tables else ""


def run_page(view: dict[str, Any], travel: bool = False) -> str:
    """A run, as its kind shows it: a training run's learning curve (W/D/L per block with Wilson
    bands and the cumulative 3W + D - L) and, with ``travel``, a slider over the game index
    showing the learned table after k games; a tournament's standings and pair matrix; a sweep's
    mean curves and settings; a run of bot matches' results by game and players. Then its
    summary files and one page of its games."""
    name, kind = view["name"], view["kind"]
    total = view["total"]
    parts = [f"<h1>Run {escape(name)} <small>({escape(kind)})</small></h1>"]
    if view["games"]:
        spec = view["games"][0]["game"]
        parts.append(
            f'<p><a href="{run_href(name)}/games/0?play=1">Watch game 0 animated</a> · '
            f'<a href="/play/{quote(spec, safe=":=,")}">play this game against a bot</a></p>'
        )
    skip: tuple[str, ...] = ()
    if "learner" in view:
        who = view["learner"]
        parts.append(
            f"<p>Learner <code>{escape(who['agent'])}</code> ({escape(who['seat'])} player) "
            f"against <code>{escape(who['opponent'])}</code> on <code>{escape(who['game'])}"
            f"</code>, seed {who['seed']}.</p>"
            "<h2>Learning curve</h2>"
            + learning_svg(view["blocks"], view["block"], total)
            + (
                optimal_svg(view["optimal"]["points"], view["optimal"]["block"], total)
                if view.get("optimal")
                else ""
            )
            + cumulative_svg(view["curve"])
        )
        if view.get("references"):
            parts.append(
                "<h2>Against fixed references</h2>"
                "<p>The learner's greedy play against agents that do not learn, at the start, "
                "at each checkpoint and at the end (<code>references.json</code>).</p>"
                + references_svg(view["references"])
            )
    if travel:
        parts.append(
            '<h2>Time travel</h2><div class="travel">'
            f'<label>The learned table after <b id="k-label">{total}</b> of {total} games<br>'
            f'<input id="k" type="range" min="0" max="{total}" value="{total}" '
            'aria-label="games"></label>'
            f'<p id="travel-status" class="muted">Reading the learner\'s table after {total:,} '
            "games (replaying them at the first look; the server remembers it)…</p>"
            '<div class="controls"><label>Find a position <input id="filter" size="14">'
            '</label><label>Stage <select id="stage"><option value="">all</option></select>'
            '</label><small id="box-count"></small></div>'
            '<div id="boxes"></div></div>'
        )
    if "standings" in view:
        parts.append(_standings(view["standings"]))
        skip = ("standings.json",)
    if "settings" in view:
        parts.append(_sweep(name, view["settings"], view["summaries"]))
        skip = ("aggregate.json",)
    if "results" in view:
        parts.append(_results(view["results"]))
    parts.append(_summary_tables(view["summaries"], skip))
    if view["runs"] and "settings" not in view:
        links = "".join(
            f'<li><a href="{run_href(r["name"])}">{escape(r["name"])}</a> '
            f"({escape(r['kind'])}, {games_shown(r)} games)</li>"
            for r in view["runs"]
        )
        parts.append(f'<h2>Runs inside ({len(view["runs"])})</h2><ul class="runs">{links}</ul>')
    if total:
        rows = "".join(
            f'<tr><td><a href="{run_href(name)}/games/{g["index"]}">{g["index"]}</a></td>'
            f"<td>{escape(' vs '.join(g['players']))}</td><td>{escape(g['result'])} "
            f"as {escape(g['seat_name'])}</td><td>{g['plies']}</td></tr>"
            for g in view["games"]
        )
        pager = _pager(name, view)
        parts.append(
            f'<h2 id="games">Games ({total:,})</h2>{pager}'
            '<table class="games-table"><thead><tr><th>#</th><th>Players</th>'
            f"<th>Result</th><th>Plies</th></tr></thead><tbody>{rows}</tbody></table>{pager}"
        )
    if travel:
        return page(f"run {name}", "".join(parts), "travel.js", {"run": name, "games": total})
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
        '<p id="status" role="status">Loading…</p><ol id="moves" class="replay-moves"></ol>'
        "</aside></div>"
    )
    return page(f"{run} game {index}", body, "replay.js", {"run": run, "index": index})


DEFAULT_SPEED = 20
"""The lab's pace when a page opens, in games per second: one a person can watch."""


def menace_lab(max_games: int) -> str:
    """The MENACE lab: MENACE's options, the opponent, the pace, the counters, the learning
    curve, the board against a person, and every matchbox with its beads."""
    opponents = ("person", "random", "rules:p=0.7", "perfect", "self", "menace:preset=scroggs")
    options = "".join(f'<option value="{escape(o)}">' for o in opponents)

    def choice(name: str, label: str, values: tuple[str, ...]) -> str:
        items = "".join(f'<option value="{v}">{v or "as the preset"}</option>' for v in values)
        return f'<label>{label} <select name="{name}">{items}</select></label>'

    # the default pace is one a person can watch; top speed is one click away (its button)
    speeds = "".join(
        f'<option value="{v}"{" selected" if v == DEFAULT_SPEED else ""}>{t}</option>'
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
        '<button id="top" type="button" title="train as fast as the library runs">'
        "▶▶ Top speed</button>"
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
        '<p id="done-note" class="done-note" role="status" hidden><span id="done-text"></span> '
        '<button id="more" type="button">Play <span id="more-count">1000</span> more</button>'
        "</p>"
        '<p id="last-game" class="muted"></p>'
        '<div id="chart"></div></div>'
        '<div id="person" hidden><p id="status" role="status"></p>'
        '<p id="board-title" class="board-title"></p>'
        '<div id="board" class="board-box lab-board"></div>'
        '<button id="next-game" type="button" hidden>Next game</button></div></div>'
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
