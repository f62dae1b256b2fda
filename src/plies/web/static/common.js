// plies serve: shared helpers. Page switching, the tab's websocket, JSON requests, errors.
"use strict";

const plies = {
  handlers: { play: [], analyse: [] },
  ws: null,
  queue: [],
};

// The first element matching a CSS selector.
function $(sel) { return document.querySelector(sel); }

// Show a one-line error for a few seconds.
function showError(message) {
  const box = $("#error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// Switch to the page named by the URL's hash.
function showPage() {
  const name = (location.hash || "#play").slice(1);
  for (const section of document.querySelectorAll(".page")) {
    section.hidden = section.id !== "page-" + name;
  }
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.page === name);
  }
  document.dispatchEvent(new CustomEvent("plies:page", { detail: name }));
}

// Send a message on one channel of the tab's websocket (queued until it is open and ready).
function send(channel, message) {
  const text = JSON.stringify({ channel, ...message });
  if (plies.ws && plies.ws.readyState === WebSocket.OPEN && document.body.dataset.engine === "ready") {
    plies.ws.send(text);
  } else {
    plies.queue.push(text);
  }
}

// Listen for messages of one channel.
function onChannel(channel, handler) { plies.handlers[channel].push(handler); }

// Show the engine's state in the header badge.
function showStatus(msg) {
  document.body.dataset.engine = msg.engine;
  const badge = $("#engine-status");
  if (msg.engine === "ready") badge.textContent = "engine ready";
  else if (msg.engine === "failed") badge.textContent = msg.message;
  else badge.textContent = `compiling the chess engine… ${Math.round(msg.seconds)} s (first run only)`;
  if (msg.engine === "ready") {
    while (plies.queue.length) plies.ws.send(plies.queue.shift());
  }
}

// Open the tab's websocket: this tab's own game and analysis live behind it.
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  plies.ws = ws;
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "status") { showStatus(msg); return; }
    if (msg.type === "error") showError(msg.message);
    for (const handler of plies.handlers[msg.channel || "play"] || []) handler(msg);
  };
  ws.onclose = () => {
    if (document.body.dataset.engine === "failed") return;  // keep the reason on show
    document.body.dataset.engine = "disconnected";
    $("#engine-status").textContent = "disconnected from the server (reload the page)";
  };
}

// POST a JSON request; resolve with the answer, or show its error and reject.
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    showError("the server cannot be reached");
    throw err;
  }
  const data = await response.json();
  if (!response.ok) {
    showError(data.error || `request failed (${response.status})`);
    throw new Error(data.error);
  }
  return data;
}

// Offer text as a file download.
function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

window.addEventListener("hashchange", showPage);
window.addEventListener("DOMContentLoaded", () => { showPage(); connect(); });
