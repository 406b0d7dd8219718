// Drawing a layout on ndoku's page: the canvas, its positions clicked on (a cell, 0) and off
// (no cell, .), the box shape and extra units chosen, jigsaw regions and extra units painted
// letter by letter; all written into the text box as ndoku reads it (header lines, the grid,
// its letter maps) and read back from it, so that the text and the canvas stay in step.
// It uses page.js's helpers ($, input, settle, redraw, pending), loaded before it.
"use strict";

// The drawing, null when the text is no grid of tokens the canvas can show:
//   heads   header and comment lines other than # box and # extra, kept as they are
//   box     "" (found by ndoku), "RxC", "none" (no boxes) or "jigsaw" (a region map)
//   extras  the words of # extra: diagonals, windoku
//   tokens  the grid's tokens, rows × cols: "." no cell, else a cell (its given, or 0)
//   regions the region map (a letter on every cell), or null
//   units   the extra-unit map ("." on the cells in none), or null
//   rest    the blocks after the grid that are no map (rule lines), kept as they are
let drawing = null;
let reading = null; // the drawing of the text, read once typing pauses
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const BARS = /[|¦│┃║╎╏┆┇┊┋]/;
const EXTRAS = ["diagonals", "windoku"]; // what # extra: takes, each with its check box
const REGION_COLOURS = 8; // .canvas button.region-K in page.css

function readDrawing(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const heads = [];
  const extras = [];
  let box = "";
  let k = 0;
  for (; k < lines.length; k++) {
    const line = lines[k].trim();
    if (line === "") continue;
    if (!line.startsWith("#")) break;
    const header = /^#\s*(\w+)\s*:(.*)$/.exec(line);
    const key = header ? header[1].toLowerCase() : null;
    if (key === "box") box = header[2].trim();
    else if (key === "extra") extras.push(...header[2].split(/[\s,]+/).filter(Boolean));
    else heads.push(lines[k]);
  }
  const tokens = [];
  for (; k < lines.length && lines[k].trim() !== ""; k++) {
    if (lines[k].trim().startsWith("#") || BARS.test(lines[k])) return null;
    tokens.push(lines[k].trim().split(/\s+/));
  }
  const cols = tokens.length ? tokens[0].length : 0;
  if (tokens.length < 2 || cols < 2 || tokens.some((row) => row.length !== cols)) return null;
  let regions = null;
  let units = null;
  const rest = [];
  for (;;) {
    while (k < lines.length && lines[k].trim() === "") k++;
    const block = [];
    for (; k < lines.length && lines[k].trim() !== ""; k++) block.push(lines[k]);
    if (!block.length) break;
    const map = readMap(block, tokens);
    if (map !== null && !map.dotted && regions === null) regions = map.letters;
    else if (map !== null && map.dotted && units === null) units = map.letters;
    else rest.push(block.join("\n"));
  }
  if (regions !== null && box === "") box = "jigsaw";
  return { heads, box, extras, tokens, regions, units, rest };
}

function readMap(block, tokens) {
  // a letter map of the grid's shape (letters with or without spaces, "." for none); dotted
  // when a cell has none (extra units), else a region map
  if (block.length !== tokens.length) return null;
  const letters = block.map((line) => {
    const text = line.trim();
    return text.includes(" ") ? text.split(/\s+/) : [...text];
  });
  let dotted = false;
  for (let r = 0; r < letters.length; r++) {
    if (letters[r].length !== tokens[r].length) return null;
    for (let c = 0; c < letters[r].length; c++) {
      const letter = letters[r][c];
      if (letter !== "." && !LETTERS.includes(letter)) return null;
      if (letter !== "." && tokens[r][c] === ".") return null;
      if (letter === "." && tokens[r][c] !== ".") dotted = true;
    }
  }
  return { letters, dotted };
}

function writeDrawing(d) {
  const lines = [...d.heads];
  if (d.box !== "" && d.box !== "jigsaw") lines.push(`# box: ${d.box}`);
  if (d.extras.length) lines.push(`# extra: ${d.extras.join(" ")}`);
  lines.push(...d.tokens.map((row) => row.join(" ")));
  for (const map of [d.regions, d.units]) {
    if (map !== null) lines.push("", ...map.map((row) => row.join(" ")));
  }
  for (const block of d.rest) lines.push("", block);
  return lines.map((line) => `${line}\n`).join("");
}

function boxOf(size) {
  // the most square boxes r × c of N symbols, r ≤ c, r ≥ 2 (as ndoku infers them)
  for (let r = Math.floor(Math.sqrt(size)); r >= 2; r--) {
    if (size % r === 0) return [r, size / r];
  }
  return null;
}

function seedRegions(d) {
  // the boxes as regions to paint over: the chosen shape, else that of the canvas's side
  const chosen = /^(\d+)\s*[x×*]\s*(\d+)$/.exec(d.box);
  const [h, w] = chosen
    ? [Number(chosen[1]), Number(chosen[2])]
    : boxOf(Math.min(d.tokens.length, d.tokens[0].length)) || [d.tokens.length, d.tokens[0].length];
  const across = Math.ceil(d.tokens[0].length / w);
  return d.tokens.map((row, r) =>
    row.map((token, c) =>
      token === "." ? "." : LETTERS[(Math.floor(r / h) * across + Math.floor(c / w)) % LETTERS.length],
    ),
  );
}

function blank(d) {
  return d.tokens.map((row) => row.map(() => "."));
}

function boxChoices(rows, cols) {
  // the boxes ndoku takes on this canvas: every r × c of N up to its shorter side, none, jigsaw
  const list = $("draw-boxes");
  list.innerHTML = "";
  const add = (value, label) => {
    const option = document.createElement("option");
    option.value = value;
    option.label = label;
    list.appendChild(option);
  };
  for (let size = Math.min(rows, cols, 64); size >= 4; size--) {
    for (let r = 2; r <= size / 2; r++) {
      if (size % r === 0) add(`${r}x${size / r}`, `${size}×${size} sub-grids, boxes of ${r} rows × ${size / r} columns`);
    }
  }
  add("none", "no boxes: rows and columns only (Latin squares)");
  add("jigsaw", "jigsaw: regions painted on the canvas");
}

function showDrawing() {
  // the canvas and the choices as the drawing has them
  const canvas = $("canvas");
  canvas.innerHTML = "";
  if (drawing === null) return;
  const d = drawing;
  $("draw-rows").value = d.tokens.length;
  $("draw-cols").value = d.tokens[0].length;
  $("draw-box").value = d.box;
  for (const extra of EXTRAS) $(`draw-${extra}`).checked = d.extras.includes(extra);
  boxChoices(d.tokens.length, d.tokens[0].length);
  d.tokens.forEach((row, r) => {
    const line = document.createElement("div");
    row.forEach((token, c) => {
      const spot = document.createElement("button");
      spot.type = "button";
      spot.dataset.at = `${r},${c}`;
      spot.dataset.test = "draw-cell";
      const region = d.regions ? d.regions[r][c] : ".";
      const unit = d.units ? d.units[r][c] : ".";
      if (token !== ".") spot.classList.add("on");
      if (region !== ".") {
        spot.classList.add(`region-${LETTERS.indexOf(region) % REGION_COLOURS}`);
        spot.dataset.region = region;
      }
      if (unit !== ".") {
        spot.classList.add("unit");
        spot.dataset.unit = unit;
      }
      spot.textContent = unit !== "." ? unit : region !== "." ? region : "";
      spot.addEventListener("click", () => paint(r, c));
      line.appendChild(spot);
    });
    canvas.appendChild(line);
  });
}

function drawn() {
  // the drawing changed: the canvas shows it, the text box gets it, the grid follows
  showDrawing();
  input.value = writeDrawing(drawing);
  settle();
  clearTimeout(pending);
  pending = setTimeout(redraw, 250);
}

function paint(r, c) {
  const d = drawing;
  const mode = $("draw-paint").value;
  const letter = LETTERS.includes($("draw-letter").value) ? $("draw-letter").value : "a";
  const on = d.tokens[r][c] !== ".";
  if (mode === "cells" || !on) {
    d.tokens[r][c] = on ? "." : "0"; // a cell turned off loses its given and its letters
    if (d.regions) d.regions[r][c] = on ? "." : letter;
    if (d.units) d.units[r][c] = ".";
  } else if (mode === "regions") {
    if (d.regions === null) d.regions = seedRegions(d);
    d.regions[r][c] = letter;
    d.box = "jigsaw"; // a region map replaces the boxes
  } else {
    if (d.units === null) d.units = blank(d);
    d.units[r][c] = d.units[r][c] === letter ? "." : letter;
    if (d.units.every((row) => row.every((l) => l === "."))) d.units = null;
  }
  drawn();
}

function fromText() {
  // the text box changed (typed, or set by the page): the canvas follows when it can
  clearTimeout(reading);
  drawing = readDrawing(input.value);
  showDrawing();
}

input.addEventListener("input", () => {
  clearTimeout(reading);
  reading = setTimeout(fromText, 250);
});
input.addEventListener("set", fromText);

$("draw-new").addEventListener("click", () => {
  // a new canvas, every position off, with the choices made; the text follows its first click
  const rows = Math.min(64, Math.max(2, Number($("draw-rows").value) || 9));
  const cols = Math.min(64, Math.max(2, Number($("draw-cols").value) || 9));
  const box = $("draw-box").value.trim();
  const tokens = Array.from({ length: rows }, () => Array(cols).fill("."));
  const extras = EXTRAS.filter((extra) => $(`draw-${extra}`).checked);
  drawing = { heads: [], box, extras, tokens, regions: null, units: null, rest: [] };
  if (box === "jigsaw") drawing.regions = blank(drawing);
  showDrawing();
});

function chooseBox() {
  if (drawing === null) return;
  const box = $("draw-box").value.trim();
  if (box === drawing.box) return;
  drawing.box = box;
  if (box === "jigsaw") {
    drawing.regions = drawing.regions || seedRegions(drawing);
    $("draw-paint").value = "regions";
  } else {
    drawing.regions = null; // boxes and a region map both describe the boxes: one is kept
  }
  drawn();
}

$("draw-box").addEventListener("input", chooseBox);
$("draw-box").addEventListener("change", chooseBox);

for (const extra of EXTRAS) {
  $(`draw-${extra}`).addEventListener("change", () => {
    if (drawing === null) return;
    const others = drawing.extras.filter((word) => word !== extra);
    drawing.extras = $(`draw-${extra}`).checked ? [...others, extra] : others;
    drawn();
  });
}
