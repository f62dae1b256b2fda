// plies serve, Play page: click or drag to move, the engine answers and thinks aloud.
"use strict";

const play = { state: null, selected: null, dragFrom: null, dragPiece: null, dragStart: null, pendingPromo: null };
const SVG_NS = "http://www.w3.org/2000/svg";

// The rect of a square in the current board picture.
function squareRect(name) { return $(`#board rect[data-square="${name}"]`); }

// Legal moves from one square, castling also under the names the server accepts for it
// (in Chess960 the king takes its own rook; from e1/e8 it may also go two squares over).
function movesFrom(from) {
  if (!play.state) return [];
  const aliases = Object.keys(play.state.castling_aliases || {});
  return play.state.legal.concat(aliases).filter((m) => m.startsWith(from));
}

// Mark the selected square and the squares its piece can go to.
function showSelection() {
  const marks = $("#board .marks");
  if (!marks) return;
  marks.replaceChildren();
  for (const rect of document.querySelectorAll("#board rect.selected")) rect.classList.remove("selected");
  if (!play.selected) return;
  squareRect(play.selected).classList.add("selected");
  const targets = new Set(movesFrom(play.selected).map((m) => m.slice(2, 4)));
  for (const target of targets) {
    const rect = squareRect(target);
    const x = +rect.getAttribute("x"), y = +rect.getAttribute("y"), s = +rect.getAttribute("width");
    const occupied = document.querySelector(`#board use[data-at="${target}"]`);
    const mark = document.createElementNS(SVG_NS, "circle");
    mark.setAttribute("cx", x + s / 2);
    mark.setAttribute("cy", y + s / 2);
    mark.setAttribute("r", occupied ? s / 2 - 3 : s / 7);
    mark.setAttribute("class", occupied ? "ring" : "dot");
    marks.appendChild(mark);
  }
}

// Try the move from -> to: ask for the promotion piece when there is a choice.
function tryMove(from, to) {
  const candidates = movesFrom(from).filter((m) => m.slice(2, 4) === to);
  play.selected = null;
  showSelection();
  if (candidates.length === 0) return false;
  if (candidates.length > 1) {
    play.pendingPromo = from + to;
    $("#promo").hidden = false;
    return true;
  }
  send("play", { type: "move", uci: candidates[0] });
  return true;
}

// A press on a square: select a piece, or complete a move.
function squareDown(name) {
  if (!play.state || play.state.thinking) return;
  if (play.selected && play.selected !== name && tryMove(play.selected, name)) return;
  if (movesFrom(name).length) {
    play.selected = name;
    play.dragFrom = name;
  } else {
    play.selected = null;
  }
  showSelection();
}

// A point of the page in the board picture's own coordinates.
function svgPoint(event) {
  const svg = $("#board svg");
  const point = new DOMPoint(event.clientX, event.clientY);
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// Lift the piece on the square being dragged so that it follows the pointer.
function liftPiece(name, event) {
  play.dragPiece = document.querySelector(`#board use[data-at="${name}"]`);
  play.dragStart = svgPoint(event);
}

// Move the lifted piece with the pointer.
function dragMove(event) {
  if (!play.dragPiece || !play.dragFrom) return;
  const p = svgPoint(event);
  play.dragPiece.setAttribute("transform", `translate(${p.x - play.dragStart.x} ${p.y - play.dragStart.y})`);
}

// A release: a drag from one square to another is a move; otherwise the piece goes back.
function squareUp(name) {
  if (play.dragPiece) play.dragPiece.removeAttribute("transform");
  if (play.dragFrom && name && name !== play.dragFrom) tryMove(play.dragFrom, name);
  play.dragFrom = null;
  play.dragPiece = null;
}

// The square under a pointer event, or null.
function squareAt(event) {
  const el = document.elementFromPoint(event.clientX, event.clientY);
  return el && el.dataset ? el.dataset.square || null : null;
}

// Offer the server's configured players as opponents (once), and show the one playing.
function showOpponents(s) {
  const select = $("#opponent");
  const names = s.opponents || [];
  if (select.options.length !== names.length + 1) {
    names.forEach((name, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      option.textContent = name;
      select.appendChild(option);
    });
  }
  $("#opponent-row").hidden = names.length === 0;
  select.value = s.opponent === null || s.opponent === undefined ? "" : String(s.opponent);
  $("#board").dataset.opponent = select.value;
}

// Draw a new state from the server.
function showState(s) {
  play.state = s;
  play.selected = null;
  const board = $("#board");
  board.innerHTML = s.svg;
  board.dataset.fen = s.fen;
  board.dataset.thinking = String(s.thinking);
  board.dataset.plies = String(s.moves.length);
  board.dataset.level = s.depth ? `d${s.depth}` : s.movetime ? `t${s.movetime}` : "inf";
  board.dataset.engineSide = s.engine;
  board.dataset.chess960 = String(s.chess960);
  let text = s.outcome ? `Game over: ${s.outcome}` : `${s.turn === "white" ? "White" : "Black"} to move`;
  if (!s.outcome && s.check) text += " (check)";
  if (s.thinking) text += " — the engine is thinking";
  $("#status").textContent = text;
  $("#engine-side").value = s.engine;
  showOpponents(s);
  const list = $("#moves");
  list.replaceChildren();
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.moves[i] + (s.moves[i + 1] ? "  " + s.moves[i + 1] : "");
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  $("#fen").textContent = s.fen;
  $("#pgn").value = s.pgn;
  $("#promo").hidden = true;
}

onChannel("play", (msg) => {
  if (msg.type === "state") showState(msg);
  else if (msg.type === "thinking") {
    $("#board").dataset.thinking = "true";
    if (play.state) play.state.thinking = true;
    $("#status").textContent += " — the engine is thinking";
  } else if (msg.type === "info") {
    const nps = msg.nps >= 1000 ? `${Math.round(msg.nps / 1000)} kN/s` : `${msg.nps} N/s`;
    const info = $("#info");
    info.textContent = `depth ${msg.depth}/${msg.seldepth}  ${msg.score}  ${msg.nodes} nodes  ${nps}  ${msg.pv}`;
    info.dataset.depth = msg.depth;
  } else if (msg.type === "engine_move") {
    $("#info").dataset.lastEngineMove = msg.uci;
  }
});

// Wire up the board and the buttons.
window.addEventListener("DOMContentLoaded", () => {
  const board = $("#board");
  board.addEventListener("pointerdown", (e) => {
    const sq = squareAt(e);
    if (!sq) return;
    e.preventDefault();
    squareDown(sq);
    if (play.dragFrom === sq) liftPiece(sq, e);
  });
  window.addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", (e) => squareUp(squareAt(e)));
  for (const button of document.querySelectorAll("#promo button")) {
    button.addEventListener("click", () => {
      if (play.pendingPromo) send("play", { type: "move", uci: play.pendingPromo + button.dataset.piece });
      play.pendingPromo = null;
      $("#promo").hidden = true;
    });
  }
  $("#start").onchange = () => { $("#start-number").hidden = $("#start").value !== "number"; };
  $("#new").onclick = () => {
    const start = $("#start").value, message = { type: "new", engine: $("#engine-side").value };
    if (start === "random") message.chess960 = "random";
    // The server checks the number: a bad one gets its error line, the game stays.
    else if (start === "number") message.chess960 = Number($("#start-number").value);
    send("play", message);
  };
  $("#opponent").onchange = () => {
    const v = $("#opponent").value;
    send("play", { type: "opponent", index: v === "" ? null : Number(v) });
  };
  $("#undo").onclick = () => send("play", { type: "undo" });
  $("#flip").onclick = () => send("play", { type: "flip" });
  $("#go").onclick = () => send("play", { type: "go" });
  $("#stop").onclick = () => send("play", { type: "stop" });
  // A FEN is read by the rules the Start choice names.
  $("#fen-load").onclick = () => send("play", { type: "fen", fen: $("#fen-input").value, chess960: $("#start").value !== "standard" });
  $("#level").onchange = () => {
    const v = $("#level").value, n = parseInt(v.slice(1), 10);
    send("play", v === "inf" ? { type: "settings", infinite: true }
      : v[0] === "t" ? { type: "settings", movetime: n } : { type: "settings", depth: n });
  };
  $("#pgn-copy").onclick = () => {
    navigator.clipboard.writeText($("#pgn").value).catch(() => showError("copy failed: select the text and copy it"));
  };
  $("#pgn-download").onclick = () => download("plies-game.pgn", $("#pgn").value);
  $("#pgn-analyse").onclick = () => {
    $("#an-pgn").value = $("#pgn").value;
    $("#an-fen").value = "";
    location.hash = "#analyse";
    $("#an-run").click();
  };
});
