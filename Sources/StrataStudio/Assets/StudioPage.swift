/// The studio's HTML page: a frame that the script fills from the API. No part of it comes from the network.
enum StudioPage {
    /// The page.
    static let html = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Strata Studio</title>
    <link rel="stylesheet" href="/studio.css">
    </head>
    <body>
    <header>
      <h1>Strata Studio</h1>
      <span id="file-path"></span>
      <span id="mode" class="badge"></span>
      <span id="live" class="badge" title="The page reloads when any process commits to the file">live</span>
    </header>
    <div id="error" class="error" hidden></div>
    <div id="notice" class="notice" hidden></div>
    <div id="layout">
      <nav id="sidebar">
        <h2>File</h2>
        <ul>
          <li><a href="#" id="nav-status">Status</a></li>
          <li><a href="#" id="nav-schema">Schema</a></li>
        </ul>
        <h2>Models</h2>
        <ul id="models"></ul>
      </nav>
      <main id="main">
        <section id="status-view" hidden></section>
        <section id="schema-view" hidden></section>
        <section id="model-view" hidden>
          <h2 id="model-title"></h2>
          <form id="query-form" autocomplete="off">
            <input id="query-input" type="text" spellcheck="false"
                   placeholder="Predicate, e.g. age >= 18 AND home.city == 'Oslo' (empty: every object)">
            <button id="query-run" type="submit">Run</button>
            <button id="query-clear" type="button">Clear</button>
          </form>
          <pre id="query-error" class="error" hidden></pre>
          <div id="explain" class="explain"></div>
          <div class="toolbar">
            <button id="page-prev" type="button">&larr; Previous</button>
            <span id="page-info"></span>
            <button id="page-next" type="button">Next &rarr;</button>
            <button id="page-count" type="button" hidden>Count all matches</button>
            <span class="spacer"></span>
            <button id="add-object" type="button">Add object</button>
            <a id="export-json" class="button" href="#">Export JSON</a>
            <a id="export-csv" class="button" href="#">Export CSV</a>
            <label class="button">Import <input id="import-file" type="file" accept=".json,.csv" hidden></label>
          </div>
          <div class="grid-frame"><table id="grid"></table></div>
        </section>
        <section id="object-view" hidden>
          <h2 id="object-title"></h2>
          <div class="toolbar">
            <button id="object-back" type="button">&larr; Back to the table</button>
            <span class="spacer"></span>
            <button id="object-delete" type="button" class="danger">Delete object</button>
          </div>
          <table id="object-properties" class="properties"></table>
          <h3>Linking objects</h3>
          <div id="object-linking"></div>
        </section>
        <section id="insert-view" hidden>
          <h2 id="insert-title"></h2>
          <p>The new object's values as JSON, in the form <code>strata export</code> writes: links are the linked
          object's primary key, lists are arrays. Properties left out take their defaults.</p>
          <textarea id="insert-json" rows="10" spellcheck="false"></textarea>
          <div class="toolbar">
            <button id="insert-save" type="button">Add</button>
            <button id="insert-cancel" type="button">Cancel</button>
          </div>
        </section>
      </main>
    </div>
    <dialog id="edit-dialog">
      <form method="dialog" id="edit-form">
        <h3 id="edit-title"></h3>
        <p id="edit-hint"></p>
        <textarea id="edit-value" rows="4" spellcheck="false"></textarea>
        <pre id="edit-error" class="error" hidden></pre>
        <div class="toolbar">
          <button id="edit-save" type="button">Save</button>
          <button id="edit-cancel" type="button">Cancel</button>
        </div>
      </form>
    </dialog>
    <script src="/studio.js"></script>
    </body>
    </html>
    """#
}
