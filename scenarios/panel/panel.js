// moviemock control panel: plain JavaScript over the control API's JSON
// endpoints (same origin), nothing fetched from elsewhere.
//
// Requests that change state send a JSON body with Content-Type:
// application/json, or no body and no Content-Type: what the control API's
// guard accepts (scenarios/admin.go). With --admin-token, the page asks for
// the token once (#token-form) and sends it as X-Mock-Admin-Token, kept in
// sessionStorage for this tab only.
//
// Stable hooks for browser tests:
//   #message                  status line; data-kind="ok" | "error"
//   #token-form, #token-input, #token-save   shown when the API answers 401
//   #refresh, #reset-all      reload everything; POST /__mock/reset
//   #overview-active          the active scenario's name (or "none"), with its state
//   #overview-sessions, #overview-journal    counts
//   #operations tbody tr      one per operation: data-method, data-path, data-convention
//   #collections tbody tr     one per collection: data-collection (file name), data-records
//   #scenario-select          option value = scenario name
//   #activate, #deactivate, #reset-active    PUT / DELETE /__mock/active, POST /__mock/active/reset
//   #session-id, #activate-session           PUT /__mock/sessions/{id} with the selected scenario
//   #scenario-description, #scenario-states, #scenario-rules tbody tr (data-label)
//   #refresh-sessions
//   #sessions tbody tr        data-session=ID; buttons inside: [data-action="reset"],
//                             [data-action="forget"], [data-action="data"]
//   #journal-live             data-state="open" while the live stream is connected
//   #journal tbody tr         one per journal entry, newest first: data-seq, data-method,
//                             data-path, data-status, data-session; hidden when filtered out;
//                             under moviemock proxy also data-answered-by ("upstream", "mock"
//                             or "scenario": answered_by up to its colon) with a tag
//                             .answered-by, and data-violations (their count) with a marker
//                             .violations, both absent when the entry has none; an entry
//                             amended later (event "amended" of the stream) is redrawn
//   #journal-filter-path, #journal-filter-session, #journal-filter-status
//                             path: part of the path or its template; session: exact;
//                             status: a prefix ("4" is every 4xx, "404" just 404)
//   #journal-clear            DELETE /__mock/journal
//   #journal-detail           the entry clicked: #journal-detail-title,
//                             #journal-detail-answer, #journal-detail-headers,
//                             #journal-detail-body, #copy-curl, #curl-command,
//                             #journal-detail-violations (li: one per violation; hidden
//                             when none)
//   #data-collection          option value = collection file name
//   #data-session, #data-load, #data-prev, #data-next, #data-range, #data-total
//   #data-records tbody tr    one per record: data-index (position in the collection)
"use strict";

const API = "/__mock/";
const MAX_ROWS = 1000; // journal rows kept in the page
const PAGE = 50; // data records per page

const $ = (sel) => document.querySelector(sel);

let token = sessionStorage.getItem("moviemock-admin-token") || "";

// say shows a message in #message.
function say(text, kind) {
  const m = $("#message");
  m.textContent = text;
  m.dataset.kind = kind || "";
}

// api calls a control endpoint. body (an object) is sent as JSON; without
// one, no body and no Content-Type, as guard wants.
async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (token) headers["X-Mock-Admin-Token"] = token;
  const init = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(API + path, init);
  if (resp.status === 401) {
    $("#token-form").hidden = false;
    throw new Error("the control API needs the admin token");
  }
  if (resp.status === 204) return null;
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
  if (!resp.ok) {
    throw new Error(method + " " + API + path + ": " + resp.status + " " + (data && data.detail ? data.detail : text));
  }
  return data;
}

// seg is name as one path segment of a control API URL. encodeURIComponent
// leaves "." and "..", which fetch resolves as dot segments before it
// sends the request (POST sessions/../reset would be POST /__mock/reset):
// those are refused, as the control API refuses them as session ids.
function seg(name) {
  name = String(name);
  if (name === "" || name === "." || name === "..") {
    throw new Error(JSON.stringify(name) + " cannot name a session, scenario or collection in a control API URL");
  }
  return encodeURIComponent(name);
}

// act runs an action, reporting its outcome in #message.
async function act(what, fn) {
  try {
    await fn();
    say(what, "ok");
  } catch (e) {
    say(e.message, "error");
  }
}

// el makes an element with text, attributes and children.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k.startsWith("data-") || k === "type" || k === "title") e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
  return e;
}

function row(attrs, cells) {
  return el("tr", attrs, ...cells.map((c) => el("td", { title: c instanceof Node ? undefined : String(c == null ? "" : c) }, c)));
}

// ---- overview ----

let overview = null;

async function loadOverview() {
  overview = await api("GET", "overview");
  $("#contract-title").textContent = overview.title ? "— " + overview.title + " " + overview.version : "";
  const a = overview.active;
  $("#overview-active").textContent = a.scenario ? a.scenario + " (" + a.state + ")" : "none";
  $("#overview-sessions").textContent = overview.sessions;
  $("#overview-journal").textContent = overview.journal;
  $("#operations tbody").replaceChildren(...overview.operations.map((o) =>
    row({ "data-method": o.method, "data-path": o.path, "data-convention": o.convention },
      [o.method, o.path, o.convention + (o.why ? " (" + o.why + ")" : ""), o.collection || "", o.status, o.secured ? "yes" : ""])));
  $("#collections tbody").replaceChildren(...overview.collections.map((c) =>
    row({ "data-collection": c.file, "data-records": c.records }, [c.file, c.name, c.id, c.records])));
  const sel = $("#data-collection");
  const keep = sel.value;
  sel.replaceChildren(...overview.collections.map((c) => el("option", { value: c.file }, c.file)));
  if (keep) sel.value = keep;
  if (a.scenario && !$("#scenario-select").dataset.touched) {
    $("#scenario-select").value = a.scenario;
  }
}

// ---- scenarios ----

async function loadScenarios() {
  const list = await api("GET", "scenarios");
  const sel = $("#scenario-select");
  const keep = sel.value;
  sel.replaceChildren(...list.map((s) => el("option", { value: s.name, title: s.description }, s.name)));
  if (keep) sel.value = keep;
  else if (overview && overview.active.scenario) sel.value = overview.active.scenario;
  await showScenario();
}

async function showScenario() {
  const name = $("#scenario-select").value;
  if (!name) return;
  const sc = await api("GET", "scenarios/" + seg(name));
  $("#scenario-description").textContent = sc.description || "(no description)";
  $("#scenario-states").textContent = sc.states.join(" → ") + " (starts in " + sc.initial + ")";
  $("#scenario-rules tbody").replaceChildren(...sc.rule_list.map((r) => {
    let answer = r.answer + (r.status ? " " + r.status : "") + (r.fault ? " " + r.fault : "");
    if (r.delay) answer += " after " + r.delay;
    if (r.times) answer += ", " + r.times + "×";
    if (r.every) answer += ", every " + r.every;
    return row({ "data-label": r.label }, [r.label + " (line " + r.line + ")", (r.methods || ["any"]).join(" "), r.path || "any",
      (r.states || []).join(" "), answer, r.then || ""]);
  }));
}

// ---- sessions ----

let journalEntries = []; // oldest first

async function loadSessions() {
  const list = await api("GET", "sessions");
  $("#sessions tbody").replaceChildren(...list.map((s) => {
    const writes = journalEntries.filter((e) => e.session === s.id && isWrite(e)).length;
    const states = Object.entries(s.states).map(([k, v]) => k + ": " + v).join(", ");
    const actions = el("span", {},
      el("button", { type: "button", "data-action": "reset", title: "its scenarios' states and its writes forgotten" }, "Reset"), " ",
      el("button", { type: "button", "data-action": "forget" }, "Forget"), " ",
      el("button", { type: "button", "data-action": "data" }, "Data"));
    return row({ "data-session": s.id }, [s.id, s.scenario || "(global)", states, s.requests, writes,
      new Date(s.last_used).toLocaleTimeString(), actions]);
  }));
}

function isWrite(e) {
  return e.status >= 200 && e.status < 300 && ["POST", "PUT", "PATCH", "DELETE"].includes(e.method);
}

// ---- journal ----

function filters() {
  return {
    path: $("#journal-filter-path").value.trim(),
    session: $("#journal-filter-session").value.trim(),
    status: $("#journal-filter-status").value.trim(),
  };
}

function shown(e, f) {
  return (!f.path || e.path.includes(f.path) || (e.template || "").includes(f.path)) &&
    (!f.session || e.session === f.session) &&
    (!f.status || String(e.status).startsWith(f.status));
}

// answerer is who answered an entry, answered_by up to its colon:
// "upstream", "mock", "scenario", or "" when the journal does not say.
function answerer(e) {
  return (e.answered_by || "").split(":")[0];
}

function journalRow(e) {
  const violations = (e.violations || []).length;
  const by = answerer(e);
  const status = el("span", {}, String(e.status || e.fault));
  if (violations) {
    status.append(" ", el("span", { className: "violations", title: violations + " contract violation" + (violations > 1 ? "s" : "") + ": " + e.violations.join("\n") }, "⚠" + violations));
  }
  const rule = [e.scenario, e.rule, e.state].filter(Boolean).join(" / ");
  const answered = el("span", {}, rule);
  if (by) answered.prepend(el("span", { className: "answered-by answered-by-" + by, title: "answered by " + e.answered_by }, by), rule ? " " : "");
  const tr = row({ "data-seq": e.seq, "data-method": e.method, "data-path": e.path, "data-status": e.status, "data-session": e.session || "",
    "data-answered-by": by || undefined, "data-violations": violations || undefined },
    [e.seq, new Date(e.time).toLocaleTimeString(), e.method, e.path + (e.query ? "?" + e.query : ""), status, e.session || "", answered]);
  tr.classList.add("status-" + String(e.status)[0]);
  tr.hidden = !shown(e, filters());
  return tr;
}

// amendEntry puts an entry sent again (with violations found after its
// answer) in place of the one of the same seq.
function amendEntry(e) {
  const i = journalEntries.findIndex((x) => x.seq === e.seq);
  if (i < 0) return;
  journalEntries[i] = e;
  const old = $('#journal tbody tr[data-seq="' + e.seq + '"]');
  if (old) {
    const tr = journalRow(e);
    tr.setAttribute("aria-selected", old.getAttribute("aria-selected") || "false");
    old.replaceWith(tr);
  }
  if (!$("#journal-detail").hidden && $("#journal-detail").dataset.seq === String(e.seq)) showEntry(e.seq);
}

function addEntries(entries) {
  const body = $("#journal tbody");
  const seen = new Set(journalEntries.map((e) => e.seq));
  for (const e of entries) {
    if (seen.has(e.seq)) continue;
    journalEntries.push(e);
    body.prepend(journalRow(e));
  }
  while (journalEntries.length > MAX_ROWS) {
    const old = journalEntries.shift();
    const tr = body.querySelector('tr[data-seq="' + old.seq + '"]');
    if (tr) tr.remove();
  }
}

function applyFilters() {
  const f = filters();
  const bySeq = new Map(journalEntries.map((e) => [String(e.seq), e]));
  for (const tr of document.querySelectorAll("#journal tbody tr")) {
    tr.hidden = !shown(bySeq.get(tr.dataset.seq), f);
  }
}

async function loadJournal() {
  const entries = await api("GET", "journal?limit=" + MAX_ROWS);
  journalEntries = [];
  $("#journal tbody").replaceChildren();
  addEntries(entries);
}

function showEntry(seq) {
  const e = journalEntries.find((x) => String(x.seq) === String(seq));
  if (!e) return;
  for (const tr of document.querySelectorAll("#journal tbody tr")) {
    tr.setAttribute("aria-selected", tr.dataset.seq === String(seq) ? "true" : "false");
  }
  $("#journal-detail").hidden = false;
  $("#journal-detail").dataset.seq = e.seq;
  $("#journal-detail-title").textContent = e.method + " " + e.path + (e.query ? "?" + e.query : "");
  const facts = [["Status", e.status || "no answer"], ["Answered by", e.answered_by], ["Fault", e.fault], ["Template", e.template], ["Session", e.session],
    ["Scenario", e.scenario], ["Rule", e.rule], ["State after", e.state], ["Prefer", e.prefer],
    ["Time", e.time], ["Duration", e.duration_ms + " ms"], ["Truncated", (e.truncated || []).join(", ")]];
  $("#journal-detail-answer").replaceChildren(...facts.filter(([, v]) => v !== undefined && v !== "" && v !== null)
    .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  $("#journal-detail-headers").textContent = Object.keys(e.headers).sort()
    .flatMap((k) => e.headers[k].map((v) => k + ": " + v)).join("\n");
  let body = "";
  if (e.form) body = Object.entries(e.form).map(([k, v]) => k + " = " + v).join("\n");
  else if (e.body !== undefined) body = JSON.stringify(e.body, null, 2);
  if (e.body_note) body += (body ? "\n" : "") + "(body " + e.body_note + ")";
  $("#journal-detail-body").textContent = body || "(none)";
  const violations = e.violations || [];
  $("#journal-detail-violations").replaceChildren(...violations.map((v) => el("li", {}, v)));
  $("#journal-detail-violations-box").hidden = violations.length === 0;
  $("#curl-command").textContent = curl(e);
}

// shq quotes s for a POSIX shell: inside single quotes nothing is special
// but the single quote itself, written as '\''.
function shq(s) {
  return "'" + String(s).replace(/'/g, "'\\''") + "'";
}

// Headers curl sets itself, or that describe the connection, not the request.
const SKIP_HEADERS = new Set(["content-length", "connection", "host", "accept-encoding", "transfer-encoding"]);

// A method as HTTP allows it: a token (RFC 9110 5.6.2). Even so it may hold
// & $ ' | and the like, which is why it is quoted as every other word.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

// curl is a command repeating the entry's request against this mock, every
// word of it quoted for a POSIX shell: nothing the journal holds (method,
// path, headers, body: what a client sent) runs when it is pasted.
// Secrets the journal blanked stay blanked ("[redacted]").
function curl(e) {
  if (!TOKEN.test(String(e.method))) {
    return "# no command: the method " + JSON.stringify(String(e.method)) + " is not an HTTP token";
  }
  const parts = ["curl"];
  if (e.method === "HEAD") parts.push("--head");
  else if (e.method !== "GET") parts.push("-X", shq(e.method));
  parts.push(shq(location.origin + e.path + (e.query ? "?" + e.query : "")));
  const ct = ((e.headers["Content-Type"] || [])[0] || "").toLowerCase();
  const multipart = ct.startsWith("multipart/form-data");
  for (const k of Object.keys(e.headers).sort()) {
    if (SKIP_HEADERS.has(k.toLowerCase())) continue;
    if (multipart && k.toLowerCase() === "content-type") continue; // curl makes its own boundary
    for (const v of e.headers[k]) parts.push("-H", shq(k + ": " + v));
  }
  if (e.form) {
    for (const [k, v] of Object.entries(e.form)) {
      parts.push(multipart ? "-F" : "--data-urlencode", shq(k + "=" + v));
    }
  } else if (e.body !== undefined) {
    parts.push("--data-raw", shq(JSON.stringify(e.body)));
  }
  let cmd = parts.join(" ");
  // A comment runs to the end of its line: no line break may end it early.
  if (e.body_note) cmd += " # the body (" + String(e.body_note).replace(/[\r\n]+/g, " ") + ") is not in the journal";
  return cmd;
}

async function copyCurl() {
  const text = $("#curl-command").textContent;
  try {
    await navigator.clipboard.writeText(text);
    say("copied the curl command", "ok");
  } catch (err) {
    // No clipboard (a page not on localhost over http): select it instead.
    const range = document.createRange();
    range.selectNodeContents($("#curl-command"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    say("select and copy the command below (no clipboard access)", "error");
  }
}

// The live journal: GET /__mock/journal/stream read with fetch, not
// EventSource, which cannot send the admin token. It reconnects after a
// drop, resuming after the last entry seen (Last-Event-ID).
let streamAbort = null;

async function stream() {
  const live = $("#journal-live");
  for (;;) {
    streamAbort = new AbortController();
    try {
      const headers = { Accept: "text/event-stream" };
      if (token) headers["X-Mock-Admin-Token"] = token;
      const last = journalEntries.length ? journalEntries[journalEntries.length - 1].seq : 0;
      headers["Last-Event-ID"] = String(last); // 0: the whole journal, deduplicated
      const resp = await fetch(API + "journal/stream", { headers, signal: streamAbort.signal, cache: "no-store" });
      if (resp.status === 401) $("#token-form").hidden = false;
      if (!resp.ok) throw new Error("journal stream: " + resp.status);
      live.dataset.state = "open";
      live.textContent = "live";
      const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const event = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const lines = event.split("\n");
          const kind = (lines.find((l) => l.startsWith("event:")) || "event: message").slice(6).trim();
          const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
          if (data && kind === "amended") {
            amendEntry(JSON.parse(data));
          } else if (data) {
            addEntries([JSON.parse(data)]);
            $("#overview-journal").textContent = journalEntries.length;
          }
        }
      }
    } catch (e) {
      if (e.name === "AbortError") return;
    }
    live.dataset.state = "closed";
    live.textContent = "offline, reconnecting";
    await new Promise((r) => setTimeout(r, 2000));
  }
}

// ---- data ----

let dataOffset = 0;

async function loadData() {
  const coll = $("#data-collection").value;
  if (!coll) return;
  const session = $("#data-session").value.trim();
  let q = "data/" + seg(coll) + "?offset=" + dataOffset + "&limit=" + PAGE;
  if (session) q += "&session=" + encodeURIComponent(session);
  const page = await api("GET", q);
  $("#data-total").textContent = page.total;
  $("#data-range").textContent = page.items.length ? (page.offset + 1) + "–" + (page.offset + page.items.length) : "none";
  const cols = [];
  for (const it of page.items) {
    if (it && typeof it === "object") for (const k of Object.keys(it)) if (!cols.includes(k)) cols.push(k);
  }
  $("#data-records thead").replaceChildren(el("tr", {}, ...cols.map((c) => el("th", {}, c))));
  $("#data-records tbody").replaceChildren(...page.items.map((it, i) =>
    row({ "data-index": page.offset + i }, cols.map((c) => {
      const v = it[c];
      return v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
    }))));
  $("#data-prev").disabled = page.offset === 0;
  $("#data-next").disabled = page.offset + page.items.length >= page.total;
}

// ---- wiring ----

async function refresh() {
  await loadOverview();
  await loadScenarios();
  await loadJournal();
  await loadSessions();
  await loadData();
}

function selectedScenario() {
  return $("#scenario-select").value;
}

function wire() {
  $("#token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    token = $("#token-input").value;
    sessionStorage.setItem("moviemock-admin-token", token);
    $("#token-form").hidden = true;
    if (streamAbort) streamAbort.abort();
    act("connected", refresh).then(() => stream());
  });
  $("#refresh").addEventListener("click", () => act("refreshed", refresh));
  $("#reset-all").addEventListener("click", () => act("everything reset", async () => {
    await api("POST", "reset");
    await refresh();
  }));
  $("#scenario-select").addEventListener("change", () => {
    $("#scenario-select").dataset.touched = "true";
    act("", showScenario);
  });
  $("#activate").addEventListener("click", () => act("activated " + selectedScenario() + " for everyone", async () => {
    await api("PUT", "active", { scenario: selectedScenario() });
    await loadOverview();
  }));
  $("#deactivate").addEventListener("click", () => act("no scenario active", async () => {
    await api("DELETE", "active");
    await loadOverview();
  }));
  $("#reset-active").addEventListener("click", () => act("the active scenario starts over", async () => {
    await api("POST", "active/reset");
    await loadOverview();
  }));
  $("#activate-session").addEventListener("click", () => {
    const id = $("#session-id").value.trim();
    if (!id) { say("name a session (its X-Mock-Session value)", "error"); return; }
    act("activated " + selectedScenario() + " for session " + id, async () => {
      await api("PUT", "sessions/" + seg(id), { scenario: selectedScenario() });
      await loadSessions();
    });
  });
  $("#refresh-sessions").addEventListener("click", () => act("sessions refreshed", loadSessions));
  $("#sessions tbody").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const id = b.closest("tr").dataset.session;
    switch (b.dataset.action) {
      case "reset":
        act("session " + id + " reset", async () => { await api("POST", "sessions/" + seg(id) + "/reset"); await loadSessions(); });
        break;
      case "forget":
        act("session " + id + " forgotten", async () => { await api("DELETE", "sessions/" + seg(id)); await loadSessions(); });
        break;
      case "data":
        $("#data-session").value = id;
        dataOffset = 0;
        act("data as session " + id, loadData);
        location.hash = "#data";
        break;
    }
  });
  for (const id of ["#journal-filter-path", "#journal-filter-session", "#journal-filter-status"]) {
    $(id).addEventListener("input", applyFilters);
  }
  $("#journal tbody").addEventListener("click", (ev) => {
    const tr = ev.target.closest("tr[data-seq]");
    if (tr) showEntry(tr.dataset.seq);
  });
  $("#journal-clear").addEventListener("click", () => act("journal cleared", async () => {
    await api("DELETE", "journal");
    journalEntries = [];
    $("#journal tbody").replaceChildren();
    $("#journal-detail").hidden = true;
  }));
  $("#copy-curl").addEventListener("click", copyCurl);
  $("#data-load").addEventListener("click", () => { dataOffset = 0; act("", loadData); });
  $("#data-collection").addEventListener("change", () => { dataOffset = 0; act("", loadData); });
  $("#data-prev").addEventListener("click", () => { dataOffset = Math.max(0, dataOffset - PAGE); act("", loadData); });
  $("#data-next").addEventListener("click", () => { dataOffset += PAGE; act("", loadData); });
}

wire();
act("", refresh).then(() => stream());
