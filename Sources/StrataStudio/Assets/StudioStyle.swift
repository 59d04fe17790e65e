/// The studio's style sheet.
enum StudioStyle {
    /// The CSS.
    static let css = #"""
    :root { --ink: #1d2330; --muted: #5d6677; --line: #d9dde5; --accent: #2f6fde; --bad: #b3261e; --bg: #f6f7f9; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
           background: var(--bg); }
    header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; background: #1d2330; color: #fff; }
    header h1 { font-size: 17px; margin: 0; }
    #file-path { font-family: ui-monospace, monospace; opacity: 0.85; }
    .badge { font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #3c465a; }
    #live.on { background: #1f7a44; }
    #layout { display: flex; min-height: calc(100vh - 44px); }
    #sidebar { width: 220px; padding: 8px 12px; border-right: 1px solid var(--line); background: #fff; }
    #sidebar h2 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 14px 0 4px; }
    #sidebar ul { list-style: none; margin: 0; padding: 0; }
    #sidebar li a { display: flex; justify-content: space-between; padding: 3px 6px; border-radius: 4px;
                    color: var(--ink); text-decoration: none; }
    #sidebar li a.active, #sidebar li a:hover { background: #e8eefb; }
    #sidebar .count { color: var(--muted); font-size: 12px; }
    main { flex: 1; padding: 12px 18px; min-width: 0; }
    main h2 { margin: 4px 0 10px; font-size: 18px; }
    .error { background: #fdecea; color: var(--bad); border: 1px solid #f3b8b3; padding: 8px 12px; margin: 8px 16px;
             white-space: pre-wrap; border-radius: 4px; }
    main .error { margin: 8px 0; }
    .notice { background: #e9f5ee; color: #1f5f3a; border: 1px solid #b9dfc7; padding: 6px 12px; margin: 8px 16px;
              border-radius: 4px; }
    #query-form { display: flex; gap: 6px; }
    #query-input { flex: 1; font: 13px ui-monospace, monospace; padding: 6px 8px; border: 1px solid var(--line);
                   border-radius: 4px; }
    button, .button { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 4px;
                      background: #fff; color: var(--ink); cursor: pointer; text-decoration: none; }
    button:disabled { opacity: 0.45; cursor: default; }
    button.danger { color: var(--bad); border-color: #f3b8b3; }
    .toolbar { display: flex; align-items: center; gap: 6px; margin: 8px 0; flex-wrap: wrap; }
    .spacer { flex: 1; }
    .explain { color: var(--muted); font-size: 12px; margin: 6px 0; font-family: ui-monospace, monospace; }
    .grid-frame { overflow: auto; max-height: calc(100vh - 250px); background: #fff; border: 1px solid var(--line); }
    table { border-collapse: collapse; width: 100%; }
    th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top;
             max-width: 340px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    th { position: sticky; top: 0; background: #eef1f6; cursor: pointer; user-select: none; font-weight: 600; }
    th .type { font-weight: normal; color: var(--muted); font-size: 11px; margin-left: 4px; }
    td.key a, a.ref { color: var(--accent); text-decoration: none; cursor: pointer; }
    a.ref { background: #eef3fd; padding: 0 5px; border-radius: 3px; margin-right: 3px; }
    td.null { color: #a0a6b2; font-style: italic; }
    table.properties td { white-space: normal; }
    table.properties td.name { font-weight: 600; width: 200px; }
    .model-card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px;
                  margin-bottom: 12px; }
    .model-card h3 { margin: 0 0 6px; }
    .muted { color: var(--muted); }
    #status-bar { display: flex; height: 28px; border-radius: 4px; overflow: hidden; border: 1px solid var(--line);
                  margin: 10px 0; background: #fff; }
    #status-bar div { height: 100%; }
    .seg-used { background: #2f6fde; } .seg-free { background: #7fc49a; } .seg-waiting { background: #e7a33e; }
    .seg-unallocated { background: #c9ced8; }
    .legend span.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -2px;
                          border-radius: 2px; }
    dl.figures { display: grid; grid-template-columns: 220px auto; gap: 2px 12px; }
    dl.figures dt { color: var(--muted); } dl.figures dd { margin: 0; font-family: ui-monospace, monospace; }
    textarea { width: 100%; font: 13px ui-monospace, monospace; padding: 6px; border: 1px solid var(--line);
               border-radius: 4px; }
    dialog { border: 1px solid var(--line); border-radius: 6px; width: 520px; }
    """#
}
