/* purist report — renders the JSON in #purist-data.
 *
 * Every string from the project (names, paths, messages, source lines)
 * reaches the page through textContent or createTextNode: nothing here
 * builds markup from data, so a name that looks like markup stays text. */
'use strict';
(function () {
  /* Bytes that are not UTF-8 arrive as U+EF80..U+EFFF (docs/file-names.md):
   * shown as \xNN, so lat\xE9n.c reads as such and not as an invisible
   * private-use character. */
  const bytesShown = (k, v) => typeof v !== 'string' ? v
    : v.replace(/[\uEF80-\uEFFF]/g, c => '\\x' + (c.charCodeAt(0) - 0xEF00).toString(16).toUpperCase());
  const D = JSON.parse(document.getElementById('purist-data').textContent, bytesShown);
  const F = D.functions;
  const ROW = 26;            /* px; the CSS --row */
  const SVGNS = 'http://www.w3.org/2000/svg';

  /* ---- small DOM helpers ---- */

  /* el('span', {className: 'x'}, 'text', child…): an element with
   * properties and children; strings become text nodes. */
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    if (props) for (const k of Object.keys(props)) e[k] = props[k];
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function clear(e) { e.replaceChildren(); return e; }
  function cls(c) { return el('span', {className: 'cls cls-' + c}, c); }
  function fileOf(f) { return D.files[f.file] || '<unknown>'; }
  function where(f) { return fileOf(f) + ':' + f.line; }
  /* A link that selects function i. */
  function fnLink(i) {
    const a = el('a', {href: '#fn=' + i}, F[i].name);
    a.dataset.fn = String(i);
    return a;
  }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  /* ---- rows of the functions table ---- */

  const rows = F.map((f, i) => ({
    i, f,
    key: (f.name + '\u0000' + fileOf(f)).toLowerCase(),
    checks: new Set(f.findings.map(k => D.findings[k].check)),
  }));
  const columns = [
    {title: 'name', get: r => r.f.name},
    {title: 'file:line', get: r => where(r.f), sort: (a, b) => cmp(fileOf(a.f), fileOf(b.f)) || a.f.line - b.f.line},
    {title: 'class', get: r => r.f.class, sort: (a, b) => rank(a.f.class) - rank(b.f.class)},
    {title: 'declared', get: r => r.f.declared === 'none' ? '' : r.f.declared},
    {title: 'suggested', get: r => r.f.suggested},
    {title: 'may not return', short: 'mnr', get: r => r.f.may_not_return ? 'yes' : ''},
    {title: 'callers', get: r => String(r.f.ncallers), sort: (a, b) => a.f.ncallers - b.f.ncallers},
    {title: 'findings', get: r => r.f.findings.length ? String(r.f.findings.length) : '',
     sort: (a, b) => a.f.findings.length - b.f.findings.length},
    /* C23's [[unsequenced]] / [[reproducible]] (issue 15): what the body keeps; last, so the
     * columns before it keep their places. */
    {title: 'C23', get: r => c23Text(r.f), sort: (a, b) => c23Rank(a.f.c23) - c23Rank(b.f.c23)},
  ];
  function c23Rank(c) { return c === 'unsequenced' ? 0 : c === 'reproducible' ? 1 : 2; }
  function c23Text(f) {
    const c = f.c23 && f.c23 !== 'none' ? f.c23 : '';
    return f.declared_c23 && f.declared_c23 !== 'none' && f.declared_c23 !== f.c23 ? c + ' (declared ' + f.declared_c23 + ')' : c;
  }
  function rank(c) { return c === 'const' ? 0 : c === 'pure' ? 1 : 2; }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  const state = {sort: 1, dir: 1, view: [], selected: -1};
  const $ = id => document.getElementById(id);

  /* Applies filter and sort to the rows; renders what is in view. */
  function refresh() {
    const q = $('filter').value.trim().toLowerCase();
    const c = $('class-filter').value, chk = $('check-filter').value;
    const lib = $('show-library').checked;
    const v = rows.filter(r => (lib || r.f.defined) && (!c || r.f.class === c) &&
      (!chk || (chk === '*' ? r.checks.size > 0 : r.checks.has(chk))) && (!q || r.key.includes(q)));
    const col = columns[state.sort];
    const by = col.sort || ((a, b) => cmp(col.get(a), col.get(b)));
    v.sort((a, b) => state.dir * by(a, b) || a.i - b.i);
    state.view = v;
    $('count').textContent = v.length + ' of ' + plural(rows.filter(r => lib || r.f.defined).length, 'function', 'functions');
    $('spacer').style.height = (v.length * ROW) + 'px';
    renderRows();
  }

  /* Only the rows in the viewport (and a few around) exist in the DOM. */
  function renderRows() {
    const vp = $('viewport');
    const first = Math.max(0, Math.floor(vp.scrollTop / ROW) - 10);
    const last = Math.min(state.view.length, Math.ceil((vp.scrollTop + vp.clientHeight) / ROW) + 10);
    const box = clear($('rows'));
    box.style.top = (first * ROW) + 'px';
    if (!state.view.length) {
      box.append(el('div', {className: 'empty'}, F.length ? 'No function matches.' : 'No functions: the project is empty.'));
      return;
    }
    for (let k = first; k < last; k++) {
      const r = state.view[k];
      const row = el('div', {className: 'row' + (r.i === state.selected ? ' selected' : '')});
      row.setAttribute('role', 'row');
      row.dataset.fn = String(r.i);
      columns.forEach((col, ci) => {
        const v = col.get(r);
        row.append(ci === 2 ? el('span', null, cls(v)) : el('span', {title: v}, v));
      });
      box.append(row);
    }
  }

  function buildHead() {
    const h = clear($('thead'));
    columns.forEach((col, ci) => {
      const mark = state.sort === ci ? (state.dir > 0 ? ' ▲' : ' ▼') : '';
      const b = el('button', {type: 'button', title: 'sort by ' + col.title}, (col.short || col.title) + mark);
      b.dataset.col = String(ci);
      b.addEventListener('click', () => {
        if (state.sort === ci) state.dir = -state.dir; else { state.sort = ci; state.dir = 1; }
        buildHead();
        refresh();
      });
      h.append(b);
    });
  }

  /* Scrolls the table so that function i is visible, if it is listed. */
  function reveal(i) {
    const k = state.view.findIndex(r => r.i === i);
    if (k < 0) return;
    const vp = $('viewport');
    if (k * ROW < vp.scrollTop || (k + 1) * ROW > vp.scrollTop + vp.clientHeight)
      vp.scrollTop = Math.max(0, k * ROW - vp.clientHeight / 3);
  }

  /* ---- source snippets, coloured ---- */

  const KW = new Set(('auto break case char const continue default do double else enum extern float for goto if ' +
    'inline int long register restrict return short signed sizeof static struct switch typedef union unsigned ' +
    'void volatile while _Bool _Noreturn _Thread_local _Atomic _Static_assert __attribute__ bool').split(' '));
  const TOKEN = /(\/\/.*$)|(\/\*)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|(\b\d[\w.]*)|([A-Za-z_]\w*)|(^\s*#\s*\w+)/g;

  /* Appends one source line as text nodes and coloured spans; `st.inComment`
   * carries a block comment over to the next line. */
  function colour(line, parent, st) {
    let pos = 0;
    const put = (text, c) => parent.append(c ? el('span', {className: c}, text) : text);
    if (st.inComment) {
      const end = line.indexOf('*/');
      if (end < 0) { put(line, 'tok-com'); return; }
      put(line.slice(0, end + 2), 'tok-com');
      pos = end + 2;
      st.inComment = false;
    }
    TOKEN.lastIndex = pos;
    let m;
    while ((m = TOKEN.exec(line)) !== null) {
      if (m.index > pos) put(line.slice(pos, m.index));
      if (m[2]) {
        const end = line.indexOf('*/', m.index + 2);
        const stop = end < 0 ? line.length : end + 2;
        put(line.slice(m.index, stop), 'tok-com');
        if (end < 0) st.inComment = true;
        pos = TOKEN.lastIndex = stop;
        continue;
      }
      put(m[0], m[1] ? 'tok-com' : m[3] ? 'tok-str' : m[4] ? 'tok-num' : m[6] ? 'tok-pp' : KW.has(m[5]) ? 'tok-kw' : null);
      pos = TOKEN.lastIndex;
      if (m[0].length === 0) TOKEN.lastIndex++;
    }
    if (pos < line.length) put(line.slice(pos));
  }

  function snippet(src, hitLine) {
    const pre = el('pre', {className: 'src'});
    const st = {inComment: false};
    src.lines.forEach((text, k) => {
      const n = src.first + k;
      const line = el('span', {className: n === hitLine ? 'hit' : ''});
      line.append(el('span', {className: 'ln'}, String(n)));
      colour(text, line, st);
      pre.append(line, '\n');
    });
    return pre;
  }

  /* One finding: severity, check, message, place, related notes, source. */
  function finding(k, withFunction) {
    const d = D.findings[k];
    const box = el('div', {className: 'finding'});
    box.dataset.finding = String(k);
    box.append(el('span', {className: 'sev-' + d.severity}, d.severity), ' ',
      el('code', null, '[' + d.check + ']'), ' ', d.message);
    const loc = el('div', {className: 'loc'}, d.file + ':' + d.line + ':' + d.column);
    if (withFunction && d.fn >= 0) loc.append(' in ', fnLink(d.fn));
    else if (withFunction && d.function) loc.append(' in ' + d.function);
    if (d.origin) loc.append(' · ' + d.origin);
    box.append(loc);
    if (d.source) box.append(snippet(d.source, d.line));
    for (const r of d.related)
      box.append(el('div', {className: 'loc'}, 'note: ' + r.file + ':' + r.line + ':' + r.column + ': ' + r.message));
    return box;
  }

  /* ---- the function panel ---- */

  /* The chain of first causes from i: each function once. */
  function chainOf(i) {
    const seen = new Set(), out = [];
    for (let k = i; k >= 0 && !seen.has(k); k = F[k].next) { seen.add(k); out.push(k); }
    return out;
  }

  function linkList(list, total, what) {
    if (!total) return el('p', {className: 'muted'}, 'none');
    const ul = el('ul', {className: 'links'});
    for (const j of list) ul.append(el('li', null, cls(F[j].class), ' ', fnLink(j)));
    const frag = el('div', null, ul);
    /* Left out because the panel lists at most list_max, or because a
     * summarised report (level 2) does not carry them. */
    const why = list.length >= D.summary.list_max ? 'not listed: a panel lists at most ' + D.summary.list_max
      : 'not in this summarised report';
    if (total > list.length) frag.append(el('p', {className: 'muted'}, (total - list.length) + ' more ' + what + ' ' + why));
    return frag;
  }

  function showPanel(i) {
    const f = F[i], p = clear($('panel'));
    p.append(el('h2', null, f.name));
    const badges = el('div', {className: 'badges'}, cls(f.class));
    badges.append(el('span', {className: 'badge'}, f.linkage));
    if (f.declared !== 'none') badges.append(el('span', {className: 'badge'}, 'declared ' + f.declared));
    if (f.suggested) badges.append(el('span', {className: 'badge'}, 'suggested ' + f.suggested));
    if (f.c23) badges.append(el('span', {className: 'badge', id: 'c23'}, 'C23 ' + f.c23));
    if (f.declared_c23 && f.declared_c23 !== 'none') badges.append(el('span', {className: 'badge'}, 'declared [[' + f.declared_c23 + ']]'));
    if (f.may_not_return) badges.append(el('span', {className: 'badge'}, 'may not return'));
    if (!f.defined) badges.append(el('span', {className: 'badge'}, 'not defined in the analysed code'));
    p.append(badges, el('div', {className: 'mono muted'}, where(f) + ':' + f.column));
    p.append(el('h3', null, 'Why ' + f.class), el('p', {id: 'reason'}, f.reason));
    if (f.may_not_return_reason) p.append(el('p', null, 'May not return: ' + f.may_not_return_reason));
    if (f.c23_reason) p.append(el('h3', null, 'C23: ' + f.c23), el('p', {id: 'c23-reason'}, f.c23_reason));
    const chain = el('ol', {className: 'chain', id: 'chain'});
    for (const k of chainOf(i)) chain.append(el('li', null, fnLink(k), ' ', cls(F[k].class), ' — ' + F[k].step));
    p.append(el('h3', null, 'Chain of first causes'), chain);
    p.append(el('h3', null, 'Impurity graph'), graph(i));
    p.append(el('h3', null, 'Callers (' + f.ncallers + ')'), linkList(f.callers, f.ncallers, 'callers'));
    p.append(el('h3', null, 'Callees (' + f.ncallees + ')'), linkList(f.callees, f.ncallees, 'callees'));
    p.append(el('h3', null, 'Findings (' + f.findings.length + ')'));
    if (!f.findings.length) p.append(el('p', {className: 'muted'}, 'none'));
    for (const k of f.findings) p.append(finding(k, false));
    p.scrollTop = 0;
  }

  /* The graph dot laid out at report time, drawn here; else a tree. */
  function graph(i) {
    const g = D.graphs && D.graphs[String(i)];
    return g ? graphSvg(g) : graphTree(i);
  }

  let markers = 0;
  function graphSvg(g) {
    const s = svg('svg', {class: 'graph', viewBox: '-4 -4 ' + (g.width + 8) + ' ' + (g.height + 8),
      width: g.width + 8, height: g.height + 8, role: 'img'});
    const id = 'arrow' + (++markers);
    const marker = svg('marker', {id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto'});
    marker.append(svg('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#8c959f'}));
    const defs = svg('defs');
    defs.append(marker);
    s.append(defs);
    for (const e of g.edges) {
      const pt = e.points;
      if (pt.length < 4) continue;
      let d = 'M' + pt[0] + ',' + pt[1];
      for (let k = 2; k + 6 <= pt.length; k += 6)
        d += ' C' + pt.slice(k, k + 6).join(',');
      s.append(svg('path', {d, class: e.chain ? 'chain' : '', 'marker-end': 'url(#' + id + ')'}));
    }
    for (const n of g.nodes) {
      const f = n.fn >= 0 ? F[n.fn] : null;
      const grp = svg('g', {class: (f ? 'n-' + f.class : 'n-effect') + (n.chain ? ' chain' : '') + (f ? ' link' : '')});
      grp.append(svg('rect', {x: n.x - n.w / 2, y: n.y - n.h / 2, width: n.w, height: n.h, rx: 4}));
      const t1 = svg('text', {x: n.x, y: n.y - 2, 'text-anchor': 'middle'});
      t1.textContent = f ? f.name : n.text;
      grp.append(t1);
      if (f) {
        const t2 = svg('text', {x: n.x, y: n.y + 12, 'text-anchor': 'middle'});
        t2.textContent = f.class;
        grp.append(t2);
        const title = svg('title');
        title.textContent = f.name + ' (' + f.class + ') ' + where(f);
        grp.append(title);
        grp.dataset.fn = String(n.fn);
        grp.addEventListener('click', () => { location.hash = 'fn=' + n.fn; });
      }
      s.append(grp);
    }
    return s;
  }

  /* Without dot: the chain as nested items, then the other callees. */
  function graphTree(i) {
    const root = el('ul', {className: 'tree'});
    let ul = root;
    for (const k of chainOf(i)) {
      const li = el('li', null, fnLink(k), ' ', cls(F[k].class));
      ul.append(li);
      ul = el('ul');
      li.append(ul);
    }
    const last = F[chainOf(i).pop()];
    if (last.class !== 'const') ul.append(el('li', null, last.step));
    const others = F[i].callees.filter(j => j !== F[i].next);
    if (others.length) {
      const li = el('li', null, 'also calls');
      const sub = el('ul');
      for (const j of others) sub.append(el('li', null, fnLink(j), ' ', cls(F[j].class)));
      li.append(sub);
      root.append(li);
    }
    return root;
  }

  function select(i) {
    if (!(i >= 0 && i < F.length)) return;
    state.selected = i;
    /* A function the filters hide is shown with the filters cleared, so
     * that its row can be highlighted. */
    if (!state.view.some(r => r.i === i)) {
      $('filter').value = '';
      $('class-filter').value = '';
      $('check-filter').value = '';
      if (!F[i].defined) $('show-library').checked = true;
      refresh();
    }
    show('functions');
    reveal(i);
    renderRows();
    showPanel(i);
  }

  /* ---- overview ---- */

  function card(num, what) {
    return el('div', {className: 'card'}, el('div', {className: 'num'}, String(num)), el('div', {className: 'what'}, what));
  }

  /* Share of const / pure / normal per directory, as stacked bars. */
  function dirChart() {
    const dirs = Object.keys(D.directories).sort();
    const W = 640, LABEL = 200, BAR = 18, GAP = 6;
    const s = svg('svg', {class: 'chart', width: W, height: dirs.length * (BAR + GAP) + 4, role: 'img'});
    dirs.forEach((dir, k) => {
      const c = D.directories[dir], total = c.const + c.pure + c.normal;
      const y = k * (BAR + GAP);
      const t = svg('text', {x: LABEL - 8, y: y + 13, 'text-anchor': 'end'});
      t.textContent = dir;
      s.append(t);
      let x = LABEL;
      for (const part of ['const', 'pure', 'normal']) {
        const w = total ? (W - LABEL - 60) * c[part] / total : 0;
        const r = svg('rect', {x, y, width: w, height: BAR, fill: getComputedStyle(document.body).getPropertyValue('--' + part).trim()});
        const title = svg('title');
        title.textContent = dir + ': ' + c[part] + ' ' + part;
        r.append(title);
        s.append(r);
        x += w;
      }
      const pct = svg('text', {x: x + 6, y: y + 13});
      pct.textContent = total ? Math.round(100 * (c.const + c.pure) / total) + '%' : '';
      s.append(pct);
    });
    return s;
  }

  /* The files the counts leave out, and why: those that failed first
   * (the report is incomplete), then those left out on purpose (probes,
   * --skip). */
  function notAnalysed(o) {
    const na = (D.not_analysed || []).slice().sort((a, b) => (a.reason === 'skipped') - (b.reason === 'skipped'));
    if (!na.length) return;
    const failed = na.filter(n => n.reason !== 'skipped').length;
    o.append(el('h2', null, 'Files not analysed (' + na.length + ')'),
      el('p', {className: 'muted'}, failed
        ? plural(failed, 'file', 'files') + ' could not be analysed: their functions count as unknown (normal), and the run is incomplete.'
        : 'Left out on purpose: configure or CMake probes, which are meant not to compile, or files --skip names. Their functions are unknown to the analysis.'));
    const tb = el('table', {className: 'plain', id: 'not-analysed'});
    tb.append(el('tr', null, el('th', null, 'file'), el('th', null, 'why'), el('th', null, 'message')));
    for (const n of na)
      tb.append(el('tr', null, el('td', null, n.file), el('td', null, n.reason), el('td', null, n.message)));
    o.append(tb);
  }

  /* The "may not return" card: only the functions for which it matters,
   * those otherwise const or pure (the rest are normal anyway). */
  function mnrCard(t) {
    const n = t.may_not_return_const_pure;
    const c = card(n, 'const or pure, but may not return');
    c.title = 'Of all ' + t.functions + ' functions, ' + t.may_not_return + ' may not return; ' + n +
      ' of them are otherwise const or pure, the only ones for which it matters.';
    return c;
  }

  function overview() {
    const o = clear($('overview')), t = D.totals;
    if (!t.functions) {
      o.append(el('div', {className: 'empty', id: 'empty'},
        'No functions were found in the analysed code: the project has no function definitions, ' +
        'or none of its files could be analysed.'));
    }
    notAnalysed(o);
    o.append(el('h2', null, 'Functions'), el('div', {className: 'cards'},
      card(t.functions, 'defined'), card(t.const, 'const'), card(t.pure, 'pure'), card(t.normal, 'normal'),
      mnrCard(t), card(t.declared_const + t.declared_pure, 'declared pure/const'),
      card(t.declared_wrong, 'declared wrongly'), card(t.declared_const + t.declared_pure - t.declared_wrong, 'declared and confirmed')),
      el('p', {className: 'muted', id: 'mnr-note'}, 'May not return: a loop or a recursion purist cannot prove finite, ' +
        'or a call that may never return. It matters only for a function that is otherwise const or pure: GCC ' +
        'deletes or merges its calls only when it knows they return (so purist suggests the attribute "if it is ' +
        'known to return normally", and fix leaves it alone without --include-may-not-return). The card counts ' +
        'the ' + plural(t.may_not_return_const_pure, 'function', 'functions') + ' otherwise const or pure; ' +
        plural(t.may_not_return, 'function', 'functions') + ' may not return in all.'));
    if (t.c23_unsequenced !== undefined)
      o.append(el('h2', null, 'C23 attributes'), el('div', {className: 'cards', id: 'c23-cards'},
        card(t.c23_unsequenced, 'unsequenced'), card(t.c23_reproducible, 'reproducible'),
        card(t.declared_c23, 'declared [[…]]'), card(t.declared_c23_wrong, 'declared wrongly')));
    const checks = Object.keys(D.checks).sort();
    o.append(el('h2', null, 'Findings per check'));
    if (!checks.length) o.append(el('p', {className: 'muted'}, 'No findings.'));
    else {
      const tb = el('table', {className: 'plain', id: 'checks'});
      tb.append(el('tr', null, el('th', null, 'check'), el('th', null, 'from'), el('th', null, 'errors'),
        el('th', null, 'warnings'), el('th', null, 'notes')));
      for (const c of checks) {
        const n = D.checks[c];
        const a = el('a', {href: '#findings'}, c);
        a.addEventListener('click', ev => { ev.preventDefault(); show('findings'); const g = $('group-' + c); if (g) g.scrollIntoView(); });
        tb.append(el('tr', null, el('td', null, a), el('td', null, n.origin), el('td', {className: 'n'}, String(n.error)),
          el('td', {className: 'n'}, String(n.warning)), el('td', {className: 'n'}, String(n.note))));
      }
      o.append(tb);
    }
    /* Ranked by what they buy (issue 19): call sites in other files, then
     * public API; those that gain nothing are not "top". Stable sort keeps
     * suggest's own order among equals. */
    const gainOf = d => typeof d.gain === 'number' ? d.gain : 0;
    const sugg = D.findings.filter(d => d.origin === 'suggest' && (gainOf(d) > 0 || d.public_api))
      .sort((a, b) => gainOf(b) - gainOf(a) || (b.public_api ? 1 : 0) - (a.public_api ? 1 : 0)).slice(0, 10);
    o.append(el('h2', null, 'Top suggestions, by call sites in other files that gain, then public API'));
    if (!sugg.length) o.append(el('p', {className: 'muted'}, 'None.'));
    const ol = el('ol', {id: 'suggestions'});
    for (const d of sugg) ol.append(el('li', null, d.fn >= 0 ? fnLink(d.fn) : d.function, ': ' + d.message));
    o.append(ol);
    if (Object.keys(D.directories).length) {
      o.append(el('h2', null, 'Share of const and pure functions per directory'),
        el('div', {className: 'legend'}, el('span', null, el('i', {className: 'l-const'}), 'const'),
          el('span', null, el('i', {className: 'l-pure'}), 'pure'), el('span', null, el('i', {className: 'l-normal'}), 'normal')),
        dirChart());
    }
  }

  /* ---- findings, grouped by check ---- */

  function findingsView() {
    const s = clear($('findings'));
    const groups = new Map();
    D.findings.forEach((d, k) => { if (!groups.has(d.check)) groups.set(d.check, []); groups.get(d.check).push(k); });
    if (!groups.size) s.append(el('div', {className: 'empty'}, 'No findings.'));
    if (D.verify) s.append(el('p', {className: 'muted'}, 'Includes ' + plural(D.verify.count, 'finding', 'findings') + ' of the verify report ' + D.verify.file + '.'));
    for (const c of [...groups.keys()].sort()) {
      const g = el('div', {className: 'group', id: 'group-' + c});
      g.append(el('h2', null, c + ' (' + groups.get(c).length + ')'));
      for (const k of groups.get(c)) g.append(finding(k, true));
      s.append(g);
    }
  }

  /* ---- navigation ---- */

  function show(view) {
    for (const v of ['overview', 'functions', 'findings']) {
      $(v).hidden = v !== view;
      $('tab-' + v).classList.toggle('active', v === view);
    }
    if (view === 'functions') renderRows();
  }

  /* The function a #fn= link names: its position in the page's list
   * (#fn=552), or its name (#fn=XML_GetBase, percent-encoded or not), the
   * definition first when several functions share it (statics); -1 if none. */
  function fnByLink(v) {
    if (/^\d+$/.test(v)) return Number(v) < F.length ? Number(v) : -1;
    let name = v;
    try { name = decodeURIComponent(v); } catch (e) { /* a bare '%': the name as written */ }
    const def = F.findIndex(f => f.name === name && f.defined);
    return def >= 0 ? def : F.findIndex(f => f.name === name);
  }

  function route() {
    const h = location.hash.slice(1);
    const m = /^fn=(.+)$/.exec(h);
    const i = m ? fnByLink(m[1]) : -1;
    if (i >= 0) select(i);
    else show(['functions', 'findings'].includes(h) ? h : 'overview');
  }

  function banner() {
    const s = D.summary, b = $('banner');
    let text = '';
    if (s.level === 1) text = 'This report would exceed ' + Math.round(s.max_bytes / 1048576) + ' MiB: source lines and graphs are left out.';
    if (s.level === 2) text = 'This report would exceed ' + Math.round(s.max_bytes / 1048576) + ' MiB: it lists ' + s.functions_shown +
      ' of ' + D.totals.functions + ' functions (those with findings first, then the most called) and ' + s.findings_shown + ' of ' +
      s.findings + ' findings; the overview counts them all. purist infer --format=json lists every function.';
    if (text) { b.textContent = text; b.hidden = false; }
  }

  function init() {
    $('project').textContent = (D.root || '') + ' · ' + D.tool;
    document.title = 'purist report — ' + (D.root ? D.root.split('/').pop() : 'project');
    const checks = [...new Set(D.findings.map(d => d.check))].sort();
    $('check-filter').append(el('option', {value: '*'}, 'with any finding'));
    for (const c of checks) $('check-filter').append(el('option', {value: c}, c));
    buildHead();
    for (const id of ['filter', 'class-filter', 'check-filter', 'show-library'])
      $(id).addEventListener(id === 'filter' ? 'input' : 'change', () => { $('viewport').scrollTop = 0; refresh(); });
    $('viewport').addEventListener('scroll', renderRows, {passive: true});
    /* A narrow table scrolls sideways (report.css): the header follows. */
    $('viewport').addEventListener('scroll', () => { $('thead').scrollLeft = $('viewport').scrollLeft; }, {passive: true});
    $('rows').addEventListener('click', ev => {
      const row = ev.target.closest('.row');
      if (row) location.hash = 'fn=' + row.dataset.fn;
    });
    window.addEventListener('hashchange', route);
    overview();
    findingsView();
    banner();
    refresh();
    route();
    document.body.dataset.ready = 'yes';
  }
  init();
})();
