package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The documents of the degrade tests: a hand-written contract whose ids
// are int64 (refused before constructs were degraded), one answering in
// */* only (which panicked), and one mixing constructs the mock does not
// enforce with ones it does.
var degradeDocs = map[string]string{
	"int64.yaml": `openapi: 3.0.3
info: {title: int64, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '422': {description: Validation exception}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
`,
	"star.yaml": `openapi: 3.0.1
info: {title: star, version: "1"}
paths:
  /profile:
    get:
      responses:
        "200":
          description: OK
          content:
            "*/*":
              schema: {type: string}
`,
	"mixed.yaml": `openapi: 3.0.3
info: {title: mixed, version: "1"}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        "201": {description: OK, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        "422": {description: invalid}
  /others:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        "200": {description: OK}
        "422": {description: invalid}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 5, not: {enum: [nope]}}
        kind: {oneOf: [{type: integer}, {type: boolean}]}
        host: {type: string, format: hostname}
`,
}

func writeDegradeDocs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range degradeDocs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A document with constructs the mock cannot enforce as declared starts:
// the start-up block names the framework and lists each degradation once,
// and what can be enforced still is (a required field still refused).
func TestServeDegradesRatherThanRefuses(t *testing.T) {
	dir := writeDegradeDocs(t)
	type call struct {
		method, path, body string
		status             int
	}
	for _, tc := range []struct {
		doc      string
		says     []string // in the start-up block
		saysOnce []string // in it exactly once
		calls    []call
	}{
		{"int64.yaml", []string{"  framework   openapi (no FastAPI mark", "POST /pets: create Pet"}, nil, []call{
			{"POST", "/pets", `{"id":9223372036854775807,"name":"rex"}`, 200},
			{"POST", "/pets", `{"id":9223372036854775808,"name":"rex"}`, 422},
			{"POST", "/pets", `{"id":1}`, 422},
		}},
		{"star.yaml", []string{"  framework   openapi"}, nil, []call{{"GET", "/profile", "", 200}}},
		{"mixed.yaml", []string{"  degraded    3 constructs not enforced as declared"}, []string{
			`POST /things, POST /others: Thing.name: keyword "not" is not enforced (not implemented)`,
			`POST /things, POST /others: Thing.kind: oneOf's "exactly one" is not enforced`,
			`POST /things, POST /others: Thing.host: format "hostname" is not enforced`,
		}, []call{
			{"POST", "/things", `{"name":"nope","kind":true,"host":"x"}`, 201},
			{"POST", "/things", `{"kind":1}`, 422},
			{"POST", "/things", `{"name":"toolong"}`, 422},
			{"POST", "/things", `{"name":"a","kind":"x"}`, 422},
			{"POST", "/others", `{"kind":[]}`, 422},
		}},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			base, startup := serveStartup(t, "--spec", filepath.Join(dir, tc.doc))
			for _, s := range tc.says {
				if !strings.Contains(startup, s) {
					t.Errorf("start-up block lacks %q:\n%s", s, startup)
				}
			}
			for _, s := range tc.saysOnce {
				if n := strings.Count(startup, s); n != 1 {
					t.Errorf("start-up block says %q %d times, want once:\n%s", s, n, startup)
				}
			}
			for _, c := range tc.calls {
				req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
				if err != nil {
					t.Fatal(err)
				}
				if c.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.status {
					t.Errorf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, resp.StatusCode, body, c.status)
				}
			}
		})
	}
}

// --strict refuses, as before constructs were degraded, with the same
// message and exit status; --framework takes only the profiles there are,
// and says which it was given.
func TestServeStrictAndFramework(t *testing.T) {
	dir := writeDegradeDocs(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--strict", "--spec", filepath.Join(dir, "int64.yaml")}, `contract ` + filepath.Join(dir, "int64.yaml") + `: POST /pets: Pet.id: schema keyword "format" is not implemented`},
		{[]string{"serve", "--strict", "--spec", filepath.Join(dir, "mixed.yaml")}, `: POST /things: Thing.name: "not" is not implemented`},
		{[]string{"serve", "--framework", "django"}, `--framework: unknown framework "django"`},
		{[]string{"contract", "--base-url", "http://127.0.0.1:1", "--framework", "rails"}, `--framework: unknown framework "rails"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stderr strings.Builder
			err := run(context.Background(), tc.args, noEnv, io.Discard, &stderr)
			if code := exitCode(err, &stderr); code != 2 {
				t.Fatalf("exit code %d, want 2 (err %v)", code, err)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.want)
			}
		})
	}
	_, startup := serveStartup(t, "--spec", filepath.Join(dir, "int64.yaml"), "--framework", "fastapi")
	if !strings.Contains(startup, "  framework   fastapi (asked for)\n") {
		t.Errorf("start-up block does not say the framework asked for:\n%s", startup)
	}
}

// serve --explain prints why an operation is answered as it is, with its
// degradations, and exits; an operation the contract lacks is a usage
// error.
func TestServeExplain(t *testing.T) {
	dir := writeDegradeDocs(t)
	// gotify's alternatives: a key in one of three places, or HTTP basic.
	keys := `openapi: 3.0.3
info: {title: keys, version: "1"}
paths:
  /apps:
    get:
      security: [{keyAuth: []}, {keyQuery: []}, {basic: []}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: array, items: {type: string}}}}}
  /open:
    get:
      security: [{keyQuery: []}, {}]
      responses:
        "200": {description: OK}
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
    keyAuth: {type: apiKey, in: header, name: Authorization}
    keyQuery: {type: apiKey, in: query, name: token}
`
	if err := os.WriteFile(filepath.Join(dir, "keys.yaml"), []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		doc, op string
		code    int
		wants   []string
	}{
		{"int64.yaml", "post /pets", 0, []string{"POST /pets\n", "  answered    by convention: create Pet (collection pets)\n", "  inputs      a JSON body\n", "  degraded    none\n"}},
		{"mixed.yaml", "POST /things", 0, []string{
			"  answered    from its example or its schema: ",
			"  degraded    3 constructs not enforced as declared:\n",
			"Thing.kind: oneOf's \"exactly one\" is not enforced",
		}},
		{"star.yaml", "GET /profile", 0, []string{"  success     200 */*\n"}},
		{"star.yaml", "GET /nothing", 2, []string{`--explain "GET /nothing": no such operation`}},
		{"keys.yaml", "GET /apps", 0, []string{"  security    any of an API key in the header Authorization (keyAuth); or an API key in the query token (keyQuery); or HTTP basic credentials (basic): a 401 without\n"}},
		{"keys.yaml", "GET /open", 0, []string{"  security    optional: an API key in the query token (keyQuery)\n"}},
	} {
		t.Run(tc.doc+" "+tc.op, func(t *testing.T) {
			var stdout, stderr strings.Builder
			err := run(context.Background(), []string{"serve", "--spec", filepath.Join(dir, tc.doc), "--explain", tc.op}, noEnv, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d (err %v)", code, tc.code, err)
			}
			out := stdout.String() + stderr.String()
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
