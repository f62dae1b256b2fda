// plies serve, Analyse page: a PGN or FEN, the engine's verdict at every position, a graph.
"use strict";

const an = { moves: [], evals: [], index: 0, count: 1 };
const GRAPH_W = 400, GRAPH_H = 120, GRAPH_CP = 1000;

// Ask the server for position i.
function view(i) {
  if (i < 0 || i >= an.count) return;
  send("analyse", { type: "view", index: i });
}

// The verdict of position i as text.
function verdictText(i) {
  const e = an.evals[i];
  if (!e) return "…";
  return e.best ? `${e.score}  (depth ${e.depth})  best ${e.best}: ${e.pv}` : e.score;
}

// Rebuild the move list with each position's score.
function drawMoves() {
  const list = $("#an-moves");
  list.replaceChildren();
  for (let i = 0; i < an.moves.length; i += 2) {
    const li = document.createElement("li");
    for (const j of [i, i + 1]) {
      if (j >= an.moves.length) break;
      const span = document.createElement("span");
      span.textContent = an.moves[j];
      span.dataset.index = j + 1;
      span.className = j + 1 === an.index ? "current" : "";
      span.onclick = () => view(j + 1);
      const ev = document.createElement("span");
      ev.className = "ev";
      ev.textContent = an.evals[j + 1] ? an.evals[j + 1].score : "";
      li.append(span, ev);
    }
    list.appendChild(li);
  }
}

// Draw the evaluation graph: White's advantage above the middle, capped at 10 pawns.
function drawGraph() {
  const svg = $("#an-graph");
  const n = Math.max(an.count - 1, 1);
  const x = (i) => (i / n) * GRAPH_W;
  const y = (cp) => GRAPH_H / 2 - (Math.max(-GRAPH_CP, Math.min(GRAPH_CP, cp)) / GRAPH_CP) * (GRAPH_H / 2);
  let points = "";
  for (let i = 0; i < an.count; i++) {
    if (an.evals[i]) points += `${x(i).toFixed(1)},${y(an.evals[i].graph_cp).toFixed(1)} `;
  }
  const area = points ? `M0,${GRAPH_H / 2} L${points.trim().split(" ").join(" L")} L${x(an.count - 1)},${GRAPH_H / 2} Z` : "";
  svg.innerHTML =
    `<path class="white" d="${area}"/>` +
    `<line class="axis" x1="0" y1="${GRAPH_H / 2}" x2="${GRAPH_W}" y2="${GRAPH_H / 2}"/>` +
    `<polyline class="line" points="${points}"/>` +
    `<line class="cursor" x1="${x(an.index)}" y1="0" x2="${x(an.index)}" y2="${GRAPH_H}"/>`;
  svg.dataset.points = String(Object.keys(an.evals).length);
}

// Jump to the position under a click on the graph.
function graphClick(event) {
  const box = $("#an-graph").getBoundingClientRect();
  view(Math.round(((event.clientX - box.left) / box.width) * (an.count - 1)));
}

onChannel("analyse", (msg) => {
  if (msg.type === "analysis") {
    an.moves = msg.moves; an.evals = {}; an.count = msg.fens.length; an.index = 0;
    $("#an-progress").textContent = `analysing ${an.count} position${an.count > 1 ? "s" : ""}…`;
    $("#an-progress").dataset.done = "false";
    drawMoves(); drawGraph();
  } else if (msg.type === "position") {
    an.index = msg.index;
    const board = $("#an-board");
    board.innerHTML = msg.svg;
    board.dataset.fen = msg.fen;
    board.dataset.index = msg.index;
    $("#an-eval").textContent = verdictText(msg.index);
    $("#an-live").textContent = "";
    drawMoves(); drawGraph();
  } else if (msg.type === "eval") {
    an.evals[msg.index] = msg;
    const done = Object.keys(an.evals).length;
    $("#an-progress").textContent = `analysed ${done} of ${an.count} positions`;
    if (msg.index === an.index) $("#an-eval").textContent = verdictText(msg.index);
    drawMoves(); drawGraph();
  } else if (msg.type === "analysis_info") {
    if (msg.index === an.index) $("#an-live").textContent = `depth ${msg.depth}  ${msg.score}  ${msg.pv}`;
  } else if (msg.type === "analysis_done") {
    $("#an-progress").dataset.done = "true";
    if (msg.stopped) $("#an-progress").textContent += " (stopped)";
  }
});

// Wire up the controls; the arrow keys step through the game.
window.addEventListener("DOMContentLoaded", () => {
  $("#an-run").onclick = () => send("analyse", {
    type: "analyse", pgn: $("#an-pgn").value, fen: $("#an-fen").value, movetime: +$("#an-movetime").value,
  });
  $("#an-stop").onclick = () => send("analyse", { type: "stop" });
  $("#an-first").onclick = () => view(0);
  $("#an-prev").onclick = () => view(an.index - 1);
  $("#an-next").onclick = () => view(an.index + 1);
  $("#an-last").onclick = () => view(an.count - 1);
  $("#an-flip").onclick = () => send("analyse", { type: "flip", index: an.index });
  $("#an-graph").addEventListener("click", graphClick);
  document.addEventListener("keydown", (e) => {
    if ($("#page-analyse").hidden || e.target.matches("input, textarea")) return;
    if (e.key === "ArrowLeft") view(an.index - 1);
    if (e.key === "ArrowRight") view(an.index + 1);
  });
  document.addEventListener("plies:page", (e) => {
    if (e.detail === "analyse" && !$("#an-board").innerHTML) send("analyse", { type: "view", index: 0 });
  });
});
