/// The studio's script: fetches the API and draws the views (status, schema, a model's table, one object).
enum StudioScript {
    /// The JavaScript.
    static let javaScript = #"""
    "use strict";
    const params = new URLSearchParams(location.search);
    const token = params.get("token") || sessionStorage.getItem("strataStudioToken") || "";
    if (params.get("token")) {
      sessionStorage.setItem("strataStudioToken", token);
      history.replaceState(null, "", location.pathname);
    }
    const $ = (id) => document.getElementById(id);
    const state = { view: "status", model: null, offset: 0, limit: 50, sort: null, desc: false, filter: "",
                    object: null, schema: null, status: null, readOnly: true, countAll: false };

    async function api(path, options) {
      const init = Object.assign({ headers: {} }, options || {});
      init.headers["X-Strata-Studio-Token"] = token;
      const response = await fetch(path, init);
      const text = await response.text();
      let body;
      try { body = JSON.parse(text); } catch (e) { body = { error: text }; }
      if (!response.ok) {
        const error = new Error(body.error || response.statusText);
        error.body = body;
        error.status = response.status;
        throw error;
      }
      return body;
    }

    function post(path, body) {
      return api(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
    }

    function showError(message) {
      const box = $("error");
      box.textContent = message;
      box.hidden = !message;
    }

    function showNotice(message) {
      const box = $("notice");
      box.textContent = message;
      box.hidden = !message;
      if (message) setTimeout(() => { if (box.textContent === message) box.hidden = true; }, 4000);
    }

    function element(tag, attributes, ...children) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(attributes || {})) {
        if (key === "class") node.className = value;
        else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
        else node.setAttribute(key, value);
      }
      for (const child of children) {
        if (child === null || child === undefined) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
      return node;
    }

    function bytes(count) {
      if (count >= 1 << 30) return (count / (1 << 30)).toFixed(2) + " GiB";
      if (count >= 1 << 20) return (count / (1 << 20)).toFixed(1) + " MiB";
      if (count >= 1 << 10) return (count / (1 << 10)).toFixed(1) + " KiB";
      return count + " B";
    }

    function show(view) {
      state.view = view;
      for (const name of ["status", "schema", "model", "object", "insert"]) $(name + "-view").hidden = name !== view;
      for (const link of document.querySelectorAll("#sidebar a")) link.classList.remove("active");
      if (view === "status") $("nav-status").classList.add("active");
      if (view === "schema") $("nav-schema").classList.add("active");
      if (view === "model" || view === "object") {
        const link = document.querySelector(`#models a[data-model="${CSS.escape(state.model)}"]`);
        if (link) link.classList.add("active");
      }
    }

    function reference(ref) {
      return element("a", { class: "ref", href: "#", "data-model": ref.model, "data-key": ref.key,
                            title: `${ref.model} #${ref.key}`,
                            onclick: (event) => { event.preventDefault(); openObject(ref.model, ref.key); } },
                     `${ref.model} ${ref.label}`);
    }

    function cell(value) {
      if (value === null) return { node: "null", null: true };
      if (typeof value === "object" && value.$ref) return { node: reference(value.$ref) };
      if (typeof value === "object" && value.$refs) {
        const span = element("span");
        for (const ref of value.$refs) span.append(reference(ref.$ref));
        if (value.count > value.$refs.length) span.append(` … ${value.count} in all`);
        if (value.count === 0) span.append("[]");
        return { node: span };
      }
      if (typeof value === "object" && value.$map) {
        const span = element("span");
        for (const [name, ref] of Object.entries(value.$map)) {
          span.append(name + ": ");
          span.append(ref ? reference(ref.$ref) : "null");
          span.append(" ");
        }
        if (value.count > Object.keys(value.$map).length) span.append(` … ${value.count} in all`);
        return { node: span };
      }
      if (typeof value === "string") return { node: value };
      return { node: JSON.stringify(value) };
    }

    async function loadStatus() {
      const status = await api("/api/status");
      state.status = status;
      state.readOnly = status.readOnly;
      $("file-path").textContent = status.path;
      $("mode").textContent = status.readOnly ? "read-only" : "editable";
      const list = $("models");
      list.replaceChildren();
      for (const model of status.models) {
        list.append(element("li", {}, element("a", { href: "#", "data-model": model.name,
          onclick: (event) => { event.preventDefault(); openModel(model.name); } },
          element("span", {}, model.name), element("span", { class: "count" }, model.objects))));
      }
      return status;
    }

    function drawStatus(status) {
      const view = $("status-view");
      const total = Math.max(1, status.segments.reduce((sum, segment) => sum + Number(segment.bytes), 0));
      const bar = element("div", { id: "status-bar" });
      const legend = element("ul", { class: "legend" });
      for (const segment of status.segments) {
        const share = Number(segment.bytes) / total * 100;
        const piece = element("div", { class: "seg-" + segment.name,
                                       title: `${segment.name}: ${bytes(Number(segment.bytes))}` });
        piece.style.width = `${share}%`;
        bar.append(piece);
        legend.append(element("li", {}, element("span", { class: "swatch seg-" + segment.name }),
          `${segment.name} ${bytes(Number(segment.bytes))} (${share.toFixed(1)}%): ${segment.words}`));
      }
      const figures = element("dl", { class: "figures" });
      const add = (name, value) => figures.append(element("dt", {}, name), element("dd", {}, value));
      add("File", status.path);
      add("Version", status.version);
      add("Page size", bytes(status.pageSize));
      add("File size", bytes(status.fileBytes));
      add("Used", bytes(status.usedBytes));
      add("Free", bytes(status.freeBytes));
      add("Waiting for readers", bytes(status.waitingBytes));
      add("Oldest version pinned", status.oldestPinned === null ? "none (no reader is open)" : status.oldestPinned);
      add("Pinned by this process", status.pinnedInProcess.length ? status.pinnedInProcess.join(", ") : "none");
      add("Encrypted", status.encrypted ? "yes" : "no");
      add("Edits", status.readOnly ? "refused (--read-only)" : "allowed, one write transaction each");
      if (status.recovery) add("Opening", status.recovery);
      view.replaceChildren(element("h2", {}, "File status"), bar, legend, figures);
    }

    async function openStatus() {
      showError("");
      try { drawStatus(await loadStatus()); show("status"); } catch (error) { showError(error.message); }
    }

    async function openSchema() {
      showError("");
      try {
        const schema = await api("/api/schema");
        state.schema = schema;
        const view = $("schema-view");
        const history = schema.history;
        const versions = element("ul");
        for (const version of history.versions) {
          versions.append(element("li", {}, `version ${version.version} (fingerprint ${version.fingerprint}): `
                                          + version.words));
        }
        view.replaceChildren(element("h2", {}, history.schema ? `Schema ${history.schema}` : "Schema"),
                             element("p", { class: "muted" }, history.summary), versions);
        for (const model of schema.models) {
          const properties = element("table", { class: "properties" },
            element("tr", {}, element("th", {}, "Property"), element("th", {}, "Type"), element("th", {}, "Notes")));
          for (const property of model.properties) {
            const notes = [];
            if (property.primaryKey) notes.push("primary key");
            if (property.target) {
              notes.push(`links to ${property.target}` + (property.targetEmbedded ? " (embedded)" : ""));
            }
            if (property.optional) notes.push("optional");
            properties.append(element("tr", {}, element("td", { class: "name" }, property.name),
                                      element("td", {}, property.type), element("td", {}, notes.join(", "))));
          }
          const lines = [];
          for (const index of model.indexes) lines.push(`${index.kind}: ${index.properties.join(" + ")}`);
          for (const rule of model.deleteRules) lines.push(`onDelete: ${rule.property} ${rule.rule}`);
          for (const link of model.linkingObjects) lines.push(`linked from ${link.model}.${link.property}`);
          view.append(element("div", { class: "model-card", "data-model": model.name },
            element("h3", {}, model.name + (model.embedded ? " (embedded)" : "")),
            element("p", { class: "muted" }, `${model.objects} object(s)`), properties,
            element("ul", {}, ...lines.map((line) => element("li", {}, line)))));
        }
        show("schema");
      } catch (error) { showError(error.message); }
    }

    function openModel(name) {
      if (state.model !== name) {
        state.model = name; state.offset = 0; state.sort = null; state.desc = false; state.filter = "";
        $("query-input").value = "";
      }
      state.countAll = false;
      return loadPage();
    }

    function queryString(extra) {
      const query = new URLSearchParams({ model: state.model, offset: state.offset, limit: state.limit });
      if (state.sort) query.set("sort", state.sort);
      if (state.desc) query.set("desc", "1");
      if (state.filter) query.set("filter", state.filter);
      if (state.countAll) query.set("count", "1");
      for (const [key, value] of Object.entries(extra || {})) query.set(key, value);
      return query.toString().replace(/\+/g, "%20");
    }

    function showPredicateError(body) {
      const box = $("query-error");
      if (!body) { box.hidden = true; box.textContent = ""; return; }
      let text = body.error;
      if (body.predicate !== undefined && body.offset !== undefined) {
        const encoded = new TextEncoder().encode(body.predicate);
        const prefix = new TextDecoder().decode(encoded.slice(0, Number(body.offset)));
        text = body.predicate + "\n" + " ".repeat([...prefix].length) + "^\n" + body.error;
      }
      box.textContent = text;
      box.hidden = false;
    }

    async function loadPage() {
      showError("");
      show("model");
      $("model-title").textContent = state.model;
      $("add-object").disabled = state.readOnly;
      $("export-json").href = "/api/export?" + queryString({ format: "json" });
      $("export-csv").href = "/api/export?" + queryString({ format: "csv" });
      try {
        const page = await api("/api/objects?" + queryString());
        showPredicateError(null);
        drawPage(page);
      } catch (error) {
        if (error.body && error.body.predicate !== undefined) {
          showPredicateError(error.body);
          $("grid").replaceChildren();
          $("explain").textContent = "";
          $("page-info").textContent = "";
        } else {
          showError(error.message);
        }
      }
    }

    function drawPage(page) {
      const grid = $("grid");
      const head = element("tr", {}, element("th", { title: "The stable object key" }, "key"));
      for (const column of page.columns) {
        const arrow = state.sort === column.name ? (state.desc ? " ▼" : " ▲") : "";
        const th = element("th", { "data-property": column.name }, column.name + arrow,
                           element("span", { class: "type" }, column.type));
        if (column.kind === "value") {
          th.addEventListener("click", () => {
            if (state.sort === column.name) {
              state.desc = !state.desc;
            } else {
              state.sort = column.name;
              state.desc = false;
            }
            state.offset = 0;
            loadPage();
          });
        }
        head.append(th);
      }
      const rows = [head];
      for (const row of page.rows) {
        const tr = element("tr", { "data-key": row.key },
          element("td", { class: "key" }, element("a", { href: "#", "data-key": row.key,
            onclick: (event) => { event.preventDefault(); openObject(page.model, row.key); } }, "#" + row.key)));
        row.values.forEach((value) => {
          const shown = cell(value);
          tr.append(element("td", shown.null ? { class: "null" } : {}, shown.node));
        });
        rows.push(tr);
      }
      grid.replaceChildren(...rows);
      const first = page.rows.length ? page.offset + 1 : 0;
      const last = page.offset + page.rows.length;
      const of = page.total === null ? (page.more ? `more than ${last} matches` : `${last} matches`) : `${page.total}`;
      $("page-info").textContent = `${first}–${last} of ${of}` + (state.filter ? ` (${page.objects} objects)` : "");
      $("page-prev").disabled = page.offset === 0;
      $("page-next").disabled = !page.more;
      $("page-count").hidden = page.total !== null;
      $("explain").textContent = `explain: ${page.explain} — ${page.milliseconds} ms on the server`;
    }

    async function openObject(model, key) {
      showError("");
      try {
        const object = await api(`/api/object?model=${encodeURIComponent(model)}&key=${key}`);
        state.model = object.model;
        state.object = { model: object.model, key: Number(key) };
        $("object-title").textContent = `${object.model} ${object.label}`;
        const table = $("object-properties");
        const rows = [element("tr", {}, element("th", {}, "Property"), element("th", {}, "Value"),
                              element("th", {}, "Type"), element("th", {}, ""))];
        object.columns.forEach((column, index) => {
          const value = object.row.values[index];
          const shown = cell(value);
          const edit = element("button", { type: "button", class: "edit", "data-property": column.name,
                                           onclick: () => openEditor(object.model, key, column, value) }, "Edit");
          if (state.readOnly || column.kind === "linkingObjects") edit.disabled = true;
          rows.push(element("tr", { "data-property": column.name }, element("td", { class: "name" }, column.name),
                            element("td", shown.null ? { class: "null value" } : { class: "value" }, shown.node),
                            element("td", { class: "muted" }, column.type), element("td", {}, edit)));
        });
        table.replaceChildren(...rows);
        const linking = $("object-linking");
        linking.replaceChildren();
        if (!object.linkingObjects.length) linking.append(element("p", { class: "muted" }, "No object links here."));
        for (const group of object.linkingObjects) {
          const line = element("p", {}, `${group.model}.${group.property}: `);
          for (const ref of group.objects) line.append(reference(ref.$ref));
          linking.append(line);
        }
        $("object-delete").disabled = state.readOnly;
        show("object");
      } catch (error) { showError(error.message); }
    }

    function editText(column, value) {
      if (value === null) return "null";
      if (typeof value === "object" && value.$ref) return JSON.stringify(value.$ref.label);
      if (typeof value === "object" && value.$refs) return JSON.stringify(value.$refs.map((ref) => ref.$ref.label));
      if (typeof value === "string" && column.kind === "value" && column.element === "string") return value;
      return JSON.stringify(value);
    }

    function openEditor(model, key, column, value) {
      const dialog = $("edit-dialog");
      $("edit-title").textContent = `${model} #${key}: ${column.name} (${column.type})`;
      $("edit-hint").textContent = column.kind === "value" && column.element === "string"
        ? "Text as it is stored (no quotes)." + (column.optional ? " Write null for no value." : "")
        : "The value as JSON, in the form strata export writes (a link is the linked object's primary key).";
      $("edit-value").value = editText(column, value);
      $("edit-error").hidden = true;
      dialog.dataset.model = model;
      dialog.dataset.key = key;
      dialog.dataset.property = column.name;
      dialog.dataset.plain = column.kind === "value" && column.element === "string" ? "1" : "";
      dialog.dataset.optional = column.optional ? "1" : "";
      dialog.showModal();
    }

    async function saveEdit() {
      const dialog = $("edit-dialog");
      const text = $("edit-value").value;
      let value;
      if (dialog.dataset.plain) {
        value = text === "null" && dialog.dataset.optional ? null : text;
      } else {
        try { value = JSON.parse(text); } catch (error) {
          $("edit-error").textContent = "not JSON: " + error.message;
          $("edit-error").hidden = false;
          return;
        }
      }
      try {
        await post("/api/set", { model: dialog.dataset.model, key: Number(dialog.dataset.key),
                                 property: dialog.dataset.property, value });
        dialog.close();
        showNotice(`Saved ${dialog.dataset.model}.${dialog.dataset.property}`);
        await openObject(dialog.dataset.model, dialog.dataset.key);
      } catch (error) {
        $("edit-error").textContent = error.message;
        $("edit-error").hidden = false;
      }
    }

    async function deleteObject() {
      const object = state.object;
      if (!object || !confirm(`Delete ${object.model} #${object.key}? Its delete rules apply.`)) return;
      try {
        const result = await post("/api/delete", { model: object.model, key: object.key });
        showNotice(`Deleted ${result.deleted} object(s)`);
        await loadStatus();
        await openModel(object.model);
      } catch (error) { showError(error.message); }
    }

    function openInsert() {
      $("insert-title").textContent = `Add a ${state.model}`;
      $("insert-json").value = "{\n}";
      show("insert");
    }

    async function saveInsert() {
      let object;
      try {
        object = JSON.parse($("insert-json").value);
      } catch (error) {
        showError("not JSON: " + error.message);
        return;
      }
      try {
        const result = await post("/api/insert", { model: state.model, object });
        showNotice(`Added ${state.model} #${result.key}`);
        await loadStatus();
        await openObject(state.model, result.key);
      } catch (error) { showError(error.message); }
    }

    async function importFile(file) {
      const format = file.name.toLowerCase().endsWith(".csv") ? "csv" : "json";
      try {
        const result = await api(`/api/import?model=${encodeURIComponent(state.model)}&format=${format}`,
                                 { method: "POST", body: await file.arrayBuffer() });
        showNotice(`Imported ${result.imported} ${state.model} object(s)`);
        await loadStatus();
        await loadPage();
      } catch (error) { showError(error.message); }
    }

    let refreshTimer = null;
    function refreshSoon(version) {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(async () => {
        if ($("edit-dialog").open || state.view === "insert") return;
        try {
          await loadStatus();
          if (state.view === "status") drawStatus(state.status);
          else if (state.view === "schema") await openSchema();
          else if (state.view === "model") await loadPage();
          else if (state.view === "object") await openObject(state.object.model, state.object.key);
          $("live").title = `Reloaded at version ${version}`;
        } catch (error) { showError(error.message); }
      }, 150);
    }

    function listen() {
      const source = new EventSource("/api/events");
      source.addEventListener("open", () => $("live").classList.add("on"));
      source.addEventListener("error", () => $("live").classList.remove("on"));
      source.addEventListener("commit", (event) => refreshSoon(JSON.parse(event.data).version));
    }

    $("nav-status").addEventListener("click", (event) => { event.preventDefault(); openStatus(); });
    $("nav-schema").addEventListener("click", (event) => { event.preventDefault(); openSchema(); });
    $("query-form").addEventListener("submit", (event) => {
      event.preventDefault();
      state.filter = $("query-input").value.trim();
      state.offset = 0;
      state.countAll = false;
      loadPage();
    });
    $("query-clear").addEventListener("click", () => { $("query-input").value = ""; state.filter = ""; loadPage(); });
    $("page-prev").addEventListener("click", () => {
      state.offset = Math.max(0, state.offset - state.limit);
      loadPage();
    });
    $("page-next").addEventListener("click", () => { state.offset += state.limit; loadPage(); });
    $("page-count").addEventListener("click", () => { state.countAll = true; loadPage(); });
    $("add-object").addEventListener("click", openInsert);
    $("insert-save").addEventListener("click", saveInsert);
    $("insert-cancel").addEventListener("click", () => loadPage());
    $("object-back").addEventListener("click", () => openModel(state.model));
    $("object-delete").addEventListener("click", deleteObject);
    $("edit-save").addEventListener("click", saveEdit);
    $("edit-cancel").addEventListener("click", () => $("edit-dialog").close());
    $("import-file").addEventListener("change", (event) => {
      if (event.target.files.length) importFile(event.target.files[0]);
      event.target.value = "";
    });

    openStatus().then(listen);
    """#
}
