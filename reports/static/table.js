// simverify report: search, filter and sort the requirement table. No dependencies, no
// network, works from file://. The page is complete without it: the table is all there, this
// only adds the controls (which is why they are created here and not in the HTML).
(function () {
  "use strict";
  var table = document.getElementById("requirements");
  if (!table || !table.tBodies.length) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows).filter(function (row) {
    return row.hasAttribute("data-status");
  });
  if (!rows.length) return;

  function distinct(attribute) {
    var seen = [];
    rows.forEach(function (row) {
      var v = row.getAttribute(attribute);
      if (v !== null && seen.indexOf(v) < 0) seen.push(v);
    });
    return seen.sort();
  }

  function element(tag, attributes, text) {
    var e = document.createElement(tag);
    Object.keys(attributes).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    if (text !== undefined) e.textContent = text;  // textContent: ids and titles stay text
    return e;
  }

  var bar = element("div", { "class": "table-tools", role: "search" });
  var search = element("input", { type: "search", placeholder: "Search id, title, reason…",
                                  "aria-label": "search requirements", id: "req-search" });
  bar.appendChild(search);
  var filters = [];
  [["data-status", "status"], ["data-level", "level"], ["data-component", "component"],
   ["data-change", "change"]].forEach(function (pair) {
    var values = distinct(pair[0]);
    if (values.length < 2 && pair[1] !== "status") return;
    if (!values.length) return;
    var select = element("select", { "aria-label": "filter by " + pair[1], "data-filter": pair[0] });
    select.appendChild(element("option", { value: "" }, "any " + pair[1]));
    values.forEach(function (v) { select.appendChild(element("option", { value: v }, v)); });
    bar.appendChild(select);
    filters.push(select);
  });
  var count = element("span", { "class": "muted small", id: "req-count" });
  bar.appendChild(count);
  table.parentNode.insertBefore(bar, table);

  function apply() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      filters.forEach(function (f) {
        if (f.value && row.getAttribute(f.getAttribute("data-filter")) !== f.value) ok = false;
      });
      row.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  search.addEventListener("input", apply);
  filters.forEach(function (f) { f.addEventListener("change", apply); });

  // Sorting: click a header; again to reverse. Numbers sort by data-value, empty last.
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  headers.forEach(function (th, column) {
    var kind = th.getAttribute("data-sort");
    if (!kind) return;
    th.classList.add("sort");
    th.tabIndex = 0;
    th.title = (th.title ? th.title + "; " : "") + "click to sort";
    function sort() {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      function key(row) {
        var cell = row.cells[column];
        var v = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent.trim();
        if (kind === "number") return v === "" ? null : parseFloat(v);
        return v.toLowerCase();
      }
      var sorted = rows.slice().sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === y) return 0;
        if (x === null || (typeof x === "number" && isNaN(x))) return 1;
        if (y === null || (typeof y === "number" && isNaN(y))) return -1;
        return (x < y ? -1 : 1) * (ascending ? 1 : -1);
      });
      sorted.forEach(function (row) { body.appendChild(row); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
  // A filtered or sorted view can be linked: index.html?status=failed&level=unit&q=ode4&sort=Margin
  // (the query string works from file:// too).
  var params = {};
  location.search.replace(/^\?/, "").split("&").forEach(function (pair) {
    var kv = pair.split("=");
    if (kv[0]) params[decodeURIComponent(kv[0])] = decodeURIComponent((kv[1] || "").replace(/\+/g, " "));
  });
  if (params.q) search.value = params.q;
  filters.forEach(function (f) {
    var wanted = params[f.getAttribute("data-filter").replace("data-", "")];
    if (wanted) f.value = wanted;
  });
  if (params.sort) {
    headers.forEach(function (th) {
      if (th.hasAttribute("data-sort") && th.textContent.trim().toLowerCase() === params.sort.toLowerCase()) th.click();
    });
  }
  apply();
})();
