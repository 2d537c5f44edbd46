// Cartograph's fleet dashboard: one ES module, no build step, no library. It signs in with the broker's bearer
// token (a /?token=… link signs in once and the token leaves the address bar), calls the REST API with it, and polls
// the view on screen every 2 s. Every value from the API is put in the page as text, never as markup.

const POLL_MS = 2000;
const ROW_PX = 30;            // the height of a table row (app.css --row): long tables draw only the rows in view
const VIRTUAL_FROM = 200;     // rows from which a table is drawn that way
const TOKEN_KEY = "cartograph.token";

const state = { view: "fleet", cluster: null, explain: null, timer: null, busy: false, last: null };

// ---- small helpers ----

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const $ = (id) => document.getElementById(id);

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

class Unauthorized extends Error {}

async function api(path, options = {}) {
  const headers = Object.assign({ Authorization: "Bearer " + token() }, options.headers || {});
  const response = await fetch(path, Object.assign({}, options, { headers, cache: "no-store" }));
  if (response.status === 401) {
    throw new Unauthorized((await response.json().catch(() => ({})))?.error?.message || "the token was refused");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body?.error?.message || response.status + " " + response.statusText;
    throw new Error(message);
  }
  return body;
}

function age(seconds) {
  if (seconds < 60) return seconds + " s";
  if (seconds < 3600) return Math.floor(seconds / 60) + " min";
  return Math.floor(seconds / 3600) + " h";
}

// ---- tables: a header row and a body; past VIRTUAL_FROM rows only those in view are in the DOM ----
// Rows that wrap are taller than ROW_PX, so a long table measures the rows it drew and sizes the spacers for those
// not drawn by that height (kept across the refresh every 2 s), keeping the row on top where it was; the window drawn
// never starts past the last rows, so scrolling to the end always shows the end.

function table(container, columns, rows) {
  const before = container.querySelector(".scroll");
  const scrolledTo = before ? before.scrollTop : 0; // kept across the refresh every 2 s
  let rowPx = Number(container.dataset.rowPx) || ROW_PX;
  container.replaceChildren();
  if (rows.length === 0) {
    container.append(el("p", { class: "empty", text: "None." }));
    return;
  }
  const head = el("tr", {}, columns.map((c) => el("th", { class: c.num ? "num" : null, scope: "col", text: c.title })));
  const tbody = el("tbody");
  const tableEl = el("table", {}, el("thead", {}, head), tbody);
  const draw = (from, to) => {
    tbody.replaceChildren();
    if (from > 0) tbody.append(spacer(columns.length, from * rowPx));
    for (let i = from; i < to; i++) tbody.append(row(columns, rows[i]));
    if (to < rows.length) tbody.append(spacer(columns.length, (rows.length - to) * rowPx));
  };
  if (rows.length < VIRTUAL_FROM) {
    draw(0, rows.length);
    container.append(tableEl);
    return;
  }
  const measure = () => { // true when the rows drawn are not as tall as the spacers assumed
    const drawn = tbody.querySelectorAll("tr[data-key]");
    let sum = 0;
    for (const tr of drawn) sum += tr.getBoundingClientRect().height;
    const measured = sum > 0 ? sum / drawn.length : rowPx;
    const changed = Math.abs(measured - rowPx) > 0.5;
    rowPx = measured;
    container.dataset.rowPx = String(rowPx);
    return changed;
  };
  const scroll = el("div", { class: "scroll" }, tableEl);
  const redraw = () => {
    const top = scroll.scrollTop / rowPx; // the row at the top of the view
    const place = () => {
      const visible = Math.ceil((scroll.clientHeight || 600) / rowPx) + 40;
      const first = Math.min(Math.max(0, Math.floor(top) - 20), Math.max(0, rows.length - visible));
      draw(first, Math.min(rows.length, first + visible));
    };
    place();
    if (measure()) place(); // drawn again with spacers of the measured height
    const anchored = Math.round(top * rowPx); // the same row stays on top
    if (Math.abs(scroll.scrollTop - anchored) > 1) scroll.scrollTop = anchored;
  };
  scroll.addEventListener("scroll", () => requestAnimationFrame(redraw));
  container.append(scroll);
  draw(0, Math.min(rows.length, Math.floor(scrolledTo / rowPx) + 80)); // tall enough to scroll back to
  scroll.scrollTop = scrolledTo;
  redraw();
}

function spacer(span, height) {
  const td = el("td", { colspan: span });
  td.style.height = height + "px";
  td.style.padding = "0";
  td.style.border = "0";
  return el("tr", { "aria-hidden": "true" }, td);
}

function row(columns, r) {
  return el("tr", { "data-key": r.key }, columns.map((c) => {
    const value = c.value(r);
    const td = el("td", { class: [c.num ? "num" : "", c.wrap ? "wrap" : ""].join(" ").trim() || null });
    if (value instanceof Node) td.append(value);
    else td.textContent = value === undefined || value === null ? "" : String(value);
    return td;
  }));
}

function yesNo(b) {
  return el("span", { class: b ? "yes" : "no", text: b ? "yes" : "no" });
}

// ---- views ----

async function fleet() {
  const [summary, domains] = await Promise.all([api("/api/v1/fleet/summary"), api("/api/v1/fleet/domains")]);
  const t = summary.totals;
  $("fleet-totals").replaceChildren(
    total("Clusters", summary.clusters.length),
    total("GPUs", t.total),
    total("Allocated", t.allocated),
    total("Reserved", t.reserved),
    total("Free", t.free),
    total("Queued gangs", summary.queued));
  const rows = [];
  for (const c of summary.clusters) {
    const models = c.gpuModels.length ? c.gpuModels : [{ model: "", nodes: c.nodes, total: 0, allocated: 0, reserved: 0, free: 0, largestFreeBlock: 0 }];
    for (const m of models) rows.push({ key: c.name + "/" + m.model, cluster: c, m });
  }
  table($("fleet-table"), [
    { title: "Cluster", value: (r) => el("button", { class: "link", "data-cluster": r.cluster.name, text: r.cluster.name,
        "aria-label": "node map of " + r.cluster.name, onclick: () => { state.cluster = r.cluster.name; refresh(); } }) },
    { title: "Ready", value: (r) => yesNo(r.cluster.ready) },
    { title: "GPU model", value: (r) => r.m.model || "—" },
    { title: "Nodes", num: true, value: (r) => r.m.nodes },
    { title: "Total", num: true, value: (r) => r.m.total },
    { title: "Allocated", num: true, value: (r) => r.m.allocated },
    { title: "Reserved", num: true, value: (r) => r.m.reserved },
    { title: "Free", num: true, value: (r) => r.m.free },
    { title: "Largest block", num: true, value: (r) => r.m.largestFreeBlock },
    { title: "Free GPUs per node", value: (r) => fragmentation(r.cluster) },
    { title: "Heartbeat", num: true, value: (r) => age(r.cluster.heartbeatAgeSeconds) },
  ], rows);
  if (state.cluster) await nodeMap(state.cluster);
  const byDomain = domains.domains.filter((d) => d.totalGpus > 0);
  $("domains").hidden = byDomain.length === 0;
  table($("domain-table"), [
    { title: "Cluster", value: (d) => d.cluster },
    { title: "Level", value: (d) => d.level },
    { title: "Domain", value: (d) => d.domain },
    { title: "GPU model", value: (d) => d.gpuModel },
    { title: "Nodes", num: true, value: (d) => d.nodes },
    { title: "Free", num: true, value: (d) => d.freeGpus },
    { title: "Total", num: true, value: (d) => d.totalGpus },
    { title: "Largest block", num: true, value: (d) => d.largestFreeBlock },
    { title: "Whole free nodes", num: true, value: (d) => d.wholeFreeNodes },
  ], byDomain.map((d) => Object.assign({ key: [d.cluster, d.level, d.domain, d.gpuModel].join("/") }, d)));
}

function total(label, value) {
  return el("div", { class: "total" }, el("b", { text: value }), label);
}

/** A bar per cluster: a segment per "k GPUs free", as wide as the share of its GPU nodes with k free. */
function fragmentation(c) {
  const counts = c.nodesByFreeGpus || [];
  const all = counts.reduce((a, b) => a + b, 0) + (c.unusableGpuNodes || 0);
  const bar = el("div", { class: "frag", role: "img",
    "aria-label": counts.map((n, k) => n + " nodes with " + k + " free").join(", ") || "no GPU nodes" });
  if (all === 0) return bar;
  const max = Math.max(1, counts.length - 1);
  if (c.unusableGpuNodes) bar.append(segment(c.unusableGpuNodes / all, "off"));
  counts.forEach((n, k) => { if (n > 0) bar.append(segment(n / all, "f" + shade(k, max))); });
  return bar;
}

function segment(share, cls) {
  const s = el("span", { class: "cell " + cls });
  s.style.width = share * 100 + "%";
  s.style.borderRadius = "0";
  s.style.border = "0";
  return s;
}

function shade(free, gpus) {
  if (free <= 0 || gpus <= 0) return 0;
  return Math.min(4, Math.max(1, Math.ceil((free / gpus) * 4)));
}

async function nodeMap(name) {
  const box = $("nodemap");
  let map;
  try {
    map = await api("/api/v1/clusters/" + encodeURIComponent(name) + "/nodes");
  } catch (e) {
    box.hidden = false;
    box.replaceChildren(el("p", { class: "error", text: name + ": " + e.message }));
    return;
  }
  const narrowest = [...map.levels].reverse();
  const groups = new Map();
  for (const n of map.nodes) {
    const level = narrowest.find((l) => n.domains[l] !== undefined);
    const label = level ? level + "=" + n.domains[level] : "no topology domain";
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push(n);
  }
  const gpuNodes = map.nodes.filter((n) => n.gpus > 0);
  box.hidden = false;
  box.replaceChildren(
    el("h2", { text: "Node map: " + name + (map.ready ? "" : " (not ready)") }),
    el("p", { class: "hint", text: gpuNodes.length + " GPU nodes, " + gpuNodes.reduce((a, n) => a + n.free, 0) + " GPUs free; a cell a node, darker: more free." }),
    legend(),
    ...[...groups.entries()].map(([label, nodes]) => el("div", { class: "domain" },
      el("h3", { text: label + " — " + nodes.reduce((a, n) => a + n.free, 0) + " of " + nodes.reduce((a, n) => a + n.gpus, 0) + " GPUs free" }),
      el("div", { class: "cells", role: "list" }, nodes.map((n) => el("div", {
        class: "cell " + (n.usable ? "f" + shade(n.free, n.gpus) : "off"), role: "listitem", tabindex: 0,
        "data-node": n.name, "data-free": n.free,
        title: n.name + ": " + n.free + " of " + n.gpus + " GPUs free" + (n.gpuModel ? " (" + n.gpuModel + ")" : "") + (n.usable ? "" : ", cannot take pods"),
        "aria-label": n.name + ", " + n.free + " of " + n.gpus + " GPUs free" + (n.usable ? "" : ", cannot take pods") }))))),
    el("button", { class: "quiet", text: "Close node map", onclick: () => { state.cluster = null; box.hidden = true; } }));
}

function legend() {
  const item = (cls, text) => el("span", {}, el("span", { class: "cell " + cls }), text);
  return el("div", { class: "legend" }, item("f0", "none free"), item("f1", "up to ¼"), item("f2", "up to ½"),
    item("f3", "up to ¾"), item("f4", "all free"), item("off", "cannot take pods"));
}

async function queue() {
  const w = (await api("/api/v1/workloads")).workloads.filter((x) => x.state === "QUEUED");
  w.sort((a, b) => (a.queuePosition || 1e9) - (b.queuePosition || 1e9));
  table($("queue-table"), [
    { title: "#", num: true, value: (x) => x.queuePosition || "" },
    { title: "Workload", value: (x) => x.kind + " " + x.namespace + "/" + x.name },
    { title: "Team", value: (x) => x.namespace },
    { title: "Priority", num: true, value: (x) => x.priority },
    { title: "Waiting", num: true, value: (x) => age(Math.max(0, Math.round((Date.now() - Date.parse(x.submitted)) / 1000))) },
    { title: "Why it waits", wrap: true, value: (x) => x.reason },
  ], w.map((x) => Object.assign({ key: x.uid }, x)));
}

async function placements() {
  const w = (await api("/api/v1/workloads")).workloads.filter((x) => x.cluster);
  table($("placement-table"), [
    { title: "Workload", value: (x) => el("button", { class: "link", text: x.kind + " " + x.namespace + "/" + x.name,
        "data-uid": x.uid, onclick: () => { state.explain = x.uid; refresh(); } }) },
    { title: "Cluster", value: (x) => x.cluster },
    { title: "State", value: (x) => x.state },
    { title: "Phase", value: (x) => x.phase || "" },
    { title: "Pods", num: true, value: (x) => x.pods ?? "" },
    { title: "GPUs", num: true, value: (x) => x.gpus ?? "" },
    { title: "Epoch", num: true, value: (x) => x.epoch },
  ], w.map((x) => Object.assign({ key: x.uid }, x)));
  if (state.explain) await explain(state.explain);
}

async function explain(uid) {
  const box = $("explain");
  const w = await api("/api/v1/workloads/" + encodeURIComponent(uid));
  box.hidden = false;
  const verdicts = w.verdicts || [];
  box.replaceChildren(
    el("h2", { text: w.kind + " " + w.namespace + "/" + w.name + (w.cluster ? " on " + w.cluster : "") }),
    verdicts.length === 0 ? el("p", { class: "hint", text: "The broker has no decision for it in memory (it was placed before the broker started)." }) : "",
    el("div", { class: "table" }, (() => { const d = el("div"); table(d, [
      { title: "Cluster", value: (v) => v.cluster + (v.chosen ? " (chosen)" : "") },
      { title: "Fits", value: (v) => yesNo(v.fits) },
      { title: "Why", wrap: true, value: (v) => v.reason },
    ], verdicts.map((v) => Object.assign({ key: v.cluster }, v))); return d; })()),
    el("button", { class: "quiet", text: "Close", onclick: () => { state.explain = null; box.hidden = true; } }));
}

async function whatIf(event) {
  event.preventDefault();
  const box = $("plan");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "hint", text: "Planning…" }));
  const policy = $("policy").value;
  try {
    const d = await api("/api/v1/plan" + (policy ? "?policy=" + policy : ""), {
      method: "POST", headers: { "Content-Type": "application/yaml" }, body: $("manifest").value });
    const pin = d.pin ? Object.entries(d.pin).map(([k, v]) => k + "=" + v).join(", ") : "";
    const assignments = d.assignments || [];
    box.replaceChildren(
      el("h2", { id: "plan-result", text: d.decision === "Placed" ? "Placed on " + d.cluster : "Fits nowhere now" }),
      pin ? el("p", { text: "In topology domain " + pin }) : "",
      (() => { const t = el("div", { class: "table" }); table(t, [
        { title: "Cluster", value: (v) => v.name + (v.name === d.cluster ? " (chosen)" : "") },
        { title: "Fits", value: (v) => yesNo(v.fits) },
        { title: "Why", wrap: true, value: (v) => v.reason },
      ], d.clusters.map((v) => Object.assign({ key: v.name }, v))); return t; })(),
      assignments.length ? el("h2", { text: "Pods (" + assignments.length + ")" }) : "",
      assignments.length ? (() => { const t = el("div", { class: "table" }); table(t, [
        { title: "Component", value: (a) => a.component },
        { title: "Pod", num: true, value: (a) => a.pod },
        { title: "Node", value: (a) => a.node },
      ], assignments.map((a, i) => Object.assign({ key: String(i) }, a))); return t; })() : "");
  } catch (e) {
    if (e instanceof Unauthorized) return signedOut(e.message);
    box.replaceChildren(el("p", { class: "error", role: "alert", text: e.message }));
  }
}

async function usage() {
  const [queues, used] = await Promise.all([api("/api/v1/queues"), api("/api/v1/usage?since=7d&by=queue")]);
  table($("queues-table"), [
    { title: "Queue", value: (q) => q.name + (q.parent ? " (in " + q.parent + ")" : "") },
    { title: "Weight", num: true, value: (q) => q.weight },
    { title: "Nominal GPUs", num: true, value: (q) => q.nominalGPUs },
    { title: "In use", num: true, value: (q) => q.inUseGPUs },
    { title: "Borrowed", num: true, value: (q) => q.borrowedGPUs },
    { title: "Waiting", num: true, value: (q) => q.waiting },
    { title: "Share", num: true, value: (q) => q.share },
  ], queues.queues.map((q) => Object.assign({ key: q.name }, q)));
  table($("usage-table"), [
    { title: "Queue", value: (r) => r.queue },
    { title: "GPU model", value: (r) => r.gpuModel },
    { title: "GPU-hours", num: true, value: (r) => r.gpuHours.toFixed(2) },
  ], used.rows.map((r) => Object.assign({ key: r.queue + "/" + r.gpuModel }, r)));
}

const VIEWS = { fleet, queue, placements, whatif: async () => {}, usage };

// ---- navigation, sign-in, polling ----

function show(view) {
  state.view = view;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const selected = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $("view-" + tab.dataset.view).hidden = !selected;
  }
  refresh();
}

async function refresh() {
  if (state.busy || !token()) return;
  state.busy = true;
  try {
    await VIEWS[state.view]();
    state.last = new Date();
    $("status").className = "status";
    $("status").textContent = "Live · updated " + state.last.toLocaleTimeString();
  } catch (e) {
    if (e instanceof Unauthorized) {
      signedOut(e.message);
    } else {
      $("status").className = "status stale";
      $("status").textContent = "Not updated: " + e.message + (state.last ? " (last " + state.last.toLocaleTimeString() + ")" : "");
    }
  } finally {
    state.busy = false;
  }
}

function signedIn() {
  $("signin").hidden = true;
  $("tabs").hidden = false;
  $("signout").hidden = false;
  show(state.view);
  clearInterval(state.timer);
  state.timer = setInterval(refresh, POLL_MS);
}

function signedOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  clearInterval(state.timer);
  $("tabs").hidden = true;
  $("signout").hidden = true;
  for (const p of document.querySelectorAll("[role=tabpanel]")) p.hidden = true;
  $("signin").hidden = false;
  $("signin-error").textContent = message || "";
  $("status").textContent = "";
  $("token").focus();
}

function keyboard(event) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const i = tabs.indexOf(document.activeElement);
  if (i < 0) return;
  let next = null;
  if (event.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
  else if (event.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
  else if (event.key === "Home") next = tabs[0];
  else if (event.key === "End") next = tabs[tabs.length - 1];
  if (next) {
    event.preventDefault();
    next.focus();
    show(next.dataset.view);
  }
}

function start() {
  const url = new URL(window.location.href);
  const fromLink = url.searchParams.get("token");
  if (fromLink) {
    sessionStorage.setItem(TOKEN_KEY, fromLink);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash); // the token leaves the address bar
  }
  for (const tab of document.querySelectorAll("[role=tab]")) tab.addEventListener("click", () => show(tab.dataset.view));
  $("tabs").addEventListener("keydown", keyboard);
  $("signout").addEventListener("click", () => signedOut("Signed out."));
  $("whatif-form").addEventListener("submit", whatIf);
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    $("token").value = "";
    try {
      await api("/api/v1/fleet/summary");
      signedIn();
    } catch (e) {
      signedOut(e.message);
    }
  });
  if (token()) signedIn(); else signedOut("");
}

start();
