// The tablebase page: pick a game, see its board, make moves by clicking on it or
// from the list, follow the line of perfect play, play against perfect play or
// each other, edit positions. Every board, value and move comes from the server;
// this file knows no game.
'use strict';

const $ = (id) => document.getElementById(id);

async function api(path) {
  const response = await fetch(path);
  const type = response.headers.get('content-type') || '';
  const body = type.includes('json') ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, body };
}

const app = {
  games: [],
  game: null,
  options: {},
  mode: 'explore',
  players: ['human', 'computer'],
  // How the computer plays: its level, and where it searches (Abapa beyond the
  // tables) the algorithm and depth ('' for timed).
  computer: { level: 10, algorithm: 'alphabeta', depth: '' },
  // The moves played since the position the trail starts from; kept in the
  // browser's history, so that back and forward restore it.
  trail: { start: '', moves: [] },
  view: null,
  selection: [],
  tool: null,
  editing: false,
  hint: false,
  previews: new Map(),
  // The move whose position the board shows instead of the one played.
  previewing: null,
  // The board seen from the other side, where the game draws it so.
  flipped: false,
  busy: false,
  // The deepest step of this page's history ahead of or at the current one.
  furthest: 0,
};
window.app = app;

// --- the trail of moves: whose turn, who owns what, what each side took ---

function position() {
  const moves = app.trail.moves;
  return moves.length ? moves[moves.length - 1].position : app.trail.start;
}

// Who is to move, who owns which scored places and what each side has taken
// after `moves` (by default the moves played).
function derived(moves = app.trail.moves) {
  let seat = 0;
  const owners = {};
  const taken = [0, 0];
  for (const m of moves) {
    for (const place of m.scored || []) owners[place] = seat + 1;
    taken[seat] += m.gain || 0;
    if (!m.moves_again) seat = 1 - seat;
  }
  return { seat, owners, taken };
}

// What the board marks after `moves`: owners, what each side has taken (from
// the mover's side), and the places of the last move.
function marksAfter(moves) {
  const { seat, owners, taken } = derived(moves);
  const last = moves.length ? moves[moves.length - 1].landed || [] : [];
  return { owners, taken: moves.length ? [taken[seat], taken[1 - seat]] : null, last };
}

function optionQuery() {
  return Object.entries(app.options)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('');
}

function base() {
  return `/api/v1/${encodeURIComponent(app.game.game)}`;
}

function viewUrl(pos, marks) {
  let url = `${base()}/view?position=${encodeURIComponent(pos)}${optionQuery()}`;
  if (app.flipped && app.game.flips) url += '&flip=yes';
  if (marks) {
    const owners = Object.entries(marks.owners).map(([p, s]) => `${p}:${s}`).join(',');
    if (owners) url += `&owners=${encodeURIComponent(owners)}`;
    if (marks.taken) url += `&taken=${marks.taken.join(',')}`;
    if (marks.last && marks.last.length) url += `&last=${encodeURIComponent(marks.last.join(','))}`;
  }
  return url;
}

// --- the address: every position has its own URL ---

function pageUrl() {
  const params = new URLSearchParams();
  params.set('game', app.game.game);
  for (const [k, v] of Object.entries(app.options)) if (v !== '') params.set(k, v);
  params.set('position', position());
  if (app.flipped && app.game.flips) params.set('flip', 'yes');
  if (app.mode === 'play') {
    params.set('mode', 'play');
    params.set('players', app.players.join(','));
    for (const [k, v] of Object.entries(computerSettings())) params.set(k, v);
  }
  return `/?${params}`;
}

// How many steps of this page the browser can go back.
function depth() {
  return (history.state && history.state.depth) || 0;
}

function canGoBack() {
  return depth() > 0;
}

// Whether this page has a step ahead to go forward to: one that was left by
// going back, and not dropped since by a new step.
function canGoForward() {
  return depth() < app.furthest;
}

function remember(push) {
  const state = { game: app.game.game, options: app.options, trail: app.trail, mode: app.mode, players: app.players, computer: app.computer, flipped: app.flipped, depth: depth() + (push ? 1 : 0) };
  if (push) app.furthest = state.depth;
  if (push) history.pushState(state, '', pageUrl());
  else history.replaceState(state, '', pageUrl());
}

// --- drawing ---

// In play mode nothing tells the players the values until they ask for a hint
// or the game is over.
function concealed() {
  return app.mode === 'play' && !app.hint && !(app.view && app.view.over);
}

function valueClass(value) {
  if (!value) return 'unknown';
  if ('score' in value) return value.score > 0 ? 'win' : value.score < 0 ? 'loss' : 'draw';
  return value.value;
}

function sameValue(a, b) {
  if (!a || !b) return false;
  if ('score' in a) return a.score === b.score;
  return a.value === b.value && a.distance === b.distance;
}

function groupName(value) {
  if (!value) return 'moves';
  if ('score' in value) return `score ${value.score > 0 ? '+' : ''}${value.score}`;
  return { win: 'winning moves', draw: 'drawing moves', loss: 'losing moves' }[value.value];
}

function showBoard(svg) {
  const board = $('board');
  board.innerHTML = svg || '';
  for (const el of board.querySelectorAll('[data-place]')) {
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', el.getAttribute('data-place'));
  }
  markSelection();
}

// Where the board's colours mean sides (the pieces of the side to move and
// of the other), whose is which.
function showLegend(view) {
  const legend = $('legend');
  legend.innerHTML = '';
  const pieces = [['.mine', 0], ['.theirs', 1]]
    .map(([selector, other]) => [$('board').querySelector(selector), other])
    .filter(([el]) => el);
  legend.hidden = !pieces.length || !view.board;
  const { seat } = derived();
  for (const [el, other] of pieces) {
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = getComputedStyle(el).fill;
    const who = sideName(view, other ? 1 - seat : seat, seat);
    legend.append(swatch, ` ${who}${other ? '' : ' (to move)'} `);
  }
}

function markSelection() {
  for (const el of $('board').querySelectorAll('[data-place]')) {
    el.classList.toggle('selected', app.selection.includes(el.getAttribute('data-place')));
  }
}

// A side in the game's words: `White (human)`, `the first player`.
function sideName(view, seat, moverSeat) {
  const player = app.mode === 'play' ? ` (${app.players[seat]})` : '';
  if (view.sides) return `${view.sides[seat === moverSeat ? 0 : 1]}${player}`;
  return `the ${['first', 'second'][seat]} player${player}`;
}

function turnText(view) {
  const { seat, taken } = derived();
  const score = 'score' in (view.answer || {}) || app.trail.moves.some((m) => m.gain);
  let text = view.over ? 'The game is over.' : `To move: ${sideName(view, seat, seat)}.`;
  if (score) text += ` Taken: first ${taken[0]}, second ${taken[1]}.`;
  if (view.over && view.answer) text += ' ' + result(view, seat, taken);
  if (!concealed() && view.answer && view.answer.source === 'formula' && view.answer.why) {
    text += ` By the formula (${view.answer.why})`;
    text += view.answer.nim_sum === undefined || view.answer.nim_sum === null ? '.' : `, nim-sum ${view.answer.nim_sum}.`;
  }
  return text;
}

function result(view, seat, taken) {
  const value = view.answer;
  let winner = null;
  if ('score' in value) {
    const t = [...taken];
    if (value.score >= 0) t[seat] += value.score; else t[1 - seat] -= value.score;
    winner = t[0] > t[1] ? 0 : t[1] > t[0] ? 1 : null;
  } else if (value.value === 'win') winner = seat;
  else if (value.value === 'loss') winner = 1 - seat;
  if (winner === null) return 'Drawn.';
  const name = sideName(view, winner, seat);
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} wins.`;
}

function showMoves(view) {
  const list = $('moves');
  list.innerHTML = '';
  const valued = view.answer && view.answer.moves;
  const hidden = concealed();
  const groups = new Map();
  view.moves.forEach((m, i) => {
    let value = valued ? valued[i] : null;
    if (!valued && view.answer && view.answer.source === 'formula') {
      value = { value: m.said ? 'win' : 'loss', distance: null };
    }
    const key = hidden ? 'moves' : groupName(value);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ m, value });
  });
  // Best first would give the game away: in play, by name.
  if (hidden) groups.get('moves')?.sort((a, b) => a.m.move.localeCompare(b.m.move, 'en', { numeric: true }));
  for (const [name, entries] of groups) {
    const group = document.createElement('div');
    group.className = 'group';
    group.innerHTML = `<h3>${name}</h3><ul></ul>`;
    for (const { m, value } of entries) {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `move ${valueClass(value)}`;
      if (!hidden && view.answer && sameValue(value, view.answer)) button.classList.add('best');
      button.dataset.move = m.move;
      if (m.verdict && !hidden) button.classList.replace(valueClass(value), m.verdict.outcome);
      if (hidden) button.classList.replace(valueClass(value), 'unknown');
      // A hidden value is left out of the document, not drawn invisible:
      // its width, a screen reader and a copy would tell it.
      button.innerHTML = hidden ? '<span class="name"></span>' : '<span class="name"></span><span class="value"></span>';
      button.querySelector('.name').textContent = m.move;
      if (!hidden) button.querySelector('.value').textContent = m.said || (value && value.distance === null && value.value ? (value.value === 'win' ? 'wins' : 'loses') : '');
      for (const other of hidden ? [] : view.beside || []) {
        const found = other.moves.find((b) => b.move === m.move);
        if (!found) continue;
        const span = document.createElement('span');
        span.className = `value beside ${found.verdict ? found.verdict.outcome : ''}`;
        span.textContent = found.said;
        span.title = `${other.option} ${other.value}${found.verdict ? `: ${found.verdict.said}` : ''}`;
        button.appendChild(span);
      }
      button.addEventListener('click', () => humanMove(m));
      // A preview follows the pointer moving onto a move, not a list redrawn
      // under a pointer standing still (after a click), nor a mouse press.
      button.addEventListener('pointermove', () => preview(m));
      button.addEventListener('focus', () => { if (button.matches(':focus-visible')) preview(m); });
      button.addEventListener('mouseleave', endPreview);
      button.addEventListener('blur', endPreview);
      li.appendChild(button);
      group.querySelector('ul').appendChild(li);
    }
    list.appendChild(group);
  }
  list.classList.toggle('hidden-values', hidden);
}

async function preview(m) {
  if (app.editing || app.busy || !humansTurn() || app.previewing === m) return;
  app.previewing = m;
  const pos = position();
  let view = app.previews.get(m.position);
  if (!view) {
    const answer = await api(viewUrl(m.position, marksAfter([...app.trail.moves, m])));
    if (!answer.ok) return;
    view = answer.body;
    app.previews.set(m.position, view);
  }
  // A move made, or the pointer gone, while the preview was fetched: the
  // board shows the position as it is.
  if (pos !== position() || app.previewing !== m) return;
  $('board').innerHTML = view.board;
  $('board').classList.add('previewing');
  $('preview-note').hidden = false;
  $('preview-move').textContent = concealed() || !m.said ? m.move : `${m.move} (${m.said})`;
}

function endPreview() {
  app.previewing = null;
  if (!$('board').classList.contains('previewing')) return;
  $('board').classList.remove('previewing');
  $('preview-note').hidden = true;
  if (app.view) showBoard(app.view.board);
}

async function showLine(pos) {
  $('line').innerHTML = '';
  $('line-end').textContent = '';
  $('record').hidden = true;
  const hidden = concealed();
  $('line-box').hidden = hidden;
  if (hidden) return;
  // A position nothing answers (beyond the tables) has no line to ask for.
  if (app.view && !app.view.answer && !app.view.over) {
    $('line-end').textContent = 'No line: nothing answers this position exactly.';
    return;
  }
  const answer = await api(`${base()}/line?position=${encodeURIComponent(pos)}${optionQuery()}`);
  if (pos !== position()) return;
  if (!answer.ok) {
    $('line-end').textContent = answer.body.error || 'no line';
    return;
  }
  answer.body.line.forEach((step, i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '#';
    a.textContent = step.move;
    a.dataset.ply = i;
    a.addEventListener('click', (e) => { e.preventDefault(); followLine(answer.body.line.slice(0, i + 1)); });
    const value = document.createElement('span');
    value.className = 'value';
    value.textContent = 'score' in step ? `score ${step.score > 0 ? '+' : ''}${step.score}` : step.distance === null ? step.value : `${step.value} in ${step.distance}`;
    li.append(a, value);
    $('line').appendChild(li);
  });
  const scored = answer.body.line.some((step) => 'score' in step);
  $('line-end').textContent = `${answer.body.line.length} plies: ${answer.body.end}.${scored ? ' Each score is the margin still to come for the player who made that move, with perfect play from there on; what is already taken is not in it.' : ''}`;
  const record = $('record');
  if (app.game.record) {
    record.hidden = false;
    record.textContent = `the line as ${app.game.record.toUpperCase()}`;
    record.href = `${base()}/line?position=${encodeURIComponent(pos)}${optionQuery()}&format=${app.game.record}`;
  } else record.hidden = true;
}

// How good the position after a ply is for the first player, from -1 (lost
// at once) to 1 (won at once), 0 a draw: the quicker the win or loss, the
// further from the middle; values known only as win or loss sit at 1 or -1;
// scores are scaled by the largest.
function firstPlayerValues(moves) {
  const points = [];
  let seat = 0;
  for (const m of moves) {
    points.push({ value: m.value, sign: seat === 0 ? 1 : -1 });
    if (!m.moves_again) seat = 1 - seat;
  }
  const longest = Math.max(1, ...points.map((p) => (p.value && p.value.distance) || 0));
  const most = Math.max(1, ...points.map((p) => (p.value && 'score' in p.value ? Math.abs(p.value.score) : 0)));
  return points.map(({ value, sign }) => {
    if (!value) return null;
    if ('score' in value) return (sign * value.score) / most;
    if (value.value === 'draw') return 0;
    const won = value.value === 'win' ? 1 : -1;
    if (value.distance === null || value.distance === undefined) return sign * won;
    return sign * won * (0.25 + (0.75 * (longest + 1 - value.distance)) / (longest + 1));
  });
}

function showChart() {
  const chart = $('chart');
  const moves = app.trail.moves;
  if (!moves.length) {
    chart.textContent = 'No moves played yet: make one on the board or from the list.';
    return;
  }
  if (concealed()) {
    chart.textContent = 'The values of the moves played are shown when the game is over, or with a hint.';
    return;
  }
  const points = firstPlayerValues(moves);
  if (points.every((p) => p === null)) {
    chart.textContent = 'The moves played are beyond the tables: their values are not known.';
    return;
  }
  const view = app.view || {};
  const first = view.sides ? view.sides[derived().seat === 0 ? 0 : 1] : 'the first player';
  const width = 600, height = 200, left = 40, right = 12, top = 22, bottom = 34;
  const plot = height - top - bottom;
  const x = (i) => left + (moves.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (moves.length - 1));
  const y = (v) => top + plot / 2 - (v * plot) / 2;
  const path = points.map((v, i) => (v === null ? '' : `${x(i)},${y(v)}`)).filter(Boolean).join(' ');
  const said = (m) => (m.value ? ('score' in m.value ? `score ${m.value.score > 0 ? '+' : ''}${m.value.score}` : m.value.distance === null || m.value.distance === undefined ? m.value.value : `${m.value.value} in ${m.value.distance}`) : 'value unknown');
  const dots = points.map((v, i) => (v === null ? '' :
    `<circle cx="${x(i)}" cy="${y(v)}" r="6" stroke="transparent" stroke-width="10" data-ply="${i + 1}" tabindex="0" role="button" fill="${v > 0 ? 'var(--win)' : v < 0 ? 'var(--loss)' : 'var(--draw)'}"><title>ply ${i + 1}: ${moves[i].move}, ${said(moves[i])} for its player; go to this position</title></circle>`)).join('');
  const every = Math.max(1, Math.ceil(moves.length / 12));
  const ticks = moves.map((m, i) => (i % every && i !== moves.length - 1 ? '' : `<text x="${x(i)}" y="${height - bottom + 14}" font-size="11" text-anchor="middle">${i + 1}</text>`)).join('');
  chart.innerHTML = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="value for ${first} after each ply">
    <line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" stroke="currentColor" stroke-opacity=".4"/>
    <line x1="${left}" y1="${top}" x2="${left}" y2="${top + plot}" stroke="currentColor" stroke-opacity=".4"/>
    <text x="${left + 4}" y="${top - 8}" font-size="12">${first} wins (higher: sooner)</text>
    <text x="${left - 6}" y="${y(0) + 4}" font-size="11" text-anchor="end">draw</text>
    <text x="${left + 4}" y="${height - 4}" font-size="12">${first} loses (lower: sooner) &#183; ply</text>
    ${ticks}
    <polyline points="${path}" fill="none" stroke="var(--accent)" stroke-width="2" pointer-events="none"/>${dots}</svg>`;
  // The moves played beside, each going back to the position after it; back
  // and forward (or the arrow keys) undo and redo.
  const played = document.createElement('ol');
  played.id = 'played';
  moves.forEach((m, i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '#';
    a.dataset.ply = String(i + 1);
    a.textContent = m.move;
    if (i === moves.length - 1) a.setAttribute('aria-current', 'step');
    li.append(`${i + 1}. `, a);
    played.appendChild(li);
  });
  chart.appendChild(played);
  for (const target of chart.querySelectorAll('[data-ply]')) {
    const go = (e) => { e.preventDefault(); goToPly(Number(target.dataset.ply)); };
    target.addEventListener('click', go);
    target.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') go(e); });
  }
}

// Back to the position after ply `n` of the moves played, as a new step of
// the browser's history.
function goToPly(n) {
  if (n === app.trail.moves.length) return;
  app.trail = { start: app.trail.start, moves: app.trail.moves.slice(0, n) };
  app.previews.clear();
  remember(true);
  render();
}

// A count with thousands separators, and its noun in the singular or plural.
function count(n, noun) {
  const text = Number(n).toLocaleString('en');
  const plural = noun === 'ply' ? 'plies' : `${noun}s`;
  return noun === undefined ? text : `${text} ${Number(n) === 1 ? noun : plural}`;
}

async function showStats() {
  const box = $('stats');
  box.textContent = 'reading the tables ...';
  const answer = await api(`${base()}/stats?${optionQuery().slice(1)}`);
  if (!answer.ok) { box.textContent = answer.body.error; return; }
  box.innerHTML = '';
  const present = answer.body.tables.filter((t) => t.present);
  if (!present.length) { box.textContent = answer.body.tables.length ? 'No table of this variant is in the folder.' : 'This game keeps no tables: every position is answered on demand.'; return; }
  for (const t of present) box.appendChild(t.error ? unreadable(t) : statTable(t));
}

// A table in the folder that could not be read, and why.
function unreadable(t) {
  const p = document.createElement('p');
  p.className = 'unreadable';
  p.textContent = `${t.file} cannot be read: ${t.error}`;
  return p;
}

// One table's figures: counts with their shares, the longest distance, size
// and solve time, the game's own figures (an example position opens on the
// board), and the histogram of values.
function statTable(t) {
  const s = t.summary;
  const div = document.createElement('div');
  div.className = 'stat-table';
  const words = s.encoding.startsWith('score') ? ['won', 'lost', 'tied'] : ['won', 'lost', 'drawn'];
  div.innerHTML = `<h4></h4><p class="counts"></p><dl></dl>`;
  div.querySelector('h4').textContent = t.file;
  const pct = (n) => (s.positions ? ` (${((100 * n) / s.positions).toFixed(1)}%)` : '');
  div.querySelector('.counts').textContent = `${count(s.positions, 'position')}: ${count(s.wins)} ${words[0]}${pct(s.wins)}, ${count(s.losses)} ${words[1]}${pct(s.losses)}, ${count(s.draws)} ${words[2]}${pct(s.draws)} for the side to move; longest ${count(s.longest, 'ply')}; ${count(s.bytes, 'byte')}, solved in ${s.solve_seconds.toFixed(1)} s`;
  const facts = div.querySelector('dl');
  for (const [name, text] of Object.entries(s.extra || {})) {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    const example = text.match(/^(.*, e\.g\. )(.+)$/);
    // Counts grouped by thousands, as the line above writes them.
    const grouped = (words) => words.replace(/\b\d{4,}\b/g, (n) => count(n));
    if (example) {
      dd.append(grouped(example[1]));
      const a = document.createElement('a');
      a.textContent = example[2];
      a.href = `/?game=${encodeURIComponent(s.game)}${optionQuery()}&position=${encodeURIComponent(example[2])}`;
      dd.append(a);
    } else dd.textContent = grouped(text);
    facts.append(dt, dd);
  }
  div.insertAdjacentHTML('beforeend', histogram(t.histogram));
  return div;
}

// Positions by value as labelled bars: the count of each on hover, the
// values along the bottom. Where one value holds far more positions than most
// (the draws of a large table), the heights are on a log scale, with a tick
// at each power of ten, so the rest still show.
function histogram(bars) {
  if (!bars.length) return '';
  const total = bars.reduce((sum, [, n]) => sum + n, 0);
  const most = Math.max(1, ...bars.map(([, n]) => n));
  const sorted = bars.map(([, n]) => n).sort((a, b) => a - b);
  const log = most > 20 * Math.max(1, sorted[Math.floor(sorted.length / 2)]);
  const width = 600, left = 70, right = 24, top = 12, plot = 100, w = (width - left - right) / bars.length;
  const scale = (n) => (log ? Math.log10(1 + n) / Math.log10(1 + most) : n / most);
  const rects = bars.map(([label, n], i) => {
    const h = Math.max(1, scale(n) * plot);
    const colour = label.startsWith('win') || label.startsWith('+') ? 'var(--win)' : label.startsWith('loss') || label.startsWith('-') ? 'var(--loss)' : 'var(--draw)';
    return `<rect x="${left + i * w}" y="${top + plot - h}" width="${Math.max(1, w - 1)}" height="${h}" fill="${colour}"><title>${label}: ${count(n, 'position')} (${((100 * n) / Math.max(1, total)).toFixed(1)}%)</title></rect>`;
  }).join('');
  const every = Math.max(1, Math.ceil(bars.length / 8));
  // Every other label is fine print, left out where the page is narrow.
  const labels = bars.map(([label], i) => (i % every ? '' : `<text x="${left + i * w + w / 2}" y="${top + plot + 14}" font-size="11" text-anchor="middle"${i % (2 * every) ? ' class="fine"' : ''}>${label}</text>`)).join('');
  const powers = [];
  for (let p = 1; log && p <= most; p *= 10) powers.push(p);
  const ticks = (log ? powers.filter((p, i) => i % Math.ceil(powers.length / 5) === 0 || p === powers[powers.length - 1]) : [most])
    .map((n) => `<text x="${left - 6}" y="${top + plot - scale(n) * plot + 4}" font-size="11" text-anchor="end">${log ? `10${sup(Math.log10(n))}` : count(n)}</text>`).join('');
  return `<svg viewBox="0 0 ${width} ${top + plot + 36}" role="img" aria-label="positions by value${log ? ', log scale' : ''}" class="histogram">
    ${ticks}
    ${log ? '' : `<text x="${left - 6}" y="${top + plot}" font-size="11" text-anchor="end">0</text>`}
    <line x1="${left}" y1="${top + plot}" x2="${width - right}" y2="${top + plot}" stroke="currentColor" stroke-width="0.5"/>
    <line x1="${left}" y1="${top}" x2="${left}" y2="${top + plot}" stroke="currentColor" stroke-width="0.5"/>
    <text x="${left + (width - left - right) / 2}" y="${top + plot + 32}" font-size="11" text-anchor="middle">value for the side to move${log ? '; positions on a log scale' : ''}</text>
    ${rects}${labels}</svg>`;
}

// A whole number as superscript digits, for powers of ten.
function sup(n) {
  return String(Math.round(n)).split('').map((d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]).join('');
}

// --- showing a position ---

async function render() {
  closeChoice();
  const pos = position();
  const marks = marksAfter(app.trail.moves);
  $('position').value = pos;
  const answer = await api(viewUrl(pos, marks));
  if (pos !== position()) return;
  // A position refused comes with the board as far as it can be drawn.
  const drawn = answer.ok || answer.body.position !== undefined;
  const view = drawn ? answer.body : { board: '', moves: [], error: answer.body.error, over: false };
  app.view = view;
  app.selection = [];
  if (view.position) $('position').value = view.position;
  // `start` names a position: the trail and the address say which.
  if (!app.trail.moves.length && app.trail.start !== view.position && answer.ok) {
    app.trail = { start: view.position, moves: [] };
    remember(false);
  }
  endPreview();
  showBoard(view.board);
  showLegend(view);
  $('board').classList.toggle('editing', app.editing);
  const legal = view.moves.length > 0 || view.over;
  const said = view.said || (legal ? 'not in the tables' : view.error ? 'no position' : '');
  $('said').textContent = view.over ? 'The game is over' : concealed() && legal ? 'Your game: values are hidden until you ask for a hint' : said;
  document.title = `${app.game.game} ${view.position || pos}: ${view.over ? 'over' : concealed() ? 'play' : said} - tablebases`;
  showBeside(view);
  showClock(view);
  // A legal position without an answer (beyond the tables) is news, not an
  // error; in play, whose turn it is is all that is said.
  $('status').textContent = view.answer || view.over || (legal && concealed()) ? turnText(view) : legal ? view.error || '' : '';
  const last = app.trail.moves[app.trail.moves.length - 1];
  if (last && last.note) {
    const said = $('status').textContent.trim();
    const stop = !said || /[.!?]$/.test(said) ? '' : '.';
    // Why the computer played its move tells its value: kept for a hint.
    const why = concealed() ? '.' : `: ${last.note}.`;
    $('status').textContent = `${said}${stop} The computer played ${last.move}${why}`.trim();
  }
  $('error').textContent = legal ? '' : view.error || '';
  showMoves(view);
  $('back').disabled = !canGoBack();
  $('forward').disabled = !canGoForward();
  showChart();
  showLine(position());
  if ($('stats-box').open) showStats();
  maybeComputer();
}

// The value under the game's clock (chess: DTZ with the halfmove clock), and
// the position in the game's other measures (chess: DTZ beside DTM).
function showBeside(view) {
  const box = $('beside');
  box.innerHTML = '';
  const lines = [];
  box.hidden = concealed();
  if (box.hidden) return;
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  if (view.verdict) lines.push({ text: `${capital(view.verdict.said)}.`, verdict: view.verdict });
  for (const other of view.beside || []) {
    const verdict = other.verdict ? `; ${other.verdict.said}` : '';
    lines.push({ text: `${other.value.toUpperCase()}: ${other.said}${verdict}.`, verdict: other.verdict });
  }
  for (const line of lines) {
    const p = document.createElement('p');
    p.textContent = line.text;
    if (line.verdict) p.className = `verdict ${line.verdict.outcome}`;
    box.appendChild(p);
  }
  box.hidden = !lines.length;
}

function showClock(view) {
  $('clock-form').hidden = !view.clock;
  if (!view.clock) return;
  $('clock-name').textContent = view.clock.name;
  const input = $('clock');
  input.max = String(view.clock.most);
  if (document.activeElement !== input) input.value = String(view.clock.count);
}

// --- moves ---

function valueOf(m) {
  const i = app.view.moves.indexOf(m);
  if (app.view.answer && app.view.answer.moves) return app.view.answer.moves[i];
  if (app.view.answer && app.view.answer.source === 'formula') return { value: m.said ? 'win' : 'loss', distance: null };
  return null;
}

function play(m, value, note) {
  app.trail = { start: app.trail.start, moves: [...app.trail.moves, note ? { ...m, value, note } : { ...m, value }] };
  app.previews.clear();
  remember(true);
  render();
}

function humansTurn() {
  return app.mode !== 'play' || app.players[derived().seat] === 'human';
}

function humanMove(m) {
  if (app.busy || app.editing || !humansTurn() || (app.view && app.view.over)) return;
  endPreview();
  play(m, valueOf(m));
}

async function maybeComputer() {
  if (app.mode !== 'play' || humansTurn() || !app.view || app.view.over || app.busy) return;
  const pos = position();
  app.busy = true;
  $('status').textContent = turnText(app.view) + ' The computer is thinking ...';
  const settings = Object.entries(computerSettings()).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
  const answer = await api(`${base()}/computer?position=${encodeURIComponent(pos)}${optionQuery()}${settings}`);
  await new Promise((r) => setTimeout(r, 250));
  app.busy = false;
  if (pos !== position() || app.mode !== 'play') return;
  if (!answer.ok) { $('error').textContent = answer.body.error; return; }
  const m = app.view.moves.find((x) => x.move === answer.body.move.move) || answer.body.move;
  play(m, app.view.moves.includes(m) ? valueOf(m) : null, answer.body.note);
}

// The computer's settings as query parameters: the search ones only for games
// that search.
function computerSettings() {
  const { level, algorithm, depth } = app.computer;
  const settings = { level };
  if (app.game && app.game.search) {
    settings.algorithm = algorithm;
    if (depth) settings.depth = depth;
  }
  return settings;
}

// The deepest search the server runs with each algorithm.
const DEEPEST = { alphabeta: 16, negamax: 10, minimax: 10 };

function showComputerControls() {
  const depth = $('depth');
  const deepest = DEEPEST[app.computer.algorithm] || 10;
  if (Number(app.computer.depth) > deepest) app.computer.depth = String(deepest);
  depth.innerHTML = '';
  depth.add(new Option('timed', ''));
  for (let d = 1; d <= deepest; d++) depth.add(new Option(String(d), String(d)));
  depth.value = app.computer.depth;
  $('level').value = String(app.computer.level);
  $('algorithm').value = app.computer.algorithm;
  $('search').hidden = !(app.game && app.game.search);
}

async function followLine(steps) {
  let pos = position();
  const moves = [];
  for (const step of steps) {
    const answer = await api(`${base()}/move?position=${encodeURIComponent(pos)}&move=${encodeURIComponent(step.move)}${optionQuery()}`);
    if (!answer.ok) { $('error').textContent = answer.body.error; return; }
    const { move, position: after, value, distance, score } = step;
    moves.push({ ...answer.body, value: score !== undefined ? { score } : { value, distance } });
    pos = after;
  }
  app.trail = { start: app.trail.start, moves: [...app.trail.moves, ...moves] };
  remember(true);
  render();
}

// Clicks on the board make a move: each way to make it is steps of places, each
// step clicked in any order. A move is made as soon as the clicks complete one
// way and could begin no other; clicking the last place again makes the move the
// clicks complete.
function matchWay(way, clicks) {
  let step = 0;
  let left = new Set(way[0]);
  for (const c of clicks) {
    if (step >= way.length || !left.has(c)) return null;
    left.delete(c);
    if (left.size === 0) { step += 1; left = new Set(way[step] || []); }
  }
  return step >= way.length ? 'complete' : 'partial';
}

function candidates(clicks) {
  const complete = [];
  const partial = [];
  for (const m of app.view.moves) {
    const found = m.places.map((way) => matchWay(way, clicks));
    if (found.includes('complete')) complete.push(m);
    else if (found.includes('partial')) partial.push(m);
  }
  return { complete, partial };
}

async function clickPlace(place) {
  if (!app.view) return;
  if (app.editing) { editAt(place); return; }
  if (app.busy || !humansTurn() || app.view.over) return;
  closeChoice();
  const last = app.selection[app.selection.length - 1];
  if (place === last) {
    const { complete } = candidates(app.selection);
    if (complete.length === 1) { humanMove(complete[0]); return; }
  }
  let clicks = [...app.selection, place];
  let { complete, partial } = candidates(clicks);
  if (!complete.length && !partial.length) {
    clicks = [place];
    ({ complete, partial } = candidates(clicks));
  }
  if (complete.length === 1 && !partial.length) { humanMove(complete[0]); return; }
  app.selection = complete.length || partial.length ? clicks : [];
  markSelection();
  // The same clicks make several moves (a pawn reaching the last rank): ask which.
  if (complete.length > 1 && !partial.length) { chooseAmong(complete, 'which move? '); return; }
  // The clicks make a move and could begin longer ones: offer it, or go on.
  if (complete.length && app.selection.length) chooseAmong(complete, 'play it, or click more places: ', false);
}

// Buttons for the moves the same clicks make, one of which the player picks.
function chooseAmong(moves, question, focus = true) {
  const box = $('choice');
  box.innerHTML = '';
  const label = document.createElement('span');
  label.textContent = question;
  box.appendChild(label);
  for (const m of moves) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = m.move;
    button.dataset.move = m.move;
    button.addEventListener('click', () => { closeChoice(); humanMove(m); });
    box.appendChild(button);
  }
  box.hidden = false;
  if (focus) box.querySelector('button').focus();
}

function closeChoice() {
  $('choice').hidden = true;
  $('choice').innerHTML = '';
}

// --- the editor ---

function showTools() {
  const tools = $('tools');
  tools.innerHTML = '';
  for (const tool of app.game.tools) {
    const button = document.createElement('button');
    button.type = 'button';
    // A piece's picture, its name for screen readers and on hover.
    if (tool.picture) {
      button.innerHTML = tool.picture;
      button.className = 'picture-tool';
      button.setAttribute('aria-label', tool.label);
      button.title = tool.label;
    } else button.textContent = tool.label;
    button.dataset.tool = tool.id;
    button.setAttribute('aria-pressed', String(app.tool === tool.id));
    button.addEventListener('click', () => {
      if (!tool.on_board) { editAt('', tool.id); return; }
      app.tool = tool.id;
      showTools();
    });
    tools.appendChild(button);
  }
  if (!app.game.tools.length) tools.textContent = 'Edit the position as text below.';
}

async function editAt(place, toolId) {
  const tool = toolId || app.tool;
  if (!tool) {
    $('choice').hidden = false;
    $('choice').textContent = app.game.tools.length ? 'choose a tool above, then click the board' : 'this game is edited as text: change the position below and press go';
    return;
  }
  const answer = await api(`${base()}/edit?position=${encodeURIComponent(position())}&place=${encodeURIComponent(place)}&tool=${encodeURIComponent(tool)}${optionQuery()}`);
  if (!answer.ok) { $('error').textContent = answer.body.error; return; }
  setStart(answer.body.position, true);
}

function setStart(text, push) {
  app.trail = { start: text, moves: [] };
  app.previews.clear();
  remember(push);
  render();
}

// --- choosing a game ---

function showOptions() {
  const span = $('options');
  span.innerHTML = '';
  for (const option of app.game.options) {
    const label = document.createElement('label');
    label.textContent = `${option.name} `;
    const choices = option.choices || [];
    const input = document.createElement(choices.length ? 'select' : 'input');
    input.name = option.name;
    if (choices.length) {
      for (const word of choices) input.add(new Option(word, word));
      input.value = app.options[option.name] || option.default || choices[0];
    } else {
      input.size = 8;
      input.value = app.options[option.name] ?? '';
      input.placeholder = option.default || option.values;
    }
    input.title = `${option.help} (${option.values})`;
    input.addEventListener('change', () => {
      const chosen = input.value.trim();
      app.options[option.name] = chosen === option.default ? '' : chosen;
      setStart('start', true);
    });
    label.appendChild(input);
    span.appendChild(label);
  }
}

function chooseGame(id, options, start) {
  app.game = app.games.find((g) => g.game === id) || app.games[0];
  app.options = options || {};
  $('game').value = app.game.game;
  $('about').textContent = `${app.game.about}. Positions: ${app.game.notation}`;
  showOptions();
  showTools();
  showComputerControls();
  $('flip').hidden = !app.game.flips;
  app.trail = { start: start || 'start', moves: [] };
}

function restore(state) {
  app.mode = state.mode || 'explore';
  app.players = state.players || ['human', 'computer'];
  app.computer = state.computer || { level: 10, algorithm: 'alphabeta', depth: '' };
  app.flipped = Boolean(state.flipped);
  chooseGame(state.game, state.options);
  app.trail = state.trail;
  syncControls();
  render();
}

function syncControls() {
  $('mode').value = app.mode;
  $('players').hidden = app.mode !== 'play';
  $('first').value = app.players[0];
  $('second').value = app.players[1];
  $('hint').hidden = app.mode !== 'play';
  $('flip').hidden = !(app.game && app.game.flips);
  $('flip').setAttribute('aria-pressed', String(app.flipped));
  $('hint').setAttribute('aria-pressed', String(app.hint));
  showComputerControls();
}

async function main() {
  app.furthest = depth();
  const answer = await api('/api/v1/games');
  app.games = answer.body.games;
  for (const g of app.games) $('game').add(new Option(g.game, g.game));
  const params = new URLSearchParams(location.search);
  if (!params.size) { showIndex(); return; }
  if (params.has('game') && params.has('table')) { showTablePage(params); return; }
  if (params.has('files')) { showFilesPage(); return; }
  const id = params.get('game');
  const game = app.games.find((g) => g.game === id) || app.games[0];
  if (id && game.game !== id) {
    $('notice').textContent = `There is no game '${id}': the games are ${app.games.map((g) => g.game).join(', ')}.`;
    $('notice').hidden = false;
  }
  const options = {};
  for (const o of game.options) if (params.has(o.name)) options[o.name] = params.get(o.name);
  app.mode = params.get('mode') === 'play' ? 'play' : 'explore';
  app.flipped = params.get('flip') === 'yes';
  if (params.has('players')) app.players = params.get('players').split(',').slice(0, 2);
  const level = Number(params.get('level'));
  if (params.has('level') && Number.isInteger(level) && level >= 0 && level <= 10) app.computer.level = level;
  if (DEEPEST[params.get('algorithm')]) app.computer.algorithm = params.get('algorithm');
  if (/^[0-9]+$/.test(params.get('depth') || '')) app.computer.depth = params.get('depth');
  chooseGame(game.game, options, params.get('position') || 'start');
  syncControls();
  remember(false);
  render();
}

// --- the index of games and the page of one table ---

function showPage(id) {
  for (const page of ['index', 'table-page', 'files-page', 'explorer']) $(page).hidden = page !== id;
  $('choose').hidden = id !== 'explorer';
}

// Every game as a card with its start position, its rules and its tables; the
// tables of games that group them (chess by pieces) listed below.
function showIndex() {
  showPage('index');
  document.title = 'tablebases: every game';
  const cards = $('cards');
  for (const g of app.games) {
    const card = document.createElement('a');
    card.className = 'card';
    card.href = `/?game=${encodeURIComponent(g.game)}`;
    card.innerHTML = '<div class="picture"></div><h3></h3><p class="rules"></p><p class="tables"></p>';
    card.querySelector('h3').textContent = g.game;
    card.querySelector('.rules').textContent = g.about;
    // The default variant's tables, and those of every variant in the folder.
    const made = g.tables.filter((t) => t.present).length;
    const others = g.made > made ? `; ${count(g.made)} in all variants` : '';
    card.querySelector('.tables').textContent = g.tables.length ? `${count(made)} of ${count(g.tables.length, 'table')} made${others}` : g.made ? `${count(g.made, 'table')} made, of other variants` : 'answered without tables';
    cards.appendChild(card);
    api(`/api/v1/${encodeURIComponent(g.game)}/view?position=start`).then((a) => {
      if (a.ok) card.querySelector('.picture').innerHTML = a.body.board;
    });
  }
  const endings = $('endings');
  for (const g of app.games) {
    const groups = new Map();
    for (const t of g.tables.filter((t) => t.present && t.group)) {
      if (!groups.has(t.group)) groups.set(t.group, []);
      groups.get(t.group).push(t);
    }
    if (!groups.size) continue;
    const section = document.createElement('section');
    section.innerHTML = '<h2></h2>';
    section.querySelector('h2').textContent = `Every ${g.game} table made`;
    for (const [name, tables] of groups) {
      const h3 = document.createElement('h3');
      h3.textContent = `${name} (${tables.length})`;
      const list = document.createElement('p');
      list.className = 'table-links';
      for (const t of tables) {
        const a = document.createElement('a');
        a.textContent = t.tier;
        a.href = `/?game=${encodeURIComponent(g.game)}&table=${encodeURIComponent(t.tier)}`;
        list.append(a, ' ');
      }
      section.append(h3, list);
    }
    endings.appendChild(section);
  }
}

// One table's statistics as a page of its own, with its JSON beside.
async function showTablePage(params) {
  showPage('table-page');
  const game = params.get('game');
  const tier = params.get('table');
  // The game's page: the same address without the table.
  const page = new URLSearchParams(params);
  page.delete('table');
  const query = new URLSearchParams(page);
  query.delete('game');
  query.set('tier', tier);
  const json = `/api/v1/${encodeURIComponent(game)}/stats?${query}`;
  document.title = `${game} ${tier}: statistics - tablebases`;
  $('table-json').href = json;
  $('table-game').href = `/?${page}`;
  const box = $('table-stats');
  box.textContent = 'reading the table ...';
  const answer = await api(json);
  box.innerHTML = '';
  if (!answer.ok) { box.textContent = answer.body.error; return; }
  const h2 = document.createElement('h2');
  h2.textContent = `${game} ${tier}`;
  box.appendChild(h2);
  for (const t of answer.body.tables) {
    if (t.present) box.appendChild(t.error ? unreadable(t) : statTable(t));
    else box.append(`${t.file} is not made.`);
    if (t.reads && t.reads.length) box.appendChild(readsLinks(t, params));
  }
  // The same table in the game's other measures (chess: DTZ beside DTM).
  const info = app.games.find((g) => g.game === game);
  for (const option of (info ? info.options : []).filter((o) => o.measure)) {
    const chosen = params.get(option.name) || option.default;
    const p = document.createElement('p');
    p.className = 'measures';
    p.append(`${option.name}: `);
    option.choices.forEach((choice, i) => {
      if (i) p.append(' · ');
      if (choice === chosen) { p.append(choice); return; }
      const a = document.createElement('a');
      const other = new URLSearchParams(params);
      other.set(option.name, choice);
      a.href = `/?${other}`;
      a.textContent = choice;
      p.append(a);
    });
    box.insertBefore(p, h2.nextSibling);
  }
}

// Every table file with its game, size and SHA-256, as a download page lists
// them (`sha256sum -c` checks a copy).
async function showFilesPage() {
  showPage('files-page');
  document.title = 'tablebases: every table file';
  $('files-total').textContent = 'reading the files ...';
  const answer = await api('/api/v1/tables');
  if (!answer.ok) { $('files-total').textContent = answer.body.error; return; }
  const { tables, bytes } = answer.body;
  $('files-total').textContent = `${count(tables.length, 'file')}, ${count(bytes, 'byte')} in all.`;
  const table = document.createElement('table');
  table.className = 'files';
  table.innerHTML = '<thead><tr><th scope="col">file</th><th scope="col">game</th><th scope="col">bytes</th><th scope="col">SHA-256</th></tr></thead><tbody></tbody>';
  for (const t of tables) {
    const row = table.tBodies[0].insertRow();
    row.insertCell().textContent = t.file;
    const game = row.insertCell();
    if (t.game) {
      const a = document.createElement('a');
      a.href = `/?game=${encodeURIComponent(t.game)}`;
      a.textContent = t.game;
      game.append(a);
    }
    const size = row.insertCell();
    size.className = 'bytes';
    size.textContent = count(t.bytes);
    const sum = row.insertCell();
    sum.className = 'sha';
    sum.textContent = t.sha256;
  }
  $('files').replaceChildren(table);
}

// The tables a table reads (its moves lead there), each a link to its page.
function readsLinks(t, params) {
  const p = document.createElement('p');
  p.className = 'reads';
  p.append(`${t.tier} reads ${count(t.reads.length, 'other table')}, made with it: `);
  t.reads.forEach((tier, i) => {
    if (i) p.append(' · ');
    const a = document.createElement('a');
    const other = new URLSearchParams(params);
    other.set('table', tier);
    a.href = `/?${other}`;
    a.textContent = tier;
    p.append(a);
  });
  return p;
}

// --- wiring ---

$('game').addEventListener('change', () => { $('notice').hidden = true; chooseGame($('game').value, {}); setStart('start', true); });
$('start').addEventListener('click', () => setStart('start', true));
$('mode').addEventListener('change', () => { app.mode = $('mode').value; app.hint = false; syncControls(); remember(true); render(); });
for (const [i, id] of ['first', 'second'].entries()) {
  $(id).addEventListener('change', () => { app.players[i] = $(id).value; remember(true); render(); });
}
for (let level = 10; level >= 0; level--) $('level').add(new Option(level === 10 ? '10 (perfect)' : String(level), String(level)));
for (const id of ['level', 'algorithm', 'depth']) {
  $(id).addEventListener('change', () => {
    app.computer[id] = id === 'level' ? Number($(id).value) : $(id).value;
    showComputerControls();
    remember(true);
  });
}
$('hint').addEventListener('click', () => { app.hint = !app.hint; syncControls(); render(); });
$('back').addEventListener('click', () => { if (canGoBack()) history.back(); });
$('flip').addEventListener('click', () => { app.flipped = !app.flipped; app.previews.clear(); syncControls(); remember(false); render(); });
$('forward').addEventListener('click', () => { if (canGoForward()) history.forward(); });
$('edit').addEventListener('click', () => {
  app.editing = !app.editing;
  $('edit').setAttribute('aria-pressed', String(app.editing));
  $('editor').hidden = !app.editing;
  $('board').classList.toggle('editing', app.editing);
  app.selection = [];
  markSelection();
});
$('clock-form').addEventListener('submit', (e) => { e.preventDefault(); editAt($('clock').value, 'clock'); });
$('position-form').addEventListener('submit', (e) => { e.preventDefault(); setStart($('position').value.trim(), true); });
$('move-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = $('typed').value.trim();
  if (!text || !humansTurn()) return;
  const answer = await api(`${base()}/move?position=${encodeURIComponent(position())}&move=${encodeURIComponent(text)}${optionQuery()}`);
  if (!answer.ok) { $('error').textContent = answer.body.error; return; }
  $('typed').value = '';
  const known = app.view.moves.find((m) => m.move === answer.body.move);
  humanMove(known || answer.body);
});
$('stats-box').addEventListener('toggle', () => { if ($('stats-box').open) showStats(); });
$('board').addEventListener('click', (e) => {
  const el = e.target.closest('[data-place]');
  if (el) clickPlace(el.getAttribute('data-place'));
});
// Dragging from one place to another clicks both (a chess piece dragged to its
// square); a press and release on one place is an ordinary click.
let dragFrom = null;
const placeAt = (e) => {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const place = el && el.closest('#board [data-place]');
  return place ? place.getAttribute('data-place') : null;
};
$('board').addEventListener('pointerdown', (e) => {
  dragFrom = app.editing ? null : placeAt(e);
  if (dragFrom) $('board').classList.add('dragging');
});
document.addEventListener('pointerup', (e) => {
  const from = dragFrom;
  dragFrom = null;
  $('board').classList.remove('dragging');
  const to = from && placeAt(e);
  if (to && to !== from) {
    clickPlace(from);
    clickPlace(to);
  }
});
$('board').addEventListener('keydown', (e) => {
  const el = e.target.closest('[data-place]');
  if (el && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); clickPlace(el.getAttribute('data-place')); }
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft') { if (canGoBack()) history.back(); }
  else if (e.key === 'ArrowRight' && canGoForward()) history.forward();
  else if (e.key === 'Escape') { app.selection = []; markSelection(); }
});
window.addEventListener('popstate', (e) => { if (e.state) restore(e.state); });

main();
