// ndoku's page: the text box, the grid drawn by ndoku (SVG), and the buttons that call the API.
// Plain JavaScript, no build step; every request goes to the server that sent the page.
"use strict";

const $ = (id) => document.getElementById(id);
const input = $("input");
let layouts = [];
let hinted = null; // the text once the hinted step is applied
let solution = null; // the solution of the text, once solved
let drawings = 0; // grids drawn so far: a drawing of the text asked before another is dropped
let pending = null; // the drawing of the text, due once typing pauses

async function api(name, body) {
  const response = await fetch(`/api/${name}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch (exc) {
    answer = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(answer.error || response.statusText);
    error.line = answer.line;
    error.column = answer.column;
    throw error;
  }
  return answer;
}

function showError(error) {
  const box = $("error");
  if (error === null) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  let said = `Error: ${error.message}`;
  if (error.line) {
    const lines = input.value.split("\n");
    const text = lines[error.line - 1] || "";
    said += `\n${text}`;
    if (error.column) said += `\n${" ".repeat(error.column - 1)}^`;
    markPlace(lines, error.line, error.column || 1);
  }
  box.textContent = said;
  box.dataset.line = error.line || "";
  box.dataset.column = error.column || "";
  box.hidden = false;
}

function markPlace(lines, line, column) {
  // select the faulty character in the text box (without taking the focus from a button)
  let start = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) start += lines[k].length + 1;
  start += column - 1;
  input.setSelectionRange(start, Math.min(start + 1, input.value.length));
}

function draw(svg) {
  drawings += 1;
  $("grid").innerHTML = svg;
}

function setText(text) {
  // the text box set by the page, not typed: the drawing of a layout follows it too
  input.value = text;
  input.dispatchEvent(new Event("set"));
}

function say(text) {
  $("result").textContent = text;
}

function settle() {
  hinted = null;
  solution = null;
  $("apply").disabled = true;
  $("back").disabled = true;
}

async function busy(work) {
  clearTimeout(pending); // what the button draws wins over the drawing of the text
  document.body.classList.add("busy");
  try {
    showError(null);
    await work();
  } catch (error) {
    showError(error);
  } finally {
    document.body.classList.remove("busy");
  }
}

async function redraw() {
  const text = input.value;
  if (!text.trim()) {
    $("grid").innerHTML = "";
    showError(null);
    return;
  }
  const before = drawings;
  try {
    const answer = await api("picture", { text });
    if (input.value !== text || drawings !== before) return; // typed on, or drawn since
    showError(null);
    draw(answer.svg);
  } catch (error) {
    showError(error);
  }
}

input.addEventListener("input", () => {
  settle();
  $("steps").innerHTML = "";
  clearTimeout(pending);
  pending = setTimeout(redraw, 250);
});

function chainSettings() {
  const settings = { method: $("method").value, seed: Number($("seed").value || 0) };
  if (["auto", "exact"].includes(settings.method)) return settings;
  settings.moves = $("moves").value;
  // hybrid searches first unless a setting of its chain is given: a trace would skip that
  if (settings.method !== "hybrid") settings.trace_every = 1000;
  const t = $("temperature").value;
  if (t !== "") settings.temperature = Number(t);
  return settings;
}

const SVG = "http://www.w3.org/2000/svg";

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function plotTrace(trace) {
  // energy (up) against proposals (right), as the chain's trace gives them
  const figure = $("trace");
  const plot = $("trace-plot");
  plot.innerHTML = "";
  if (!trace || trace.rows.length < 2) { // none, or no proposal made (pruning solved it)
    figure.hidden = true;
    return;
  }
  const rows = trace.rows;
  const width = 520, height = 180, left = 44, bottom = 28;
  const last = rows[rows.length - 1][0] || 1;
  const highest = Math.max(1, ...rows.map((r) => r[1]));
  const x = (p) => left + ((width - left - 8) * p) / last;
  const y = (e) => height - bottom - ((height - bottom - 8) * e) / highest;
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, width, height });
  svg.appendChild(svgElement("path", {
    d: `M${left} 8V${height - bottom}H${width - 8}`, stroke: "#000", fill: "none",
  }));
  const points = rows.map((r) => `${x(r[0]).toFixed(1)},${y(r[1]).toFixed(1)}`).join(" ");
  svg.appendChild(svgElement("polyline", {
    points, stroke: "#1f5fbf", fill: "none", "stroke-width": 1.5, "data-points": rows.length,
  }));
  const label = { "font-size": 11, fill: "#333" };
  svg.appendChild(svgElement("text", { ...label, x: left - 4, y: 16, "text-anchor": "end" }, highest));
  svg.appendChild(svgElement("text", { ...label, x: left - 4, y: height - bottom, "text-anchor": "end" }, 0));
  svg.appendChild(svgElement("text", { ...label, x: width - 8, y: height - 8, "text-anchor": "end" },
    `${last.toLocaleString("en")} proposals`));
  svg.appendChild(svgElement("text", { ...label, x: left + 6, y: 16 }, "energy"));
  plot.appendChild(svg);
  figure.hidden = false;
}

$("solve").addEventListener("click", () =>
  busy(async () => {
    settle();
    const answer = await api("solve", { text: input.value, picture: true, ...chainSettings() });
    const [record] = answer.records;
    draw(answer.svg);
    plotTrace(answer.trace);
    solution = record.solution;
    const s = record.seconds;
    const time = s < 1 ? `${(s * 1000).toFixed(2)} ms` : `${s.toFixed(3)} s`;
    if (record.status === "solved") {
      const unique = record.unique === true ? ", unique" : "";
      say(`solved by ${record.method} in ${time}${unique}`);
    } else {
      say(`${record.status} (${record.method}, ${time})`);
    }
  }),
);

let watching = null; // the AbortController of a watched chain's request
let watchedRun = null; // its name, for POST /api/steer
let steering = null; // the steer due once the slider rests

function showGlimpse(cells, glimpse, rows) {
  // the state on the grid (conflicting cells marked), the energy plotted, the rungs said
  const svg = $("grid").querySelector("svg");
  if (svg) {
    glimpse.values.forEach((value, k) => {
      const label = svg.querySelector(`[data-cell="${cells[k].join(",")}"]`);
      if (label) {
        label.textContent = value;
        label.classList.remove("conflict");
      }
    });
    for (const k of glimpse.conflicts) {
      const label = svg.querySelector(`[data-cell="${cells[k].join(",")}"]`);
      if (label) label.classList.add("conflict");
    }
  }
  rows.push([glimpse.proposals, glimpse.energy]);
  plotTrace({ rows });
  $("rungs").textContent = glimpse.energies
    ? glimpse.temperatures.map((t, r) => `T ${t.toFixed(3)}: ${glimpse.energies[r]}`).join(" · ")
    : "";
  say(`watching: ${glimpse.proposals.toLocaleString("en")} proposals, energy ${glimpse.energy} ` +
    `(best ${glimpse.best}), T ${glimpse.temperature.toFixed(3)}`);
}

async function watchChain() {
  // POST /api/watch: lines of JSON, the cells' places, glimpses as the chain runs, the answer
  const settings = chainSettings();
  settings.method = settings.method === "tempering" ? "tempering" : "metropolis";
  delete settings.trace_every;
  if (settings.method === "tempering") {
    delete settings.moves;
    delete settings.temperature;
  }
  const text = input.value;
  draw((await api("picture", { text })).svg);
  plotTrace(null); // the plot of an earlier run goes; this run's comes with its first glimpse
  $("rungs").textContent = "";
  watching = new AbortController();
  $("stop").disabled = false;
  $("chain").disabled = true;
  const rows = [];
  let cells = null;
  try {
    const response = await fetch("/api/watch", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text, ...settings }),
      signal: watching.signal,
    });
    if (!response.ok) {
      const answer = await response.json();
      const error = new Error(answer.error || response.statusText);
      error.line = answer.line;
      error.column = answer.column;
      throw error;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) {
        if (!line.trim()) continue;
        const record = JSON.parse(line);
        if (record.cells) {
          cells = record.cells;
          watchedRun = record.run;
          $("steer").disabled = settings.method !== "metropolis";
        } else if (record.glimpse) {
          if (rows.length === 0) $("steer").value = record.glimpse.temperature;
          $("steer-t").textContent = record.glimpse.temperature.toFixed(2);
          showGlimpse(cells, record.glimpse, rows);
        }
        else if (record.error) throw new Error(record.error);
        else if (record.records) {
          const [done] = record.records;
          draw(record.svg);
          plotTrace(record.trace);
          solution = done.status === "solved" ? done.solution : null;
          say(`${done.status} by ${done.method}: ${done.proposals.toLocaleString("en")} proposals, ` +
            `energy ${done.energy} (${done.stop})`);
        }
      }
    }
  } catch (error) {
    if (error.name !== "AbortError") throw error;
    say(`stopped by you after ${rows.length ? rows[rows.length - 1][0].toLocaleString("en") : 0} proposals`);
  } finally {
    watching = null;
    watchedRun = null;
    $("stop").disabled = true;
    $("steer").disabled = true;
    $("chain").disabled = false;
  }
}

for (const id of ["save-fpuzzles", "save-sudokupad"]) {
  // the puzzle as a link that opens it there (shown to copy: this page asks nothing of them)
  $(id).addEventListener("click", () =>
    busy(async () => {
      const answer = await api("link", { text: input.value, to: $(id).dataset.to });
      const box = $("link");
      box.value = answer.link;
      box.hidden = false;
      box.select();
    }),
  );
}

$("steer").addEventListener("input", () => {
  // the chain takes the slider's temperature at its next look, once the slider rests
  clearTimeout(steering);
  steering = setTimeout(async () => {
    if (!watchedRun) return;
    try {
      await api("steer", { run: watchedRun, temperature: Number($("steer").value) });
    } catch (error) {
      showError(error);
    }
  }, 100);
});

$("chain").addEventListener("click", async () => {
  // not busy(): the page stays live while the chain runs (Stop, the slider)
  clearTimeout(pending);
  showError(null);
  settle();
  try {
    await watchChain();
  } catch (error) {
    showError(error);
  }
});

$("stop").addEventListener("click", () => {
  if (watching) watching.abort();
});

$("count").addEventListener("click", () =>
  busy(async () => {
    const answer = await api("count", { text: input.value });
    const said = answer.records.map((r) => `${r.at_least ? "≥" : ""}${r.count} (${r.stop})`);
    say(`solutions: ${said.join(", ")}`);
  }),
);

$("hint").addEventListener("click", () =>
  busy(async () => {
    const answer = await api("hint", { text: input.value, picture: true });
    const [record] = answer.records;
    draw(answer.svg);
    say(record.text);
    hinted = answer.applied;
    $("apply").disabled = hinted === null;
    $("back").disabled = record.step === null;
  }),
);

$("apply").addEventListener("click", () =>
  busy(async () => {
    if (hinted === null) return;
    setText(hinted);
    settle();
    await redraw();
  }),
);

$("back").addEventListener("click", () =>
  busy(async () => {
    settle();
    say("");
    await redraw();
  }),
);

$("explain").addEventListener("click", () =>
  busy(async () => {
    settle();
    const answer = await api("explain", { text: input.value, picture: true });
    const steps = answer.records.slice(0, -1);
    const summary = answer.records[answer.records.length - 1];
    const list = $("steps");
    list.innerHTML = "";
    const text = input.value;
    for (const step of steps) {
      const item = document.createElement("li");
      item.textContent = step.text;
      item.dataset.step = step.step;
      // a click shows the grid before this step, the step marked
      item.addEventListener("click", () =>
        busy(async () => {
          const at = await api("explain", { text, picture: true, at: step.step });
          draw(at.svg);
          for (const other of list.children) other.classList.toggle("chosen", other === item);
        }),
      );
      list.appendChild(item);
    }
    draw(answer.svg);
    const hardest = summary.hardest ? `; hardest: ${summary.hardest} (${summary.rating})` : "";
    say(`${summary.stop} in ${summary.steps} steps${hardest}`);
  }),
);

$("rate").addEventListener("click", () =>
  busy(async () => {
    const [record] = (await api("rate", { text: input.value })).records;
    const level = record.level === null ? "unrated" : `${record.level}, score ${record.score}`;
    say(`${level}; hardest: ${record.hardest}; ${record.steps} steps, ${record.guesses} guesses`);
  }),
);

$("generate").addEventListener("click", () =>
  busy(async () => {
    settle();
    const ask = {
      layout: $("gen-layout").value,
      symmetry: $("symmetry").value,
      seed: Number($("seed").value || 0),
      picture: true,
    };
    if ($("difficulty").value) ask.difficulty = $("difficulty").value;
    if ($("rules").value) ask.rules = $("rules").value;
    const [record] = (await api("generate", ask)).records;
    setText(record.puzzle);
    await redraw();
    say(`${record.givens} givens, ${record.rating.level} (stop: ${record.stop})`);
  }),
);

// Typing on the drawn grid: a click chooses a cell, arrows move, a symbol writes it as a
// given, Delete, Backspace or . clears it; the text box gets each change (POST /api/edit).
let selected = null; // [row, col] on the canvas

function cellNear(event) {
  const svg = $("grid").querySelector("svg");
  if (!svg) return null;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  let nearest = Infinity;
  for (const label of svg.querySelectorAll("[data-cell]")) {
    const size = Number(label.parentNode.getAttribute("font-size"));
    const dx = Number(label.getAttribute("x")) - at.x;
    const dy = Number(label.getAttribute("y")) - 0.36 * size - at.y; // its centre, above its baseline
    if (dx * dx + dy * dy < nearest) {
      nearest = dx * dx + dy * dy;
      best = label;
    }
  }
  return best === null ? null : best.dataset.cell.split(",").map(Number);
}

function markSelected() {
  const svg = $("grid").querySelector("svg");
  if (!svg) return;
  svg.querySelector("rect.selected")?.remove();
  if (selected === null) return;
  const label = svg.querySelector(`[data-cell="${selected.join(",")}"]`);
  if (!label) return;
  const size = Number(label.parentNode.getAttribute("font-size"));
  const side = size / 0.62; // a value is 0.62 of its cell (ndoku/picture/drawing.py)
  const box = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  box.setAttribute("class", "selected");
  box.setAttribute("x", Number(label.getAttribute("x")) - side / 2);
  box.setAttribute("y", Number(label.getAttribute("y")) - 0.36 * size - side / 2);
  box.setAttribute("width", side);
  box.setAttribute("height", side);
  box.setAttribute("fill", "none");
  box.setAttribute("stroke", "#1f5fbf");
  box.setAttribute("stroke-width", side / 10);
  svg.appendChild(box);
}

$("grid").addEventListener("click", (event) => {
  selected = cellNear(event);
  markSelected();
  $("grid").focus();
});

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

$("grid").addEventListener("keydown", (event) => {
  if (selected === null || event.ctrlKey || event.metaKey || event.altKey) return;
  const move = MOVES[event.key];
  if (move) {
    event.preventDefault();
    const svg = $("grid").querySelector("svg");
    for (let k = 1; k < 100; k++) { // the next cell that way, past any gap of the canvas
      const next = [selected[0] + k * move[0], selected[1] + k * move[1]];
      if (next[0] < 0 || next[1] < 0) break;
      if (svg.querySelector(`[data-cell="${next.join(",")}"]`)) {
        selected = next;
        break;
      }
    }
    markSelected();
    return;
  }
  const clear = ["Delete", "Backspace", "."].includes(event.key);
  if (!clear && event.key.length !== 1) return;
  event.preventDefault();
  const value = clear ? "" : event.key.toUpperCase();
  busy(async () => {
    const [row, col] = selected;
    const answer = await api("edit", { text: input.value, row, col, value });
    setText(answer.text);
    settle();
    await redraw();
    markSelected();
  });
});

$("layout").addEventListener("change", () => {
  const chosen = layouts.find((l) => l.layout === $("layout").value);
  if (!chosen) return;
  setText(chosen.text);
  settle();
  redraw();
});

$("file").addEventListener("change", async () => {
  const [file] = $("file").files;
  if (!file) return;
  // the file is read here and sent as text: the server opens no path a client names
  setText(await file.text());
  settle();
  redraw();
});

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

$("save-text").addEventListener("click", () => {
  const text = solution === null ? input.value : `${solution}\n`;
  save(new Blob([text], { type: "text/plain" }), "puzzle.txt");
});

for (const id of ["save-svg", "save-png", "save-pdf"]) {
  $(id).addEventListener("click", () =>
    busy(async () => {
      const format = $(id).dataset.format;
      const ask = { text: input.value, format };
      if (solution !== null) ask.values = solution;
      const response = await fetch("/api/download", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(ask),
      });
      if (!response.ok) {
        const answer = await response.json();
        const error = new Error(answer.error);
        error.line = answer.line;
        error.column = answer.column;
        throw error;
      }
      save(await response.blob(), `puzzle.${format}`);
    }),
  );
}

async function start() {
  try {
    layouts = (await api("layouts")).records;
  } catch (error) {
    showError(error);
    return;
  }
  for (const select of [$("layout"), $("gen-layout")]) {
    for (const l of layouts) {
      const option = document.createElement("option");
      option.value = l.layout;
      option.textContent = `${l.layout} (${l.description.split(":")[0]})`;
      select.appendChild(option);
    }
  }
  $("gen-layout").value = "9x9";
  document.body.dataset.ready = "yes";
}

start();
