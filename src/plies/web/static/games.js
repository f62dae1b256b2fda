// plies serve, Games page: tic-tac-toe and connect four against the generic searches.
"use strict";

const gm = { game: "tictactoe", moves: [], pos: null, best: [], thinking: false, pending: 0, chain: Promise.resolve() };
const MARK = ["", "X", "O"];
const COLUMNS = "abc";

// The name of a tic-tac-toe cell as people write it (column letter, row from the bottom).
function cellName(i) { return COLUMNS[i % 3] + (3 - Math.floor(i / 3)); }

// Draw the board; a click plays a cell (tic-tac-toe) or a column (connect four).
function drawBoard() {
  const board = $("#g-board");
  board.replaceChildren();
  if (!gm.pos) return;
  const rows = gm.pos.cells, width = rows[0].length;
  board.className = "gboard" + (gm.game === "connect4" ? " c4" : "");
  board.style.gridTemplateColumns = `repeat(${width}, auto)`;
  rows.forEach((row, r) => row.forEach((v, c) => {
    const cell = document.createElement("button");
    const action = gm.game === "tictactoe" ? r * width + c : c;
    cell.className = `cell p${v}` + (gm.best.includes(action) && (gm.game === "connect4" || v === 0) ? " best" : "");
    cell.textContent = MARK[v];
    cell.dataset.action = action;
    cell.dataset.cell = r * width + c;
    cell.dataset.mark = MARK[v] || ".";
    cell.onclick = () => enqueue(() => humanMove(action));
    board.appendChild(cell);
  }));
  board.dataset.moves = gm.moves.join(",");
  let text;
  if (gm.pos.terminal) text = gm.pos.winner === null ? "Draw." : `${MARK[gm.pos.winner + 1]} wins.`;
  else text = `${MARK[gm.pos.to_move + 1]} to move` + (gm.thinking ? " — the computer is thinking…" : "");
  $("#g-status").textContent = text;
  board.dataset.over = String(gm.pos.terminal);
}

// Forget the shown solution.
function clearSolution() {
  const box = $("#g-solution");
  box.textContent = "";
  delete box.dataset.verdict;
  delete box.dataset.best;
  gm.best = [];
}

// Run page actions one after another, in click order: each sees the result of the last.
function enqueue(action) {
  gm.pending += 1;
  $("#g-board").dataset.busy = "true";
  gm.chain = gm.chain.then(action).catch(() => { /* shown already */ }).finally(() => {
    gm.pending -= 1;
    $("#g-board").dataset.busy = String(gm.pending > 0);
  });
}

// Ask the server for the position after the moves.
async function refresh() {
  gm.pos = await api("/api/games/state", { game: gm.game, moves: gm.moves });
  drawBoard();
}

// The search settings chosen on the page.
function searchSettings() {
  const body = { game: gm.game, moves: gm.moves, algorithm: $("#g-alg").value };
  const depth = parseInt($("#g-depth").value, 10);
  if (depth > 0) body.depth = depth;
  return body;
}

// Let the computer move if it is its turn.
async function maybeComputer() {
  const ai = +$("#g-ai").value;
  if (gm.pos && !gm.pos.terminal && gm.pos.to_move === ai) await computerMove();
}

// Ask the search for a move and play it.
async function computerMove() {
  if (!gm.pos || gm.pos.terminal) return;
  gm.thinking = true; drawBoard();
  try {
    const r = await api("/api/games/move", searchSettings());
    gm.moves.push(r.action);
    gm.pos = r.position;
    const stats = $("#g-stats");
    stats.textContent = `${$("#g-alg").value}: value ${r.value.toFixed(3)}${r.exact ? " (exact)" : ""}, ` +
      `${r.nodes} nodes, ${r.cutoffs} cutoffs, ${r.tt_hits} table hits, depth ${r.depth}` +
      (r.playouts ? `, ${r.playouts} playouts` : "") + `, ${(r.seconds * 1000).toFixed(1)} ms`;
    stats.dataset.nodes = r.nodes;
  } finally {
    gm.thinking = false;
    clearSolution();
    drawBoard();
  }
}

// A click on the board: play there if it is legal by the time the click's turn comes.
async function humanMove(action) {
  if (!gm.pos || !gm.pos.legal.includes(action)) return;
  gm.moves.push(action);
  clearSolution();
  await refresh();
  await maybeComputer();
}

// Solve the tic-tac-toe position exactly and mark every best move.
async function solve() {
  if (gm.game !== "tictactoe") { showError("only tic-tac-toe can be solved exactly here"); return; }
  const r = await api("/api/games/solve", { game: gm.game, moves: gm.moves });
  gm.best = r.best;
  const who = MARK[r.to_move + 1];
  const box = $("#g-solution");
  box.textContent = `${who} to move: ${r.verdict} with perfect play` +
    (r.plies ? ` in ${r.plies} plies` : "") + (r.best.length ? `; best: ${r.best.map(cellName).join(", ")}` : "") +
    ` (${r.positions_solved} positions solved so far)`;
  box.dataset.verdict = r.verdict;
  box.dataset.best = r.best.join(",");
  drawBoard();
}

// Start over.
async function newGame() {
  gm.game = $("#g-game").value; gm.moves = [];
  clearSolution();
  $("#g-stats").textContent = "";
  $("#g-solve").disabled = gm.game !== "tictactoe";
  await refresh();
  await maybeComputer();
}

// Take back the last move, and the computer's before it.
async function undo() {
  if (!gm.moves.length) return;
  gm.moves.pop();
  const ai = +$("#g-ai").value;
  if (gm.moves.length && gm.moves.length % 2 === ai) gm.moves.pop();
  clearSolution();
  await refresh();
}

window.addEventListener("DOMContentLoaded", () => {
  $("#g-new").onclick = () => enqueue(newGame);
  $("#g-game").onchange = () => enqueue(newGame);
  $("#g-move").onclick = () => enqueue(computerMove);
  $("#g-solve").onclick = () => enqueue(solve);
  $("#g-undo").onclick = () => enqueue(undo);
  $("#g-ai").onchange = () => enqueue(maybeComputer);
  enqueue(newGame);
});
