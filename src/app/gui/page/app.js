// Damas board page: draws the board from the server's geometry, takes moves by clicking
// or dragging (only legal moves are offered), runs the engine and shows analysis streamed as events.
"use strict";

const NS = "http://www.w3.org/2000/svg";
let state = null;
let flipped = false;
let selected = null; // from-square id
let clicks = []; // landing squares clicked so far, after the from-square
let engineBusy = false;
let source = null; // the analysis EventSource
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: "bad answer from the server" }; }
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function message(text) { $("message").textContent = text || ""; }

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Column and row of a square on the drawn board.
function cell(sq) {
  const b = state.board;
  const col = flipped ? b.width - 1 - sq.file : sq.file;
  const row = flipped ? sq.rank : b.height - 1 - sq.rank;
  return [col, row];
}

function movesFrom(id) { return state.legal.filter((m) => m.from === id); }

// The legal moves that fit the squares clicked so far.
function fitting() {
  return movesFrom(selected).filter((m) => clicks.every((c, i) => m.path[i] === c));
}

function targets() {
  const out = new Set();
  if (selected === null) return out;
  const k = clicks.length;
  for (const m of fitting()) {
    if (m.path[k] !== undefined) out.add(m.path[k]);
    out.add(m.to);
  }
  return out;
}

function draw() {
  const b = state.board;
  const holder = $("board");
  holder.textContent = "";
  const svg = el("svg", { viewBox: `-0.5 -0.5 ${b.width + 1} ${b.height + 1}`, id: "board-svg" }, holder);
  el("rect", { x: -0.5, y: -0.5, width: b.width + 1, height: b.height + 1, class: "frame" }, svg);
  const byId = new Map(state.squares.map((s) => [s.id, s]));
  const last = state.history.length ? state.history[state.history.length - 1] : null;
  const tgt = targets();
  const caps = new Set();
  if (selected !== null) for (const m of fitting()) m.captured.forEach((c) => caps.add(c));
  if (b.shape === "points") {
    drawLines(svg, byId);
  } else {
    for (let col = 0; col < b.width; col++) {
      for (let row = 0; row < b.height; row++) {
        const file = flipped ? b.width - 1 - col : col;
        const rank = flipped ? row : b.height - 1 - row;
        if (b.shape === "dark" && (file + rank) % 2 !== 0) {
          el("rect", { x: col, y: row, width: 1, height: 1, class: "sq light" }, svg);
        }
      }
    }
  }
  for (const sq of state.squares) {
    const [col, row] = cell(sq);
    let cls = b.shape === "dark" ? "sq dark" : ((sq.file + sq.rank) % 2 ? "sq full-a" : "sq full-b");
    if (last && (last.from === sq.id || last.to === sq.id)) cls += " last";
    if (sq.id === selected || clicks.includes(sq.id)) cls += " from";
    if (tgt.has(sq.id)) cls += " target";
    let hit;
    if (b.shape === "points") {
      el("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.1, class: cls.replace("sq", "point").replace(/full-[ab]/, "") }, svg);
      hit = el("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.45, fill: "transparent", class: "hit" }, svg);
    } else {
      hit = el("rect", { x: col, y: row, width: 1, height: 1, class: cls }, svg);
    }
    hit.setAttribute("data-id", sq.id);
    hit.setAttribute("data-name", sq.name);
    hit.addEventListener("click", () => clicked(sq.id));
    if (!b.algebraic && sq.number !== null) {
      const t = el("text", { x: col + 0.05, y: row + 0.25, class: "num" }, svg);
      t.textContent = sq.number;
    }
    if (sq.piece) drawPiece(svg, col, row, sq.piece, sq.id);
    if (caps.has(sq.id)) el("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.44, class: "captured" }, svg);
  }
  if (b.algebraic) {
    for (let col = 0; col < b.width; col++) {
      const f = flipped ? b.width - 1 - col : col;
      const t = el("text", { x: col + 0.5, y: b.height + 0.35, "text-anchor": "middle", class: "coord" }, svg);
      t.textContent = b.files[f];
    }
    for (let row = 0; row < b.height; row++) {
      const rank = flipped ? row + 1 : b.height - row;
      const t = el("text", { x: -0.25, y: row + 0.6, "text-anchor": "middle", class: "coord" }, svg);
      t.textContent = rank;
    }
  }
}

// Alquerque's lines: orthogonal between neighbours, diagonal through points with
// file + rank even.
function drawLines(svg, byId) {
  const at = new Map(state.squares.map((s) => [s.file + "," + s.rank, s]));
  for (const s of state.squares) {
    const dirs = [[1, 0], [0, 1]];
    if ((s.file + s.rank) % 2 === 0) dirs.push([1, 1], [1, -1]);
    for (const [df, dr] of dirs) {
      const o = at.get((s.file + df) + "," + (s.rank + dr));
      if (!o) continue;
      const [c1, r1] = cell(s);
      const [c2, r2] = cell(o);
      el("line", { x1: c1 + 0.5, y1: r1 + 0.5, x2: c2 + 0.5, y2: r2 + 0.5, class: "line" }, svg);
    }
  }
  void byId;
}

function drawPiece(svg, col, row, p, id) {
  const white = p === "w" || p === "W" || p === "p";
  const colour = white ? "white" : "black";
  const kind = p === "W" || p === "B" ? "king" : (p === "p" || p === "q" ? "parachutist" : "man");
  const c = el("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.38, class: `piece ${colour} ${kind}`, "data-id": id }, svg);
  if (kind === "parachutist") c.setAttribute("stroke-dasharray", "0.1 0.06");
  el("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.27, class: `piece ${colour}`, fill: "none" }, svg);
  if (kind === "king") {
    const t = el("text", { x: col + 0.5, y: row + 0.62, "text-anchor": "middle", "font-size": 0.36, class: `crown ${colour}` }, svg);
    t.textContent = "♔";
  }
}

function clicked(id) {
  if (!state || state.outcome || engineBusy || humanToMove() === false) return;
  $("chooser").hidden = true;
  if (selected === null) {
    if (movesFrom(id).length) { selected = id; clicks = []; }
    draw();
    return;
  }
  const k = clicks.length;
  const fit = fitting();
  // Konane's opening removals: the piece clicked again.
  if (id === selected && k === 0) {
    const removal = fit.filter((m) => m.to === id && m.path.length === 1 && m.captured.length === 0 && m.from === m.to);
    if (removal.length === 1) return play(removal[0]);
    selected = null; draw(); return;
  }
  const exact = fit.filter((m) => m.to === id);
  const partial = fit.filter((m) => m.path[k] === id && m.to !== id);
  if (exact.length === 1 && partial.length === 0) return play(exact[0]);
  if (exact.length > 1 || (exact.length && partial.length)) return choose(exact.concat(partial));
  if (partial.length) { clicks.push(id); draw(); return; }
  // Another piece of the side to move, or nothing.
  selected = movesFrom(id).length ? id : null;
  clicks = [];
  draw();
}

// Drag and drop: press on a piece that can move, release on another square; the same as
// clicking the two squares (a capture's further landings are then clicked, or asked).
let dragFrom = null;

function squareAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const id = e && e.getAttribute ? e.getAttribute("data-id") : null;
  if (id === null || !state) return null;
  const sq = state.squares.find((s) => String(s.id) === id);
  return sq ? sq.id : null;
}

function dragStart(ev) {
  dragFrom = null;
  if (!state || state.outcome || engineBusy || humanToMove() === false) return;
  const id = squareAt(ev.clientX, ev.clientY);
  if (id !== null && movesFrom(id).length) {
    dragFrom = id;
    document.body.classList.add("dragging");
    ev.preventDefault();
  }
}

function dragEnd(ev) {
  const from = dragFrom;
  dragFrom = null;
  document.body.classList.remove("dragging");
  if (from === null) return;
  const to = squareAt(ev.clientX, ev.clientY);
  if (to === null || to === from) return; // a click: the click handler takes it
  if (selected !== from) { selected = null; clicks = []; clicked(from); }
  clicked(to);
}

// Several captures fit the clicks: ask which.
function choose(moves) {
  const box = $("chooser");
  box.textContent = "Which capture? ";
  for (const m of moves) {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.className = "choice";
    b.addEventListener("click", () => { box.hidden = true; play(m); });
    box.appendChild(b);
  }
  box.hidden = false;
}

function humanToMove() {
  return state && state.players[state.side] === "human";
}

async function play(m) {
  selected = null; clicks = [];
  try { update(await api("/api/move", { move: m.text })); } catch (e) { message(e.message); draw(); }
}

async function engineMove() {
  if (engineBusy || !state || state.outcome) return;
  engineBusy = true;
  status();
  try {
    const s = await api("/api/engine-move", {});
    if (s.engine) {
      $("pv").textContent = `engine: ${s.engine.move}  score ${s.engine.score}  depth ${s.engine.depth}  pv ${s.engine.pv.join(" ")}`;
    }
    engineBusy = false;
    update(s);
  } catch (e) {
    engineBusy = false;
    message(e.message);
    status();
  }
}

function status() {
  if (!state) return;
  let s = `${state.variant}: `;
  if (state.outcome) s += `game over, ${state.outcome.result} (${state.outcome.reason})`;
  else s += `${state.side} to move` + (engineBusy ? " (the engine is thinking)" : "");
  $("status").textContent = s;
}

function update(s) {
  state = s;
  selected = null; clicks = [];
  message("");
  draw();
  status();
  $("fen").value = s.fen;
  const h = $("history");
  h.textContent = "";
  let li = null;
  s.history.forEach((m, i) => {
    if (!li || m.side === s.board.first || i === 0) {
      li = document.createElement("li");
      li.value = m.number;
      h.appendChild(li);
    }
    const span = document.createElement("span");
    span.textContent = m.short;
    if (i === s.history.length - 1) span.className = "current";
    span.title = "go back to after this move";
    span.addEventListener("click", () => goTo(i + 1));
    li.appendChild(span);
  });
  $("variant").value = s.variant;
  $("white").value = s.players.white;
  $("black").value = s.players.black;
  showOptions(s.variant, s.options);
  if (!s.outcome && !humanToMove() && !engineBusy && !source) setTimeout(engineMove, 50);
}

async function goTo(n) {
  try { update(await api("/api/undo", { to: n })); } catch (e) { message(e.message); }
}

let variantList = [];
function showOptions(name, values) {
  const box = $("options");
  box.textContent = "";
  const v = variantList.find((x) => x.name === name);
  if (!v) return;
  for (const o of v.options) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.dataset.option = o.name;
    const cur = (values || []).find((x) => x.name === o.name);
    input.checked = cur ? cur.value : o.default;
    label.appendChild(input);
    label.appendChild(document.createTextNode(" " + o.name));
    box.appendChild(label);
  }
}

async function newGame(extra) {
  stopAnalysis();
  $("lines").querySelector("tbody").textContent = "";
  $("pv").textContent = "";
  $("egdb").textContent = "";
  const options = {};
  for (const i of $("options").querySelectorAll("input[data-option]")) options[i.dataset.option] = i.checked;
  const body = Object.assign({
    variant: $("variant").value,
    options,
    white: $("white").value,
    black: $("black").value,
    movetime: parseFloat($("movetime").value),
    book: $("book").checked,
  }, extra || {});
  try { update(await api("/api/new", body)); } catch (e) { message(e.message); }
}

function analyse() {
  if (source) return;
  const tbody = $("lines").querySelector("tbody");
  tbody.textContent = "";
  const n = Math.max(1, Math.min(16, parseInt($("multipv").value, 10) || 1));
  $("egdb").textContent = "";
  source = new EventSource(`/api/analyse?multipv=${n}`);
  const rows = [];
  source.addEventListener("egdb", (ev) => {
    $("egdb").textContent = `endgame tables: ${JSON.parse(ev.data).result} for the side to move`;
  });
  source.addEventListener("info", (ev) => {
    const i = JSON.parse(ev.data);
    let tr = rows[i.multipv];
    if (!tr) {
      tr = document.createElement("tr");
      tr.className = "line-" + i.multipv;
      rows[i.multipv] = tr;
      tbody.textContent = "";
      rows.forEach((r) => r && tbody.appendChild(r));
    }
    tr.innerHTML = "";
    for (const v of [i.multipv, i.depth, i.score, Math.round(i.nps / 1000), i.pv.join(" ")]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    $("pv").textContent = `depth ${i.depth}  score ${i.score}  pv ${i.pv.join(" ")}`;
  });
  source.addEventListener("done", (ev) => {
    const d = JSON.parse(ev.data);
    if (d.error) message(d.error);
    stopAnalysis();
  });
  source.addEventListener("error", () => {
    if (source) { message("analysis ended (another search may be running)"); stopAnalysis(); }
  });
}

function stopAnalysis() {
  if (source) {
    source.close();
    source = null;
    api("/api/stop", {}).catch(() => {});
  }
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-pdn" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function init() {
  try {
    variantList = (await api("/api/variants")).variants;
    for (const v of variantList) {
      const o = document.createElement("option");
      o.value = v.name; o.textContent = v.name; o.title = v.summary;
      $("variant").appendChild(o);
    }
    update(await api("/api/state"));
    const st = await api("/api/settings");
    $("hash").value = st.hash;
    $("threads").value = st.threads;
  } catch (e) { message(e.message); }
  $("apply-settings").addEventListener("click", async () => {
    try {
      const st = await api("/api/settings", { hash: parseInt($("hash").value, 10), threads: parseInt($("threads").value, 10) });
      $("hash").value = st.hash;
      $("threads").value = st.threads;
      message("engine: " + st.hash + " MB, " + st.threads + " thread(s)");
    } catch (e) { message(e.message); }
  });
  $("variant").addEventListener("change", () => showOptions($("variant").value, []));
  $("new").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", async () => {
    stopAnalysis();
    try { update(await api("/api/undo", {})); } catch (e) { message(e.message); }
  });
  $("redo").addEventListener("click", async () => {
    try { update(await api("/api/redo", {})); } catch (e) { message(e.message); }
  });
  $("flip").addEventListener("click", () => { flipped = !flipped; draw(); });
  $("board").addEventListener("pointerdown", dragStart);
  document.addEventListener("pointerup", dragEnd);
  $("engine-move").addEventListener("click", engineMove);
  $("resign").addEventListener("click", async () => {
    try { update(await api("/api/resign", {})); } catch (e) { message(e.message); }
  });
  $("draw").addEventListener("click", async () => {
    try { update(await api("/api/draw", {})); } catch (e) { message(e.message); }
  });
  $("analyse").addEventListener("click", analyse);
  $("stop").addEventListener("click", stopAnalysis);
  $("load-fen").addEventListener("click", async () => {
    stopAnalysis();
    try { update(await api("/api/fen", { fen: $("fen").value })); } catch (e) { message(e.message); }
  });
  $("load-pdn").addEventListener("click", async () => {
    stopAnalysis();
    try { update(await api("/api/pdn", { pdn: $("pdn").value })); } catch (e) { message(e.message); }
  });
  $("show-pdn").addEventListener("click", async () => {
    try { $("pdn").value = (await api("/api/pdn")).pdn; } catch (e) { message(e.message); }
  });
  $("save-pdn").addEventListener("click", async () => {
    try { download("damas.pdn", (await api("/api/pdn")).pdn); } catch (e) { message(e.message); }
  });
}

init();
