// plies serve: the Arena page. Pick players, start a match or a league, watch it.
"use strict";

(() => {
  const arena = { timer: null, shown: false, players: null };  // players: the list drawn, as JSON

  // A clock's milliseconds as m:ss.t ("" without a clock).
  function clockText(ms) {
    if (ms === null || ms === undefined) return "";
    const tenths = Math.floor(ms / 100);
    const m = Math.floor(tenths / 600);
    const s = Math.floor((tenths % 600) / 10);
    return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
  }

  // Offer the players as checkboxes, the configured ones apart from the built-in ladder;
  // drawn again only when the list changes, so the polling keeps the user's ticks.
  function showPlayers(players) {
    const key = JSON.stringify(players);
    if (arena.players === key) return;
    arena.players = key;
    const box = $("#ar-players");
    const ticked = new Set([...box.querySelectorAll("input:checked")].map((input) => input.value));
    box.querySelectorAll(".group").forEach((group) => group.remove());
    for (const [builtin, caption] of [[false, "From --player:"], [true, "Built in:"]]) {
      const members = players.filter((p) => Boolean(p.builtin) === builtin);
      if (!members.length) continue;
      const group = document.createElement("div");
      group.className = "group";
      const title = document.createElement("span");
      title.className = "small";
      title.textContent = caption;
      group.append(title);
      for (const p of members) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "checkbox";
        input.value = String(p.index);
        input.dataset.name = p.name;
        input.checked = ticked.has(input.value);
        label.append(input, " " + p.name);
        group.append(label);
      }
      box.append(group);
    }
    $("#ar-none").hidden = players.length > 0;
  }

  // Draw the run: live board, clocks, moves, standings, finished games.
  function showRun(run) {
    const status = $("#ar-status");
    if (!run) {
      status.textContent = "Choose two or more players and press Start.";
      return;
    }
    const live = run.live;
    $("#ar-board").innerHTML = live.svg;
    $("#ar-board").dataset.plies = String(live.moves.length);
    $("#ar-board").dataset.fen = live.fen;
    const white = $("#ar-white");
    const black = $("#ar-black");
    // Each side's last reported score, from its own side: "#3" is a mate in three moves.
    const scores = live.scores || ["", ""];
    white.textContent = `White: ${live.white || "?"} ${clockText(live.clocks[0])} ${scores[0]}`;
    black.textContent = `Black: ${live.black || "?"} ${clockText(live.clocks[1])} ${scores[1]}`;
    white.dataset.score = scores[0];
    black.dataset.score = scores[1];
    const whiteToMove = live.fen.split(" ")[1] === "w";
    white.classList.toggle("to-move", run.running && whiteToMove);
    black.classList.toggle("to-move", run.running && !whiteToMove);
    const list = $("#ar-moves");
    list.replaceChildren();
    for (let i = 0; i < live.moves.length; i += 2) {
      const li = document.createElement("li");
      li.textContent = live.moves.slice(i, i + 2).join(" ");
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
    $("#ar-standings").innerHTML = run.standings;  // escaped by the server
    const games = $("#ar-games-list");
    games.replaceChildren(...run.games.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    const state = run.running ? "playing" : "finished";
    status.textContent = `${run.players.join(", ")}: ${run.played} of ${run.scheduled} games ` +
      `(${run.limit}), ${state}` + (run.error ? ` — ${run.error}` : "");
    status.dataset.running = String(run.running);
    status.dataset.played = String(run.played);
  }

  // Ask the server for the state and draw it; poll again while the page is shown.
  async function poll() {
    clearTimeout(arena.timer);
    try {
      const response = await fetch("/api/arena/state");
      const data = await response.json();
      if (!response.ok) throw new Error(data.error);
      showPlayers(data.players);
      showRun(data.run);
    } catch (err) {
      $("#ar-status").textContent = "the server cannot be reached";
    }
    if (arena.shown) arena.timer = setTimeout(poll, 400);
  }

  // The limit the select names, as request fields.
  function limit() {
    const value = $("#ar-limit").value;
    const kind = value[0];
    const rest = value.slice(1);
    if (kind === "m") return { movetime: Number(rest) };
    if (kind === "c") return { tc: rest };
    return { depth: Number(rest) };
  }

  async function start() {
    const chosen = [...document.querySelectorAll("#ar-players input:checked")]
      .map((input) => Number(input.value));
    await api("/api/arena/start", { players: chosen, games: Number($("#ar-games").value), ...limit() })
      .catch(() => {});
    poll();
  }

  async function stop() {
    await api("/api/arena/stop", {}).catch(() => {});
    poll();
  }

  document.addEventListener("plies:page", (e) => {
    arena.shown = e.detail === "arena";
    if (arena.shown) poll();
    else clearTimeout(arena.timer);
  });
  window.addEventListener("DOMContentLoaded", () => {
    $("#ar-start").addEventListener("click", start);
    $("#ar-stop").addEventListener("click", stop);
  });
})();
