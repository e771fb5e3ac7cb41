package main

// What a hostile client or contract puts in front of a person, checked in
// a real Chromium: nothing the journal holds runs when its curl command is
// pasted, no session id steers the panel's buttons to another route.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
)

// The panel's copy as curl quotes every word, the method included: a
// method that is a valid token yet full of shell syntax (& $ ') is one
// word of the command, run here through sh with a curl that only prints
// its arguments.
func TestBrowserPanelCurlQuoted(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	ctx := browser.New(t)
	base, _ := serve(t, noEnv, "--quiet")
	const method = "GET&touch$IFS'PWNED'&"
	req, err := http.NewRequest(method, base+"/person/1?q=a'b", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Note", "$(touch PWNED2) `touch PWNED3`")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	do(t, ctx, "open /__mock/", chromedp.Navigate(base+"/__mock/"))
	sel, _ := json.Marshal(`#journal tbody tr[data-method="` + strings.ReplaceAll(method, `'`, `\'`) + `"]`)
	poll[bool](t, ctx, "the request in the journal", `(() => {
  const tr = document.querySelector(`+string(sel)+`);
  if (!tr) return false;
  tr.click();
  return true;
})()`)
	cmd := poll[string](t, ctx, "the curl command", `document.querySelector('#curl-command').textContent`)

	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	work := filepath.Join(dir, "work")
	for _, d := range []string{bin, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "curl"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", cmd+"\nwait")
	sh.Dir = work
	sh.Env = []string{"PATH=" + bin + ":/usr/bin:/bin"}
	var out, stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &out, &stderr
	runErr := sh.Run()
	if files, _ := os.ReadDir(work); len(files) > 0 {
		t.Errorf("pasting %q made files %v", cmd, files)
	}
	if runErr != nil {
		t.Fatalf("sh -c %q: %v\n%s", cmd, runErr, stderr.String())
	}
	args := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	if len(args) < 3 || args[0] != "-X" || args[1] != method || args[2] != base+"/person/1?q=a'b" {
		t.Errorf("curl got %q from %q; want -X %q %q first", args, cmd, method, base+"/person/1?q=a'b")
	}
	if !strings.Contains(out.String(), "X-Note: $(touch PWNED2) `touch PWNED3`\x00") {
		t.Errorf("curl got %q; want the X-Note header as sent", args)
	}
}

// A session id "..", "../journal" or "../active" in the sessions table
// (the mock refuses them now; an older journal or a proxy in front may
// still show one): its Reset and Forget buttons refuse to act, rather than
// let fetch resolve the dot segments to /__mock/reset, /__mock/journal or
// /__mock/active.
func TestBrowserPanelSessionIDs(t *testing.T) {
	t.Parallel()
	ctx := browser.New(t)
	base, _ := serve(t, noEnv, "--quiet")
	for range 3 {
		get(t, base+"/person/1")
	}
	control := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	if code, body := control("PUT", "/__mock/active", `{"scenario":"empty-catalog"}`); code != 200 {
		t.Fatalf("activate: %d %s", code, body)
	}

	do(t, ctx, "open /__mock/", chromedp.Navigate(base+"/__mock/"))
	poll[bool](t, ctx, "the journal", `document.querySelectorAll('#journal tbody tr').length >= 3`)
	// The page's first refresh is over once the live journal opens.
	poll[bool](t, ctx, "the live journal", `document.querySelector('#journal-live[data-state="open"]') !== null`)
	for _, tc := range []struct{ id, action string }{
		{"..", "reset"},
		{"..", "forget"},
		{"../journal", "forget"},
		{"../active", "forget"},
		{".", "reset"},
	} {
		id, _ := json.Marshal(tc.id)
		action, _ := json.Marshal(tc.action)
		eval[bool](t, ctx, `(() => {
  const tr = document.createElement('tr');
  tr.dataset.session = `+string(id)+`;
  const td = document.createElement('td');
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.action = `+string(action)+`;
  td.append(b);
  tr.append(td);
  document.querySelector('#sessions tbody').append(tr);
  document.querySelector('#message').dataset.kind = '';
  b.click();
  tr.remove();
  return true;
})()`)
		msg := poll[string](t, ctx, tc.action+" of session "+tc.id, `(() => {
  const m = document.querySelector('#message');
  return m.dataset.kind ? m.dataset.kind + ': ' + m.textContent : '';
})()`)
		if !strings.HasPrefix(msg, "error: ") {
			t.Errorf("%s of session %q: %s; want an error", tc.action, tc.id, msg)
		}
	}
	if _, body := control("GET", "/__mock/active", ""); !strings.Contains(body, `"scenario":"empty-catalog"`) {
		t.Errorf("the active scenario after the buttons: %s; want empty-catalog still", body)
	}
	_, body := control("GET", "/__mock/journal", "")
	var entries []json.RawMessage
	if err := json.Unmarshal([]byte(body), &entries); err != nil || len(entries) < 3 {
		t.Errorf("the journal after the buttons: %d entries (%v); want the 3 requests still", len(entries), err)
	}
}

// hostileContract is a contract whose texts are markup that runs a script
// if a page renders them as HTML: the title (in <title>), info.description
// and an operation's description (Markdown with HTML, to ReDoc and Swagger
// UI). Each script marks window.__pwned and tries the control API.
const hostileContract = `{
  "openapi": "3.1.0",
  "info": {
    "title": "Hostile</title><script>window.__pwned = 'title'</script><title>",
    "version": "1",
    "description": "<img src=x onerror=\"window.__pwned = 'info.description'; fetch('/__mock/active', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({scenario: 'server-hangs'})})\">"
  },
  "paths": {
    "/items": {
      "get": {
        "operationId": "listItems",
        "summary": "List items",
        "description": "<img src=y onerror=\"window.__pwned = 'operation description'\"> <script>window.__pwned = 'script'</script>",
        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}
      }
    }
  }
}`

// /redoc and /docs of a contract that is not moviemock's own render its
// texts as text: no script of the document runs in the mock's origin
// (where it could read the journal and switch scenarios), though its
// <img> tags may show.
func TestBrowserHostileContract(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(file, []byte(hostileContract), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := serve(t, noEnv, "--quiet", "--spec", file)
	for _, tc := range []struct{ page, rendered string }{
		{"/redoc", `document.body.innerText.includes('List items')`},
		{"/docs", `document.querySelectorAll('.opblock').length > 0 && !!document.querySelector('.info')`},
	} {
		t.Run(tc.page, func(t *testing.T) {
			ctx := browser.New(t)
			do(t, ctx, "open "+tc.page, chromedp.Navigate(base+tc.page))
			poll[bool](t, ctx, "the contract rendered", tc.rendered)
			if tc.page == "/docs" {
				// The operation's description shows once it is opened.
				eval[bool](t, ctx, `(document.querySelector('.opblock-summary-control') || document.querySelector('.opblock-summary')).click(), true`)
				poll[bool](t, ctx, "the operation opened", `!!document.querySelector('.opblock-body')`)
			}
			// Every image has loaded or failed: an onerror would have run.
			poll[bool](t, ctx, "the images settled", `[...document.images].every(i => i.complete)`)
			time.Sleep(300 * time.Millisecond)
			if pwned := eval[string](t, ctx, `String(window.__pwned)`); pwned != "undefined" {
				t.Errorf("%s ran the contract's script (window.__pwned = %q)", tc.page, pwned)
			}
			if code, body := get(t, base+"/__mock/active"); code != 200 || !strings.Contains(body, `"scenario":null`) {
				t.Errorf("after %s: GET /__mock/active %d %s; want no scenario", tc.page, code, body)
			}
		})
	}
}
