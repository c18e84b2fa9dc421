extension ReportPage {
  /// The page's script: reads the data, fills in the summary, draws the timeline, plots and
  /// track, and rebuilds the snapshot at the scrubber's event from the nearest keyframe and
  /// the patches after it. Data reaches the page only as text (`textContent`, attribute
  /// values), never as markup.
  static let script = #"""
    (function () {
    'use strict';
    var openedAt = location.hash;
    var data = JSON.parse(document.getElementById('rasp-data').textContent);
    var NS = 'http:' + '//www.w3.org/2000/svg';
    function $(id) { return document.getElementById(id); }
    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined && text !== null) e.textContent = String(text);
      return e;
    }
    function sv(tag, attrs) {
      var e = document.createElementNS(NS, tag);
      for (var k in attrs) e.setAttribute(k, String(attrs[k]));
      return e;
    }
    function fmt(n) { return Number(n).toLocaleString('en-US'); }
    function fmtValue(v) { return Number.isInteger(v) ? fmt(v) : String(v); }
    function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
    function setKey(o, k, v) {
      Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable:
        true });
    }
    function clone(v) { return (v !== null && typeof v === 'object') ? structuredClone(v) : v; }

    var count = data.count;
    var events = data.events;
    var types = data.types;
    var domains = data.domains;
    var paths = data.paths;
    var tokens = paths.map(function (p) {
      if (p === '') return [];
      return p.split('/').slice(1).map(function (t) { return t.replace(/~1/g, '/').replace(/~0/g,
        '~'); });
    });
    var domainOfType = types.map(function (t) {
      var d = t.split('.')[0];
      var i = domains.indexOf(d);
      return i < 0 ? domains.length : i;
    });
    function colour(domainIndex) { return 'c' + Math.min(domainIndex, 8); }

    // Times: each event's, cumulative from the data's differences.
    var times = new Float64Array(count + 1);
    var t = data.start;
    times[0] = t;
    for (var i = 0; i < count; i++) { t += events[i][1]; times[i + 1] = t; }
    var positions = new Float64Array(count + 1);
    for (var j = 0; j <= count; j++) positions[j] = data.timed ? times[j] - times[0] : j;
    var span = Math.max(positions[count] - positions[0], 1e-9);

    // Runs: [event, seq, file, line] where lines stop being consecutive.
    var runs = data.runs;
    function runOf(i) {
      var lo = 0, hi = runs.length - 1, found = -1;
      while (lo <= hi) { var mid = (lo + hi) >> 1; if (runs[mid][0] <= i) { found = mid; lo = mid +
        1; } else hi = mid - 1; }
      return found < 0 ? null : runs[found];
    }
    function seqOf(i) { var r = runOf(i); return r ? r[1] + (i - r[0]) : i; }
    function placeOf(i) { var r = runOf(i); return r ? data.files[r[2]] + ':' + (r[3] +
      (i - r[0])) : ''; }
    function indexOfSeq(n) {
      // The last event whose number is at most n, as --at #n.
      var lo = 1, hi = count, found = 0;
      while (lo <= hi) { var mid = (lo + hi) >> 1; if (seqOf(mid) <= n) { found = mid; lo = mid +
        1; } else hi = mid - 1; }
      return found;
    }
    function timeText(ms) {
      if (!data.hasTimes) return '';
      var d = new Date(ms);
      return isNaN(d.getTime()) ? '' : d.toISOString().replace('T', ' ').replace('Z', ' UTC');
    }
    function duration(ms) {
      if (ms < 1000) return Math.round(ms) + ' ms';
      var s = ms / 1000;
      if (s < 120) return (Math.round(s * 100) / 100) + ' s';
      var m = s / 60;
      if (m < 120) return (Math.round(m * 10) / 10) + ' min';
      return (Math.round(m / 6) / 10) + ' h';
    }

    // Snapshots: the nearest keyframe, then the patches after it.
    var keyframes = data.keyframes;
    function keyOf(i) { return data.keyed ? events[i - 1][2] : -1; }
    function opStart() { return data.keyed ? 3 : 2; }
    // Applies event i's patch to doc (in a keyed report, the array of every key's state:
    // the patch is of the event's key's, and code -1 starts that key from the initial state).
    function apply(doc, i) {
      var e = events[i - 1];
      var key = data.keyed ? e[2] : -1;
      for (var k = opStart(); k < e.length;) {
        var code = e[k++];
        if (code === -1) { doc[key] = structuredClone(data.initial); continue; }
        var kind = code % 3, path = tokens[(code - kind) / 3];
        var value = kind === 2 ? undefined : clone(e[k++]);
        if (path.length === 0) {
          if (key >= 0) doc[key] = value; else doc = value;
          continue;
        }
        var parent = key >= 0 ? doc[key] : doc;
        for (var p = 0; p < path.length - 1; p++) parent = parent[path[p]];
        var last = path[path.length - 1];
        if (Array.isArray(parent)) {
          var index = last === '-' ? parent.length : Number(last);
          if (kind === 0) parent.splice(index, 0, value);
          else if (kind === 1) parent[index] = value;
          else parent.splice(index, 1);
        } else if (kind === 2) {
          delete parent[last];
        } else {
          setKey(parent, last, value);
        }
      }
      return doc;
    }
    var cache = { index: -1, doc: null };
    function snapshotAt(i) {
      if (cache.index === i) return cache.doc;
      var doc, from;
      if (cache.index >= 0 && cache.index < i && i - cache.index < 4096 &&
        (nearestKeyframe(i)[0] <= cache.index)) {
        doc = cache.doc; from = cache.index;
      } else {
        var kf = nearestKeyframe(i);
        doc = structuredClone(kf[1]); from = kf[0];
      }
      for (var n = from + 1; n <= i; n++) doc = apply(doc, n);
      cache = { index: i, doc: doc };
      return doc;
    }
    function nearestKeyframe(i) {
      var lo = 0, hi = keyframes.length - 1, found = 0;
      while (lo <= hi) { var mid = (lo + hi) >> 1; if (keyframes[mid][0] <= i) { found = mid;
        lo = mid + 1; } else hi = mid - 1; }
      return keyframes[found];
    }

    // Canonical JSON: keys sorted, as rasp prints.
    function canonical(v) {
      if (v === null || typeof v !== 'object') return JSON.stringify(v);
      if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
      return '{' + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ':' +
        canonical(v[k]); }).join(',') + '}';
    }
    function pointer(list) {
      return list.map(function (t) { return '/' + String(t).replace(/~/g, '~0').replace(/\//g,
        '~1'); }).join('');
    }
    function keyText(k) { var v = data.keys[k]; return typeof v === 'string' ? v :
      JSON.stringify(v); }

    // ---- Summary
    var s = data.summary;
    var logs = data.logs.length ? data.logs.join(', ') : 'standard input';
    $('title').textContent = data.logs.length === 1 ? data.logs[0] : data.logs.length + ' logs';
    document.title = 'rasp report: ' + logs;
    var sub = fmt(count) + (count === 1 ? ' event' : ' events');
    if (data.hasTimes && count > 0) sub += ' over ' + duration(times[count] - times[1]) +
      ', from ' + timeText(times[1]);
    $('subtitle').textContent = sub;
    if (count === 0) $('empty').hidden = false;
    function figure(id, label, value, small) {
      var d = el('div');
      d.appendChild(el('dt', null, label));
      var dd = el('dd', small ? 'small' : null, value);
      dd.id = id;
      d.appendChild(dd);
      $('figures').appendChild(d);
    }
    figure('stat-logs', data.logs.length === 1 ? 'Log' : 'Logs', logs, true);
    figure('stat-events', 'Events', fmt(count));
    figure('stat-read', 'Lines read', fmt(s.read));
    figure('stat-applied', 'Applied', fmt(s.applied));
    figure('stat-skipped', 'Skipped', fmt(s.skipped));
    figure('stat-ignored', 'Ignored', fmt(s.ignored));
    figure('stat-blank', 'Blank', fmt(s.blank));
    if (data.hasTimes && count > 0) {
      figure('stat-span', 'Time span', duration(times[count] - times[1]));
      figure('stat-start', 'First event', timeText(times[1]), true);
      figure('stat-end', 'Last event', timeText(times[count]), true);
    }
    if (data.keyed) figure('stat-keys', 'Keys', fmt(data.keys.length));
    $('stats-line').textContent = s.line;
    var byDomain = {};
    types.forEach(function (type, index) {
      var d = domainOfType[index];
      (byDomain[d] = byDomain[d] || []).push(index);
    });
    var tables = $('type-tables');
    var domainOrder = Object.keys(byDomain).map(Number).sort(function (a, b) {
      return a - b;
    });
    domainOrder.forEach(function (d) {
      var list = byDomain[d].slice().sort(function (a, b) {
        return types[a] < types[b] ? -1 : types[a] > types[b] ? 1 : 0;
      });
      var total = list.reduce(function (sum, index) {
        return sum + data.typeCounts[index];
      }, 0);
      var table = el('table', 'counts');
      var head = el('tr', 'domain');
      var name = el('th');
      name.appendChild(el('span', 'swatch ' + colour(d)));
      name.appendChild(document.createTextNode(d < domains.length ? domains[d] : 'other'));
      head.appendChild(name);
      var c = el('th', 'num', fmt(total));
      c.setAttribute('data-domain', d < domains.length ? domains[d] : '');
      head.appendChild(c);
      table.appendChild(head);
      list.forEach(function (index) {
        var r = el('tr', 'type');
        r.appendChild(el('td', null, types[index]));
        var n = el('td', 'num', fmt(data.typeCounts[index]));
        n.setAttribute('data-type', types[index]);
        n.setAttribute('data-count', data.typeCounts[index]);
        r.appendChild(n);
        table.appendChild(r);
      });
      tables.appendChild(table);
      var part = el('span', colour(d));
      part.title = (d < domains.length ? domains[d] : 'other') + ': ' + fmt(total);
      part.style.flexGrow = String(total);
      $('domain-bar').appendChild(part);
    });
    if (count === 0) $('details').hidden = true;
    s.problems.forEach(function (p) { $('skipped-list').appendChild(el('li', null, p)); });
    if (s.skipped > s.problems.length) {
      $('skipped-list').appendChild(el('li', 'muted', fmt(s.skipped - s.problems.length) +
        ' more bad lines'));
    }
    s.ignoredLines.forEach(function (p) {
      $('ignored-list').appendChild(el('li', null, p));
    });
    if (s.ignored > s.ignoredLines.length) {
      $('ignored-list').appendChild(el('li', null, fmt(s.ignored - s.ignoredLines.length) +
        ' more ignored lines'));
    }
    $('skipped-none').hidden = s.skipped + s.ignored > 0;
    $('ignored-note').textContent = s.ignoredNote;
    $('options').textContent = data.command;

    // ---- Timeline
    var legend = $('legend-domains');
    Object.keys(byDomain).map(Number).sort(function (a, b) { return a - b; }).forEach(function (d) {
      var l = el('span');
      l.appendChild(el('span', 'swatch ' + colour(d)));
      l.appendChild(document.createTextNode(d < domains.length ? domains[d] : 'other'));
      legend.appendChild(l);
    });
    var timeline = $('timeline');
    var columns = data.timeline.columns;
    var rows = data.timeline.counts.map(function (row) {
      var full = new Int32Array(columns), c = 0;
      row.forEach(function (n) { if (n < 0) c -= n; else full[c++] = n; });
      return full;
    });
    var totals = new Int32Array(columns), peak = 1;
    rows.forEach(function (row) { for (var c = 0; c < columns; c++) totals[c] += row[c]; });
    for (var c0 = 0; c0 < columns; c0++) peak = Math.max(peak, totals[c0]);
    var base = new Float64Array(columns);
    var height = 60, scaleLog = Math.log(1 + peak);
    rows.forEach(function (row, d) {
      var parts = [];
      for (var c = 0; c < columns; c++) {
        if (!row[c]) continue;
        var whole = height * Math.log(1 + totals[c]) / scaleLog;
        var h = Math.max(whole * row[c] / totals[c], 0.8);
        var x = c * 1000 / columns;
        parts.push('M' + x.toFixed(2) + ' ' + (62 - base[c]).toFixed(2) + 'v' + (-h).toFixed(2) +
          'h' + Math.max(1000 / columns, 0.9).toFixed(2) + 'v' + h.toFixed(2) + 'z');
        base[c] += h;
      }
      if (parts.length) timeline.appendChild(sv('path', { d: parts.join(''), 'class': colour(d),
        'data-domain': d }));
    });
    var cursor = sv('line', { x1: 0, x2: 0, y1: 0, y2: 64, 'class': 'cursor' });
    timeline.appendChild(cursor);
    var axis = $('axis'), lastTick = null;
    for (var a = 0; a <= 4; a++) {
      var at = positions[0] + span * a / 4;
      var tick = data.timed ? duration(at) : '#' + fmt(Math.round(at));
      axis.appendChild(el('span', null, tick === lastTick ? '' : tick));
      lastTick = tick;
    }
    function xOf(i) { return (positions[i] - positions[0]) / span; }
    function eventAtFraction(f) {
      var target = positions[0] + f * span, lo = 0, hi = count;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (positions[mid] < target) lo = mid + 1;
        else hi = mid; }
      if (lo > 0 && Math.abs(positions[lo - 1] - target) <= Math.abs(positions[lo] - target)) lo--;
      return lo;
    }
    function dragOn(box, fraction) {
      var down = false;
      function at(ev) { var r = box.getBoundingClientRect(); return Math.min(1, Math.max(0,
        (ev.clientX - r.left) / r.width)); }
      box.addEventListener('pointerdown', function (ev) { down = true;
        box.setPointerCapture(ev.pointerId); go(eventAtFraction(fraction(at(ev)))); });
      box.addEventListener('pointermove', function (ev) {
        if (down) go(eventAtFraction(fraction(at(ev)))); });
      box.addEventListener('pointerup', function () { down = false; });
    }
    dragOn(timeline, function (f) { return f; });

    // ---- Key picker
    var currentKey = -1;
    if (data.keyed) {
      $('key-label').hidden = false;
      var picker = $('key-picker');
      var all = el('option', null, 'all keys');
      all.value = '-1';
      picker.appendChild(all);
      data.keyOrder.forEach(function (k) { var o = el('option', null, keyText(k));
        o.value = String(k); picker.appendChild(o); });
      picker.addEventListener('change', function () { currentKey = Number(picker.value);
        drawTrack(); drawPlots(); render(); });
    }

    // ---- Assertions: each violation marked on the timeline, and listed; a click goes there
    var checked = data.assertions;
    if (checked && checked.violations.length) {
      $('violations').hidden = false;
      var shown = checked.violations.length, total = checked.total;
      $('violations-note').textContent = fmt(total) + (total === 1 ? ' violation' :
        ' violations') + ' of ' + fmt(checked.count) + (checked.count === 1 ? ' assertion' :
        ' assertions') + (shown < total ? ', the first ' + fmt(shown) + ' listed' : '') +
        '; click one to go to its event.';
      checked.violations.forEach(function (v, n) {
        var at = v.seq === null ? 0 : indexOfSeq(v.seq);
        var x = (xOf(at) * 1000).toFixed(2);
        var mark = sv('line', { x1: x, x2: x, y1: 0, y2: 64, 'class': 'violation-mark',
          'data-seq': v.seq === null ? '' : String(v.seq) });
        var tip = sv('title', {});
        tip.textContent = (v.final ? 'final assertion failed: ' : 'assertion failed: ') +
          v.assertion;
        mark.appendChild(tip);
        timeline.insertBefore(mark, cursor);
        var item = el('li');
        var jump = el('button', null, (v.final ? 'final: ' : '') + v.assertion + ' \u2014 ' +
          (v.seq === null ? 'the initial state' : 'event ' + fmt(v.seq)) +
          (v.file ? ', ' + v.file + ':' + v.line : '') +
          (v.key !== null && data.keyed ? ', key ' + JSON.stringify(v.key) : ''));
        jump.type = 'button';
        jump.id = 'violation-' + n;
        jump.setAttribute('data-event', String(at));
        jump.addEventListener('click', function () {
          if (data.keyed && v.key !== null) {
            var wanted = canonical(v.key);
            for (var k = 0; k < data.keys.length; k++) {
              if (canonical(data.keys[k]) === wanted) {
                currentKey = k; $('key-picker').value = String(k); drawTrack(); drawPlots();
                break;
              }
            }
          }
          go(at);
        });
        item.appendChild(jump);
        item.appendChild(el('pre', null, v.text));
        $('violations-list').appendChild(item);
      });
    }

    // ---- Tree
    var openPaths = new Set(['']);
    function typeClass(v) { return v === null ? 'v-null' : typeof v === 'boolean' ? 'v-bool' :
      typeof v === 'number' ? 'v-number' : 'v-string'; }
    function node(name, value, path, changed, parentDepth) {
      var here = pointer(path);
      var mark = changed.exact.has(here) ? 'changed' : changed.within.has(here) ? 'within' : '';
      if (value !== null && typeof value === 'object') {
        var det = el('details', mark);
        det.setAttribute('data-path', here);
        if (openPaths.has(here) || mark === 'within' || parentDepth < 1) det.open = true;
        var sum = el('summary');
        if (name !== null) { sum.appendChild(el('span', 'key', name));
          sum.appendChild(document.createTextNode(': ')); }
        var isArray = Array.isArray(value), keys = isArray ? null : Object.keys(value).sort();
        var n = isArray ? value.length : keys.length;
        sum.appendChild(el('span', 'count', (isArray ? '[' : '{') + ' ' + n + (isArray ? (n === 1 ?
          ' item ]' : ' items ]') : (n === 1 ? ' key }' : ' keys }'))));
        det.appendChild(sum);
        var box = el('div', 'children');
        det.appendChild(box);
        function fill() {
          if (box.childNodes.length || !det.open) return;
          var limit = 1000, shown = 0;
          if (isArray) {
            for (var i = 0; i < value.length && shown < limit; i++,
              shown++) box.appendChild(node(String(i), value[i], path.concat([String(i)]), changed,
              parentDepth + 1));
          } else {
            for (var k = 0; k < keys.length && shown < limit; k++,
              shown++) box.appendChild(node(keys[k], value[keys[k]], path.concat([keys[k]]),
              changed, parentDepth + 1));
          }
          if (n > limit) box.appendChild(el('div', 'muted', fmt(n - limit) + ' more (see JSON)'));
        }
        det.addEventListener('toggle', function () { if (det.open) { openPaths.add(here); fill();
          } else openPaths.delete(here); });
        fill();
        return det;
      }
      var leaf = el('div', 'leaf' + (mark ? ' ' + mark : ''));
      leaf.setAttribute('data-path', here);
      if (name !== null) { leaf.appendChild(el('span', 'key', name));
        leaf.appendChild(document.createTextNode(': ')); }
      leaf.appendChild(el('span', typeClass(value), JSON.stringify(value)));
      return leaf;
    }
    var view = 'tree';
    $('show-tree').addEventListener('click', function () { view = 'tree';
      $('show-tree').classList.add('on'); $('show-json').classList.remove('on'); render(); });
    $('show-json').addEventListener('click', function () { view = 'json';
      $('show-json').classList.add('on'); $('show-tree').classList.remove('on'); render(); });

    // ---- Scrubber
    // Without #event=N, the page opens at the last event: the state the log ends in.
    var current = count, pending = false;
    var scrub = $('scrubber'), number = $('event-number');
    scrub.max = String(count);
    number.max = String(count ? seqOf(count) : 0);
    $('event-total').textContent = 'of ' + fmt(count);
    function go(i) {
      i = Math.max(0, Math.min(count, i | 0));
      current = i;
      if (!pending) { pending = true; requestAnimationFrame(function () { pending = false;
        render(); }); }
    }
    scrub.addEventListener('input', function () { go(Number(scrub.value)); });
    number.addEventListener('change', function () { var n = Number(number.value);
      if (isFinite(n)) go(n <= 0 ? 0 : indexOfSeq(n)); });
    function step(direction) {
      var i = current + direction;
      if (currentKey >= 0) { while (i > 0 && i <= count && keyOf(i) !== currentKey) i += direction;
        }
      go(i);
    }
    $('previous').addEventListener('click', function () { step(-1); });
    $('next').addEventListener('click', function () { step(1); });
    document.addEventListener('keydown', function (ev) {
      var tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
      if (ev.key === 'ArrowLeft') { step(-1); ev.preventDefault(); }
      else if (ev.key === 'ArrowRight') { step(1); ev.preventDefault(); }
      else if (ev.key === 'Home') { go(0); ev.preventDefault(); }
      else if (ev.key === 'End') { go(count); ev.preventDefault(); }
    });
    function fromHash() {
      var m = /(?:^#|&)event=(\d+)/.exec(location.hash);
      if (m) { var n = Number(m[1]); current = n <= 0 ? 0 : indexOfSeq(n); }
      var k = /(?:^#|&)key=(-?\d+)/.exec(location.hash);
      if (k && data.keyed) { currentKey = Math.max(-1, Math.min(data.keys.length - 1,
        Number(k[1]))); $('key-picker').value = String(currentKey); }
    }
    window.addEventListener('hashchange', function () { fromHash(); drawTrack(); drawPlots();
      render(); });

    // What event i changed: its patch, and the paths to mark in the tree shown.
    function changes(i) {
      var exact = new Set(), within = new Set(), list = [];
      if (i < 1) return { exact: exact, within: within, list: list };
      var e = events[i - 1];
      var key = data.keyed ? e[2] : -1;
      if (key >= 0 && currentKey >= 0 && currentKey !== key) {
        return { exact: exact, within: within, list: list };
      }
      for (var k = opStart(); k < e.length;) {
        var code = e[k++];
        if (code === -1) continue;
        var kind = code % 3, path = tokens[(code - kind) / 3];
        var value = kind === 2 ? undefined : e[k++];
        var op = { op: ['add', 'replace', 'remove'][kind], path: pointer(path) };
        if (kind !== 2) op.value = value;
        list.push(op);
        var shown = key >= 0 && currentKey < 0 ? [keyText(key)].concat(path) : path;
        exact.add(pointer(shown));
        for (var n = 0; n < shown.length; n++) within.add(pointer(shown.slice(0, n)));
      }
      return { exact: exact, within: within, list: list };
    }
    function shownDoc(doc) {
      if (!data.keyed) return doc;
      if (currentKey >= 0) return doc[currentKey] === undefined ? null : doc[currentKey];
      var whole = {};
      data.keyOrder.forEach(function (k) { if (doc[k] !== undefined) setKey(whole, keyText(k),
        doc[k]); });
      return whole;
    }
    function render() {
      var began = performance.now();
      var i = current;
      scrub.value = String(i);
      number.value = String(i === 0 ? 0 : seqOf(i));
      try { history.replaceState(null, '', '#event=' + (i === 0 ? 0 : seqOf(i)) + (data.keyed &&
        currentKey >= 0 ? '&key=' + currentKey : '')); } catch (err) { /* a file URL may refuse */ }
      document.body.setAttribute('data-event', String(i));
      var x = (xOf(i) * 1000).toFixed(2);
      cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
      var line = $('event-line');
      line.textContent = '';
      if (i === 0) {
        line.appendChild(el('span', 'type', 'Initial state'));
        line.appendChild(document.createTextNode(' \u2014 before the first event'));
      } else {
        var type = types[events[i - 1][0]];
        line.appendChild(el('span', 'swatch ' + colour(domainOfType[events[i - 1][0]])));
        line.appendChild(document.createTextNode('#' + fmt(seqOf(i)) + '  '));
        line.appendChild(el('span', 'type', type));
        var where = placeOf(i);
        var parts = [];
        if (data.hasTimes) parts.push(timeText(times[i]));
        if (where) parts.push(where);
        if (data.keyed) parts.push('key ' + keyText(keyOf(i)));
        if (parts.length) line.appendChild(document.createTextNode('  \u00b7  ' +
          parts.join('  \u00b7  ')));
      }
      var doc = snapshotAt(i);
      var shown = shownDoc(doc);
      var ch = changes(i);
      var json = $('snapshot-json');
      // Every key's state as text is written only when it is shown, or small.
      if (data.keyed && currentKey < 0 && view !== 'json' && data.keys.length > 1000) {
        json.textContent = '';
      } else if (data.keyed && currentKey < 0) {
        json.textContent = data.keyOrder.filter(function (k) { return doc[k] !== undefined;
          }).map(function (k) {
          return '{"key":' + canonical(data.keys[k]) + ',"state":' + canonical(doc[k]) + '}';
        }).join('\n');
      } else {
        json.textContent = canonical(shown);
      }
      var tree = $('tree');
      tree.textContent = '';
      if (view === 'tree') {
        tree.hidden = false; json.hidden = true;
        if (shown !== null && typeof shown === 'object') {
          var keys = Array.isArray(shown) ? null : Object.keys(shown).sort();
          var list = keys ? keys : shown.map(function (_, n) { return String(n); });
          // Many entries (every key's state) start closed, but for the changed ones; at most
          // a thousand are drawn.
          var depth = list.length > 50 ? 1 : 0;
          list.slice(0, 1000).forEach(function (k) {
            tree.appendChild(node(k, shown[k], [k], ch, depth));
          });
          if (list.length > 1000) {
            tree.appendChild(el('div', 'muted', fmt(list.length - 1000) +
              ' more: pick a key, or see JSON'));
          }
          if (!list.length) tree.appendChild(el('div', 'muted', Array.isArray(shown) ?
            '[] (empty)' : '{} (empty)'));
        } else {
          tree.appendChild(node(null, shown, [], ch, 0));
        }
      } else {
        tree.hidden = true; json.hidden = false;
      }
      var body = $('diff').tBodies[0];
      body.textContent = '';
      ch.list.forEach(function (op) {
        var r = el('tr');
        r.appendChild(el('td', 'op op-' + op.op, op.op));
        r.appendChild(el('td', 'path', op.path === '' ? '(whole value)' : op.path));
        r.appendChild(el('td', 'value', op.op === 'remove' ? '' : canonical(op.value)));
        body.appendChild(r);
      });
      var other = data.keyed && currentKey >= 0 && i > 0 && keyOf(i) !== currentKey;
      $('diff-none').textContent = other
        ? 'This event is of key ' + keyText(keyOf(i)) + ': key ' + keyText(currentKey) +
          ' did not change.'
        : 'This event changed nothing.';
      $('diff-none').hidden = !(i > 0 && ch.list.length === 0);
      $('diff-json').textContent = JSON.stringify(ch.list);
      moveTrack(doc);
      movePlots(i);
      document.body.setAttribute('data-render-ms', (performance.now() - began).toFixed(1));
    }

    // ---- Geo track
    var trackSvg = $('track'), trackMarker = null, project = null;
    function drawTrack() {
      trackSvg.textContent = '';
      trackMarker = null;
      var points = data.track.filter(function (p) { return !data.keyed || currentKey < 0 ||
        p[4] === currentKey; });
      if (!data.track.length) return;
      $('track-section').hidden = false;
      var note = fmt(data.trackCount) + (data.trackCount === 1 ? ' location' : ' locations');
      if (data.track.length < data.trackCount) note += ', ' + fmt(data.track.length) + ' drawn';
      if (data.keyed && currentKey >= 0) note += '; ' + fmt(points.length) + ' of key ' +
        keyText(currentKey);
      if (data.keyed && currentKey < 0) {
        var trackKeys = new Set(points.map(function (p) { return p[4]; }));
        if (trackKeys.size > 1) note += '; one track per key (' + fmt(trackKeys.size) + ')';
      }
      $('track-note').textContent = note +
        '. Start \u25cf green, end \u25a0 red; arrows show the heading.';
      if (!points.length) { project = null; return; }
      var lat0 = 0, minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
      points.forEach(function (p) { lat0 += p[1]; });
      lat0 /= points.length;
      var k = Math.cos(lat0 * Math.PI / 180);
      points.forEach(function (p) { var x = p[2] * k, y = -p[1]; minX = Math.min(minX, x);
        maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); });
      var w = 600, h = 400, pad = 28;
      var scale = Math.min((w - 2 * pad) / Math.max(maxX - minX, 1e-12),
        (h - 2 * pad) / Math.max(maxY - minY, 1e-12));
      var ox = (w - (maxX - minX) * scale) / 2, oy = (h - (maxY - minY) * scale) / 2;
      project = function (lat, lon) { return [ox + (lon * k - minX) * scale, oy +
        (-lat - minY) * scale]; };
      // One path per key: two phones are two tracks, never one line between them.
      var groups = [], groupOf = {};
      points.forEach(function (p) {
        var g = data.keyed ? p[4] : 0;
        if (!(g in groupOf)) { groupOf[g] = groups.length; groups.push({ key: g, points: [] }); }
        groups[groupOf[g]].points.push(p);
      });
      groups.forEach(function (group) {
        var suffix = data.keyed ? '-' + group.key : '';
        var ps = group.points;
        var xy = ps.map(function (p) { return project(p[1], p[2]); });
        var line = sv('polyline', { 'class': 'path', id: 'track-line' + suffix, points:
          xy.map(function (q) { return q[0].toFixed(2) + ',' + q[1].toFixed(2); }).join(' '),
          'data-count': ps.length });
        if (data.keyed) {
          line.setAttribute('data-key', String(group.key));
          var title = sv('title', {}); title.textContent = keyText(group.key);
          line.appendChild(title);
        }
        trackSvg.appendChild(line);
        var every = Math.max(1, Math.floor(ps.length / 24));
        for (var n = 0; n < ps.length; n += every) {
          if (ps[n][3] === null) continue;
          trackSvg.appendChild(sv('path', { 'class': 'arrow', d: 'M0 -7 L4 4 L0 2 L-4 4 Z',
            transform: 'translate(' + xy[n][0].toFixed(2) + ' ' + xy[n][1].toFixed(2) +
            ') rotate(' + ps[n][3] + ')' }));
        }
        trackSvg.appendChild(sv('circle', { 'class': 'start', id: 'track-start' + suffix, cx:
          xy[0][0].toFixed(2), cy: xy[0][1].toFixed(2), r: 6 }));
        var e = xy[xy.length - 1];
        trackSvg.appendChild(sv('rect', { 'class': 'end', id: 'track-end' + suffix,
          x: (e[0] - 5).toFixed(2), y: (e[1] - 5).toFixed(2), width: 10, height: 10 }));
      });
      var metres = Math.max(maxX - minX, maxY - minY) * 111320;
      var label = sv('text', { x: 8, y: h - 8 });
      label.textContent = 'about ' + (metres < 2000 ? Math.round(metres) + ' m' :
        (Math.round(metres / 100) / 10) + ' km') + ' across';
      trackSvg.appendChild(label);
      trackMarker = sv('circle', { 'class': 'current', id: 'track-current', r: 7, cx: -100, cy:
        -100 });
      trackSvg.appendChild(trackMarker);
    }
    function moveTrack(doc) {
      if (!trackMarker || !project) return;
      var state = data.keyed ? (currentKey >= 0 ? doc[currentKey] : null) : doc;
      var loc = state && state.geo && state.geo.location;
      if (loc && typeof loc.latitude === 'number' && typeof loc.longitude === 'number') {
        var q = project(loc.latitude, loc.longitude);
        trackMarker.setAttribute('cx', q[0].toFixed(2)); trackMarker.setAttribute('cy',
          q[1].toFixed(2));
        trackMarker.removeAttribute('visibility');
      } else {
        trackMarker.setAttribute('visibility', 'hidden');
      }
    }

    // ---- Plots
    var hiddenSeries = new Set(), plotCursors = [];
    function drawPlots() {
      var box = $('plots'), legendBox = $('legend-series');
      box.textContent = ''; legendBox.textContent = ''; plotCursors = [];
      var prefix = data.keyed && currentKey >= 0 ? JSON.stringify(data.keys[currentKey]) + ' ' :
        null;
      var list = data.series.map(function (se, n) { return { se: se, n: n };
        }).filter(function (o) { return prefix === null || o.se.label.indexOf(prefix) === 0; });
      if (!data.series.length) return;
      $('plots-section').hidden = false;
      var note = fmt(list.length) + (list.length === 1 ? ' field changes' : ' fields change') +
        ' over the replay';
      if (data.untrackedSeries) note += '; ' + fmt(data.untrackedSeries) + ' more not plotted';
      $('plots-note').textContent = note +
        '. Hover a plot for its values; click to go to an event.';
      list.forEach(function (o) {
        var se = o.se, colourClass = 'c' + (o.n % 8);
        var label = el('label');
        var box2 = el('input'); box2.type = 'checkbox'; box2.checked = !hiddenSeries.has(o.n);
        box2.setAttribute('data-series', se.label);
        box2.addEventListener('change', function () { if (box2.checked) hiddenSeries.delete(o.n);
          else hiddenSeries.add(o.n); drawPlots(); movePlots(current); });
        label.appendChild(box2);
        label.appendChild(el('span', 'swatch ' + colourClass));
        label.appendChild(document.createTextNode(se.label));
        legendBox.appendChild(label);
        if (hiddenSeries.has(o.n)) return;
        var values = se.points.map(function (p) { return p[1]; }).filter(function (v) {
          return v !== null; });
        var lo = Infinity, hi = -Infinity;
        values.forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); });
        var least = lo, most = hi;
        if (hi === lo) { hi += 1; lo -= 1; }
        var plot = el('div', 'plot');
        plot.setAttribute('data-series', se.label);
        var h4 = el('h4', null, se.label);
        h4.appendChild(el('span', null, 'min ' + fmtValue(least) +
          ' \u00b7 max ' + fmtValue(most)));
        plot.appendChild(h4);
        var svg = sv('svg', { viewBox: '0 0 1000 100', preserveAspectRatio: 'none', role: 'img' });
        svg.appendChild(sv('line', { x1: 0, x2: 1000, y1: 4, y2: 4, 'class': 'grid' }));
        svg.appendChild(sv('line', { x1: 0, x2: 1000, y1: 96, y2: 96, 'class': 'grid' }));
        function y(v) { return 96 - 92 * (v - lo) / (hi - lo); }
        var d = '', open = false;
        se.points.forEach(function (p, n) {
          var x = xOf(p[0]) * 1000;
          if (p[1] === null) { open = false; return; }
          if (!open) { d += 'M' + x.toFixed(2) + ' ' + y(p[1]).toFixed(2); open = true; }
          else d += 'H' + x.toFixed(2) + 'V' + y(p[1]).toFixed(2);
          var next = n + 1 < se.points.length ? xOf(se.points[n + 1][0]) * 1000 : 1000;
          if (n + 1 === se.points.length) d += 'H' + next.toFixed(2);
        });
        svg.appendChild(sv('path', { d: d, 'class': 'line ' + colourClass, 'data-points':
          se.points.length }));
        var cur = sv('line', { x1: 0, x2: 0, y1: 0, y2: 100, 'class': 'cursor' });
        svg.appendChild(cur);
        plotCursors.push(cur);
        plot.appendChild(svg);
        function nearest(ev) {
          var r = svg.getBoundingClientRect(), f = Math.min(1, Math.max(0,
            (ev.clientX - r.left) / r.width));
          var i = eventAtFraction(f), best = null;
          for (var n = 0; n < se.points.length && se.points[n][0] <= i; n++) best = se.points[n];
          return { i: i, p: best };
        }
        svg.addEventListener('mousemove', function (ev) {
          var hit = nearest(ev), tip = $('tooltip');
          tip.hidden = false;
          tip.textContent = se.label + ' = ' + (hit.p && hit.p[1] !== null ? fmtValue(hit.p[1]) :
            'none') + '  at #' + fmt(hit.i === 0 ? 0 : seqOf(hit.i)) + (data.hasTimes &&
            hit.i > 0 ? '  ' + timeText(times[hit.i]) : '');
          tip.style.left = (ev.clientX + 12) + 'px'; tip.style.top = (ev.clientY + 12) + 'px';
        });
        svg.addEventListener('mouseleave', function () { $('tooltip').hidden = true; });
        svg.addEventListener('click', function (ev) { go(nearest(ev).i); });
        box.appendChild(plot);
      });
    }
    function movePlots(i) {
      var x = (xOf(i) * 1000).toFixed(2);
      plotCursors.forEach(function (c) { c.setAttribute('x1', x); c.setAttribute('x2', x); });
    }

    fromHash();
    drawTrack();
    drawPlots();
    render();
    document.body.setAttribute('data-load-ms', performance.now().toFixed(0));
    // #bench=N: scrub to N events spread over the log, one after another, as a drag does,
    // and keep the slowest step, to measure that scrubbing keeps up.
    var bench = /(?:^#|&)bench=(\d+)/.exec(openedAt);
    if (bench && count > 0) {
      var steps = Number(bench[1]), slowest = 0, total = 0;
      for (var b = 1; b <= steps; b++) {
        current = Math.round(b * count / (steps + 1));
        var t0 = performance.now();
        render();
        var took = performance.now() - t0;
        total += took;
        slowest = Math.max(slowest, took);
      }
      document.body.setAttribute('data-scrub-slowest-ms', slowest.toFixed(1));
      document.body.setAttribute('data-scrub-mean-ms', (total / steps).toFixed(1));
    }
    // #dump=1: every snapshot, one canonical line each, for tests to compare with a replay.
    if (/(?:^#|&)dump=1/.test(openedAt) && !data.keyed) {
      var all = el('pre');
      all.id = 'all-snapshots';
      all.hidden = true;
      var lines = [];
      for (var d0 = 0; d0 <= count; d0++) lines.push(canonical(snapshotAt(d0)));
      all.textContent = lines.join('\n');
      document.body.appendChild(all);
    }
    document.body.setAttribute('data-ready', 'true');
    })();

    """#
}
