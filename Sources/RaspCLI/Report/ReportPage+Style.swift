extension ReportPage {
  /// The page's style sheet: system fonts, a light and a dark theme (`prefers-color-scheme`),
  /// and one colour per domain.
  static let style = #"""
    :root {
      --bg: #f6f7f9; --card: #ffffff; --text: #1c2330; --muted: #5d6776; --line: #dfe3e9;
      --accent: #2f5bd3; --accent-soft: #e5ecfd; --changed: #fff1c2; --changed-text: #6b4e00;
      --bad: #b42318; --mono: ui-monospace, "SF Mono", "DejaVu Sans Mono", Menlo, Consolas,
        monospace;
      --d0: #2f6fde; --d1: #d9480f; --d2: #2b8a3e; --d3: #ae3ec9; --d4: #0c8599; --d5: #e67700;
      --d6: #c2255c; --d7: #5c7cfa; --d8: #868e96;
      color-scheme: light;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #0f1419; --card: #171d25; --text: #e4e8ee; --muted: #99a3b1; --line: #2a323d;
        --accent: #7aa2ff; --accent-soft: #1f2d4d; --changed: #4a3b10; --changed-text: #ffe08a;
        --bad: #ff8a80;
        --d0: #6ea0ff; --d1: #ff8a50; --d2: #63c174; --d3: #d78cf0; --d4: #4fc3d6; --d5: #ffb74d;
        --d6: #f06595; --d7: #91a7ff; --d8: #adb5bd;
        color-scheme: dark;
      }
    }
    * { box-sizing: border-box; }
    html { background: var(--bg); color: var(--text); }
    body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
      sans-serif; }
    .wrap { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
    .top { background: var(--card); border-bottom: 1px solid var(--line); padding: 22px 0 18px;
      margin-bottom: 22px; }
    .kicker { margin: 0; font-size: 12px; letter-spacing: .08em; text-transform: uppercase;
      color: var(--accent); font-weight: 600; }
    h1 { margin: 2px 0 4px; font-size: 26px; line-height: 1.2; font-weight: 650;
      overflow-wrap: anywhere; }
    h2 { margin: 0 0 12px; font-size: 18px; font-weight: 620; }
    h3 { margin: 18px 0 8px; font-size: 13px; font-weight: 620; text-transform: uppercase;
      letter-spacing: .05em; color: var(--muted); }
    .subtitle { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
      padding: 18px 20px; margin-bottom: 18px; }
    .card-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; }
    .notice { background: var(--accent-soft); border-radius: 10px; padding: 14px 18px;
      font-weight: 550; }
    .muted { color: var(--muted); }
    .mono { font-family: var(--mono); font-size: 13px; }
    .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
      gap: 10px; margin: 0 0 10px; }
    .figures div { background: var(--bg); border-radius: 8px; padding: 10px 12px; }
    .figures dt { font-size: 12px; color: var(--muted); }
    .figures dd { margin: 0; font-size: 20px; font-weight: 640; font-variant-numeric: tabular-nums;
      overflow-wrap: anywhere; }
    .figures dd.small { font-size: 14px; font-weight: 560; }
    .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 28px; }
    .split { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 18px; }
    .split .card { margin-bottom: 18px; }
    @media (max-width: 860px) { .columns, .split { grid-template-columns: 1fr; } }
    table { border-collapse: collapse; width: 100%; }
    .type-tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr));
      gap: 8px 28px; align-items: start; }
    .domain-bar { display: flex; height: 8px; border-radius: 4px; overflow: hidden; gap: 2px;
      margin: 4px 0 6px; }
    .domain-bar span { min-width: 3px; }
    .counts th, .counts td { text-align: left; padding: 4px 6px;
      border-bottom: 1px solid var(--line); }
    .counts th { font-size: 12px; color: var(--muted); font-weight: 600; }
    .counts .num { text-align: right; font-variant-numeric: tabular-nums; width: 7em; }
    .counts .domain th { font-size: 15px; color: var(--text); padding-top: 4px; }
    .counts .domain td { font-weight: 640; padding-top: 10px; }
    .counts .type td:first-child { padding-left: 22px; font-family: var(--mono); font-size: 13px; }
    .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 3px;
      margin-right: 8px; vertical-align: baseline; }
    .problems { margin: 0; padding-left: 22px; color: var(--bad); overflow-wrap: anywhere; }
    .ignored { margin: 6px 0 0; padding-left: 22px; color: var(--muted); overflow-wrap: anywhere; }
    .legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin-bottom: 8px; font-size: 13px; }
    .legend label { display: inline-flex; align-items: center; gap: 6px; cursor: pointer; }
    .timeline-box { border: 1px solid var(--line); border-radius: 6px; background: var(--bg);
      cursor: pointer; }
    #timeline { display: block; width: 100%; height: 72px; }
    .axis { display: flex; justify-content: space-between; color: var(--muted); font-size: 12px;
      margin-top: 4px; }
    .scrubber { display: flex; align-items: center; gap: 10px; margin-top: 12px; flex-wrap: wrap; }
    .scrubber input[type=range] { flex: 1 1 320px; accent-color: var(--accent); }
    .scrubber button, .tab { font: inherit; color: var(--text); background: var(--bg);
      border: 1px solid var(--line); border-radius: 6px; padding: 3px 10px; cursor: pointer; }
    .scrubber button:hover, .tab:hover { border-color: var(--accent); }
    .tab.on { background: var(--accent-soft); border-color: var(--accent); }
    #event-number { width: 7em; font: inherit; color: var(--text); background: var(--bg);
      border: 1px solid var(--line); border-radius: 6px; padding: 2px 6px; }
    select { font: inherit; color: var(--text); background: var(--bg);
      border: 1px solid var(--line); border-radius: 6px; padding: 2px 6px; max-width: 16em; }
    .event-line { margin: 12px 0 0; padding: 10px 12px; border-left: 3px solid var(--accent);
      background: var(--bg); border-radius: 0 6px 6px 0; overflow-wrap: anywhere; }
    .event-line .type { font-family: var(--mono); font-weight: 650; }
    .tree { max-height: 560px; overflow: auto; line-height: 1.6; }
    .tree details > div, .tree .children { margin-left: 18px; }
    .tree summary { cursor: pointer; }
    .tree .leaf { padding-left: 14px; }
    .tree .key { color: var(--accent); }
    .tree .v-string { color: var(--d2); }
    .tree .v-number { color: var(--d1); }
    .tree .v-bool, .tree .v-null { color: var(--d3); }
    .tree .count { color: var(--muted); }
    .tree .changed > summary, .tree .leaf.changed { background: var(--changed);
      color: var(--changed-text); border-radius: 4px; }
    .tree .within > summary .key { text-decoration: underline dotted; }
    .json { margin: 0; max-height: 560px; overflow: auto; white-space: pre-wrap;
      overflow-wrap: anywhere; }
    .diff td { padding: 3px 6px; border-bottom: 1px solid var(--line); vertical-align: top;
      overflow-wrap: anywhere; }
    .diff .op { width: 5.5em; font-weight: 650; }
    .diff .path { width: 45%; }
    .diff .op-add { color: var(--d2); } .diff .op-remove { color: var(--bad);
      } .diff .op-replace { color: var(--d1); }
    .track-box svg { width: 100%; max-height: 380px; display: block; background: var(--bg);
      border-radius: 6px; }
    #track .path { fill: none; stroke: var(--d0); stroke-width: 2; stroke-linejoin: round;
      vector-effect: non-scaling-stroke; }
    #track .arrow { fill: var(--muted); }
    #track .start { fill: var(--d2); } #track .end { fill: var(--bad); }
    #track .current { fill: var(--accent); stroke: var(--card); stroke-width: 2; }
    #track text { fill: var(--muted); font-size: 12px; font-family: system-ui, sans-serif; }
    .plots { display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(440px,
      1fr)); }
    .plot { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px 4px; }
    .plot h4 { margin: 0; font: 600 13px var(--mono); display: flex;
      justify-content: space-between; gap: 8px; }
    .plot h4 span { color: var(--muted); font-weight: 400; }
    .plot svg { width: 100%; height: 90px; display: block; }
    .plot .line { fill: none; stroke-width: 1.6; vector-effect: non-scaling-stroke; }
    .cursor { stroke: var(--accent); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    .violation-mark { stroke: var(--bad); stroke-width: 4; vector-effect: non-scaling-stroke;
      opacity: 0.85; }
    .violations { margin: 0; padding-left: 22px; }
    .violations button { font: inherit; color: var(--bad); background: none; border: 0;
      padding: 0; cursor: pointer; text-align: left; text-decoration: underline; }
    .violations pre { margin: 2px 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
    .grid { stroke: var(--line); stroke-width: 1; vector-effect: non-scaling-stroke; }
    .tooltip { position: fixed; pointer-events: none; background: var(--text); color: var(--bg);
      padding: 4px 8px; border-radius: 5px; z-index: 10; white-space: nowrap; }
    .c0 { color: var(--d0); fill: var(--d0); stroke: var(--d0); background: var(--d0); }
    .c1 { color: var(--d1); fill: var(--d1); stroke: var(--d1); background: var(--d1); }
    .c2 { color: var(--d2); fill: var(--d2); stroke: var(--d2); background: var(--d2); }
    .c3 { color: var(--d3); fill: var(--d3); stroke: var(--d3); background: var(--d3); }
    .c4 { color: var(--d4); fill: var(--d4); stroke: var(--d4); background: var(--d4); }
    .c5 { color: var(--d5); fill: var(--d5); stroke: var(--d5); background: var(--d5); }
    .c6 { color: var(--d6); fill: var(--d6); stroke: var(--d6); background: var(--d6); }
    .c7 { color: var(--d7); fill: var(--d7); stroke: var(--d7); background: var(--d7); }
    .c8 { color: var(--d8); fill: var(--d8); stroke: var(--d8); background: var(--d8); }
    .plot .line.c0, .plot .line.c1, .plot .line.c2, .plot .line.c3, .plot .line.c4, .plot .line.c5,
      .plot .line.c6, .plot .line.c7, .plot .line.c8 { fill: none; background: none; }
    [hidden] { display: none !important; }

    """#
}
