// plies serve, Paths page: draw a grid, run two searches side by side, replay their expansion.
"use strict";

const grid = { w: 31, h: 21, free: null, start: [1, 1], goal: [29, 19], cell: 16 };
const runs = { a: null, b: null, shown: 0, timer: null };
const COLORS = { wall: "#1b1b1b", free: "#ffffff", seen: "#9ecae1", frontier: "#fdd49e", path: "#e63946", start: "#2a9d8f", goal: "#e76f51", line: "#eeeeee" };

// Start with an empty grid of the given size.
function resetGrid(w, h) {
  grid.w = w; grid.h = h;
  grid.free = new Uint8Array(w * h).fill(1);
  grid.start = [0, 0]; grid.goal = [w - 1, h - 1];
}

// Take a grid from the server: rows of '#' and '.'.
function loadRows(data) {
  resetGrid(data.width, data.height);
  data.rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) grid.free[y * grid.w + x] = row[x] === "." ? 1 : 0; });
  const freeCells = [];
  for (let i = 0; i < grid.free.length; i++) if (grid.free[i]) freeCells.push(i);
  if (freeCells.length) {
    const first = freeCells[0], last = freeCells[freeCells.length - 1];
    grid.start = [first % grid.w, Math.floor(first / grid.w)];
    grid.goal = [last % grid.w, Math.floor(last / grid.w)];
  }
  clearRuns();
}

// The grid as rows of '#' and '.'.
function gridRows() {
  const rows = [];
  for (let y = 0; y < grid.h; y++) {
    let row = "";
    for (let x = 0; x < grid.w; x++) row += grid.free[y * grid.w + x] ? "." : "#";
    rows.push(row);
  }
  return rows;
}

// Size both canvases for the grid.
function sizeCanvases() {
  grid.cell = Math.max(1, Math.min(28, Math.floor(Math.min(520 / grid.w, 420 / grid.h))));
  for (const id of ["#grid-a", "#grid-b"]) {
    const canvas = $(id);
    canvas.width = grid.w * grid.cell;
    canvas.height = grid.h * grid.cell;
    canvas.dataset.width = grid.w;
    canvas.dataset.height = grid.h;
    canvas.dataset.cell = grid.cell;
  }
}

// Paint one cell.
function paint(ctx, index, color) {
  const c = grid.cell, x = index % grid.w, y = Math.floor(index / grid.w);
  ctx.fillStyle = color;
  ctx.fillRect(x * c, y * c, c, c);
  if (c >= 8) { ctx.strokeStyle = COLORS.line; ctx.strokeRect(x * c + 0.5, y * c + 0.5, c - 1, c - 1); }
}

// Draw the bare grid with start and goal.
function drawGrid(canvas) {
  const ctx = canvas.getContext("2d");
  for (let i = 0; i < grid.free.length; i++) paint(ctx, i, grid.free[i] ? COLORS.free : COLORS.wall);
  drawEnds(ctx);
}

// Draw start and goal on top.
function drawEnds(ctx) {
  paint(ctx, grid.start[1] * grid.w + grid.start[0], COLORS.start);
  paint(ctx, grid.goal[1] * grid.w + grid.goal[0], COLORS.goal);
}

// Forget the results and redraw.
function clearRuns() {
  stopTimer();
  runs.a = runs.b = null; runs.shown = 0;
  sizeCanvases();
  drawGrid($("#grid-a")); drawGrid($("#grid-b"));
  for (const id of ["#stats-a", "#stats-b"]) { $(id).textContent = ""; $(id).dataset.done = "false"; }
}

// Write the counts of one run so far.
function showStats(side) {
  const run = runs[side], box = $(`#stats-${side}`);
  if (!run) return;
  const shown = Math.min(runs.shown, run.order.length);
  const done = shown >= run.order.length;
  let text = `${run.title}: expanded ${shown} of ${run.expanded}, largest frontier ${run.max_frontier}`;
  if (done) {
    text += run.found ? `, path ${run.steps} steps, cost ${run.cost}` : `, ${run.status}`;
    text += `, ${run.time_ms} ms`;
  }
  box.textContent = text;
  box.dataset.done = String(done);
  box.dataset.steps = done && run.found ? run.steps : "";
  box.dataset.cost = done && run.found ? run.cost : "";
  box.dataset.expanded = run.expanded;
}

// Show the expansions up to runs.shown (from `from` on) and, at the end, frontier and path.
function drawProgress(side, from) {
  const run = runs[side];
  if (!run) return;
  const ctx = $(`#grid-${side}`).getContext("2d");
  const to = Math.min(runs.shown, run.order.length);
  for (let k = from; k < to; k++) paint(ctx, run.order[k], COLORS.seen);
  if (to >= run.order.length) {
    for (const i of run.frontier) paint(ctx, i, COLORS.frontier);
    if (run.path) for (const [x, y] of run.path) paint(ctx, y * grid.w + x, COLORS.path);
  }
  drawEnds(ctx);
  showStats(side);
}

// The longest expansion order of the runs.
function longest() { return Math.max(runs.a ? runs.a.order.length : 0, runs.b ? runs.b.order.length : 0); }

// Advance the replay by n expansions.
function advance(n) {
  const from = runs.shown;
  if (from > longest()) { stopTimer(); return; }
  runs.shown = Math.min(from + n, longest() + 1);
  drawProgress("a", from); drawProgress("b", from);
  if (runs.shown > longest()) stopTimer();
}

// Stop the replay.
function stopTimer() { if (runs.timer) clearInterval(runs.timer); runs.timer = null; }

// Replay at the chosen speed (expansions per frame).
function startTimer() {
  stopTimer();
  runs.timer = setInterval(() => advance(+$("#p-speed").value), 30);
}

// Run the chosen algorithms on the current grid, then replay them.
async function runSearches() {
  const body = { rows: gridRows(), start: grid.start, goal: grid.goal, diagonal: $("#p-diagonal").checked };
  const names = { a: $("#p-alg-a").value, b: $("#p-alg-b").value };
  let results;
  try {
    results = await Promise.all(["a", "b"].map((s) => (names[s] ? api("/api/paths/search", { ...body, algorithm: names[s] }) : null)));
  } catch (err) { return; }
  clearRuns();
  runs.a = results[0]; runs.b = results[1];
  startTimer();
}

// The cell under a pointer on a canvas.
function cellAt(canvas, event) {
  const box = canvas.getBoundingClientRect();
  const x = Math.floor(((event.clientX - box.left) / box.width) * grid.w);
  const y = Math.floor(((event.clientY - box.top) / box.height) * grid.h);
  return x >= 0 && y >= 0 && x < grid.w && y < grid.h ? [x, y] : null;
}

// Apply the drawing tool to a cell.
function applyTool(cell) {
  const tool = document.querySelector('input[name="p-tool"]:checked').value;
  const i = cell[1] * grid.w + cell[0];
  const isEnd = (p) => p[0] === cell[0] && p[1] === cell[1];
  if (tool === "wall" && !isEnd(grid.start) && !isEnd(grid.goal)) grid.free[i] = 0;
  else if (tool === "free") grid.free[i] = 1;
  else if (tool === "start") { grid.free[i] = 1; grid.start = cell; }
  else if (tool === "goal") { grid.free[i] = 1; grid.goal = cell; }
  if (runs.a || runs.b) clearRuns();
  else { drawGrid($("#grid-a")); drawGrid($("#grid-b")); }
}

// Fill the algorithm and maze menus from the server.
async function loadOptions() {
  const response = await fetch("/api/paths/options");
  const options = await response.json();
  for (const alg of options.algorithms) {
    for (const id of ["#p-alg-a", "#p-alg-b"]) {
      const opt = document.createElement("option");
      opt.value = alg.name; opt.textContent = alg.title;
      $(id).appendChild(opt);
    }
  }
  $("#p-alg-a").value = "astar";
  $("#p-alg-b").value = "bfs";
  for (const method of options.mazes) {
    const opt = document.createElement("option");
    opt.value = method; opt.textContent = method;
    $("#p-method").appendChild(opt);
  }
}

// Generate a maze or random walls on the server.
async function generate(kind) {
  try {
    loadRows(await api("/api/paths/generate", {
      kind, method: $("#p-method").value, width: +$("#p-width").value, height: +$("#p-height").value, seed: +$("#p-seed").value,
    }));
  } catch (err) { /* shown already */ }
}

window.addEventListener("DOMContentLoaded", () => {
  resetGrid(grid.w, grid.h);
  grid.start = [1, 1]; grid.goal = [grid.w - 2, grid.h - 2];
  clearRuns();
  loadOptions();
  let drawing = false;
  for (const canvas of [$("#grid-a"), $("#grid-b")]) {
    canvas.addEventListener("pointerdown", (e) => { const c = cellAt(canvas, e); if (c) { drawing = true; applyTool(c); } });
    canvas.addEventListener("pointermove", (e) => {
      const tool = document.querySelector('input[name="p-tool"]:checked').value;
      if (drawing && (tool === "wall" || tool === "free")) { const c = cellAt(canvas, e); if (c) applyTool(c); }
    });
  }
  window.addEventListener("pointerup", () => { drawing = false; });
  $("#p-clear").onclick = () => {
    const w = Math.max(3, Math.min(512, +$("#p-width").value)), h = Math.max(3, Math.min(512, +$("#p-height").value));
    resetGrid(w, h); clearRuns();
  };
  $("#p-maze").onclick = () => generate("maze");
  $("#p-random").onclick = () => generate("random");
  $("#p-run").onclick = runSearches;
  $("#p-pause").onclick = () => (runs.timer ? stopTimer() : (runs.a || runs.b) && startTimer());
  $("#p-step").onclick = () => { stopTimer(); advance(1); };
  $("#p-finish").onclick = () => { stopTimer(); advance(longest() + 1); };
  $("#p-map").onchange = async () => {
    const file = $("#p-map").files[0];
    if (!file) return;
    try { loadRows(await api("/api/paths/map", { text: await file.text() })); } catch (err) { /* shown */ }
  };
});
