package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/moviemock/moviemock/internal/reference"
)

// The checks of a document, as testdata/corpus/documents/known.json names
// them.
const (
	// checkServe: `moviemock serve --spec` starts on the document.
	checkServe = "serve"
	// checkValid: every operation sent a valid request (built from the
	// document alone) answers a declared status, in a declared media
	// type, with a body its schema accepts.
	checkValid = "valid"
	// checkInvalid: a wrong-typed path or query parameter, or a JSON or
	// form body without a required field, is answered with a declared
	// 4xx (any 4xx when none is declared), in its declared schema.
	checkInvalid = "invalid"
	// checkContract: `moviemock contract` against the mock has no failure.
	checkContract = "contract"
)

var docChecks = []string{checkServe, checkValid, checkInvalid, checkContract}

// docsKnown is known.json: document → check → what fails (an operation,
// a case, a contract check) → why, in one line. The run must find exactly
// these: one more is a regression, one fewer is a fix to take off the list.
type docsKnown map[string]map[string]map[string]string

// docResult is what the corpus found on one document.
type docResult struct {
	failed   map[string]map[string]string // check → what → why
	blocked  bool                         // serve did not start: nothing else ran
	startup  time.Duration
	rssKB    int64
	ops      int // operations
	valid    int // operations answered validly
	invalid  int // invalid requests built
	refused  int // of those, refused as the document says
	contract string
	took     time.Duration
}

func (r *docResult) fail(check, what, why string) {
	if r.failed[check] == nil {
		r.failed[check] = map[string]string{}
	}
	r.failed[check][what] = why
}

// unsatisfiable are the bodies of the corpus no value fits: the document's
// schema contradicts itself. "document: METHOD /path" → why.
var unsatisfiable = map[string]string{
	"swashbuckle-basic: POST /carts":                   "Cart requires Id, and additionalProperties: false allows only id",
	"swashbuckle-basic-3.1: POST /carts":               "Cart requires Id, and additionalProperties: false allows only id",
	"swashbuckle-basic: POST /shapes":                  "Rectangle and Circle each join Shape, which requires TypeName, with a part whose additionalProperties: false forbids it",
	"swashbuckle-basic-3.1: POST /shapes":              "Rectangle and Circle each join Shape, which requires TypeName, with a part whose additionalProperties: false forbids it",
	"ogen-sample: POST /oneofBug":                      "OneVariantHasNoUniqueFields (its name says it): a value of one oneOf branch is one of the other too",
	"jsonapidotnetcore-headers: POST /countries":       "dataInCreateCountryRequest joins resourceInCreateRequest, which requires type, with a part whose additionalProperties: false forbids it",
	"jsonapidotnetcore-headers: PATCH /countries/{id}": "dataInUpdateCountryRequest joins resourceInUpdateRequest, which requires type, with a part whose additionalProperties: false forbids it",
	"smallrye-horreum: POST /api/config/datastore":     "Datastore.config is oneOf CollectorApiDatastoreConfig and ElasticsearchDatastoreConfig, the same schema, and PostgresDatastoreConfig, which either's value fits",
	"smallrye-horreum: PUT /api/config/datastore":      "Datastore.config is oneOf CollectorApiDatastoreConfig and ElasticsearchDatastoreConfig, the same schema, and PostgresDatastoreConfig, which either's value fits",
}

// TestDocumentRequests holds the harness to its word: every value of every
// request it builds (the valid request of each operation, and the invalid
// ones but for what they break) is valid by the document's own schemas.
func TestDocumentRequests(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "testdata", "corpus", "documents")
	sources, err := filepath.Glob(filepath.Join(root, "*", "SOURCE.md"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no documents under %s (%v)", root, err)
	}
	for _, src := range sources {
		dir := filepath.Dir(src)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			d, err := openDocument(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.ops) == 0 && d.root["webhooks"] == nil {
				t.Fatal("the harness finds no operation")
			}
			for _, op := range d.ops {
				r, err := d.request(op, breaking{})
				if err != nil {
					t.Errorf("%s: %v", op, err)
					continue
				}
				why, listed := unsatisfiable[d.name+": "+op.String()]
				switch {
				case listed && len(r.invalidValues) == 0:
					t.Errorf("%s: the harness now builds a valid request; unsatisfiable says none exists (%s)", op, why)
				case !listed:
					for _, why := range r.invalidValues {
						t.Errorf("%s: %s", op, why)
					}
				}
			}
		})
	}
}

// TestDocuments proves moviemock on public documents nobody on this
// project wrote (testdata/corpus/documents/*: each with its SOURCE.md).
func TestDocuments(t *testing.T) {
	if reference.RaceEnabled {
		t.Skip("the documents run the moviemock binary, which -race does not instrument: go test without -race runs them")
	}
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(moduleRoot(t), "testdata", "corpus", "documents")
	sources, err := filepath.Glob(filepath.Join(root, "*", "SOURCE.md"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no documents under %s (%v)", root, err)
	}
	want := docsKnown{}
	knownPath := filepath.Join(root, "known.json")
	if _, err := os.Stat(knownPath); err == nil {
		readJSON(t, knownPath, &want)
	}
	var names []string
	for _, s := range sources {
		names = append(names, filepath.Base(filepath.Dir(s)))
	}
	for name := range want {
		if !slices.Contains(names, name) {
			t.Errorf("known.json names %s, which is not a document", name)
		}
	}

	var mu sync.Mutex
	got := map[string]*docResult{}
	totalOps, totalInvalid := map[string]int{}, map[string]int{}
	t.Run("documents", func(t *testing.T) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				d, err := openDocument(filepath.Join(root, name))
				if err != nil {
					t.Fatalf("the harness cannot read the document: %v", err)
				}
				res := checkDocument(t, bin, d)
				mu.Lock()
				got[name] = res
				totalOps[name], totalInvalid[name] = len(d.ops), res.invalid
				mu.Unlock()
				if res.blocked {
					t.Logf("%s: serve refused (%d operations, %d invalid requests not sent)", name, res.ops, res.invalid)
				} else {
					t.Logf("%s: start %s, RSS %.1f MB; operations answered validly %d/%d; invalid refused %d/%d; contract: %s (%s)",
						name, res.startup.Round(time.Millisecond), float64(res.rssKB)/1024, res.valid, res.ops, res.refused, res.invalid,
						res.contract, res.took.Round(time.Millisecond))
				}
				if *update {
					return
				}
				for _, msg := range compareDocument(res, want[name]) {
					t.Error(msg)
				}
			})
		}
	})

	var served, valid, ops, refused, invalid, clean int
	for _, name := range names {
		res, ok := got[name]
		if !ok {
			continue
		}
		ops += totalOps[name]
		invalid += totalInvalid[name]
		if res.blocked {
			continue
		}
		served++
		valid += res.valid
		refused += res.refused
		if len(res.failed[checkContract]) == 0 {
			clean++
		}
	}
	t.Logf("documents: %d, serve starts: %d/%d, operations answered validly: %d/%d, invalid refused: %d/%d, contract clean: %d/%d",
		len(got), served, len(got), valid, ops, refused, invalid, clean, len(got))
	if *update && len(got) == len(names) {
		out := docsKnown{}
		for name, res := range got {
			for check, items := range res.failed {
				if len(items) > 0 {
					if out[name] == nil {
						out[name] = map[string]map[string]string{}
					}
					out[name][check] = items
				}
			}
		}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(knownPath, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compareDocument says how a document's run differs from known.json.
func compareDocument(res *docResult, listed map[string]map[string]string) []string {
	var msgs []string
	for _, check := range docChecks {
		if res.blocked && check != checkServe {
			continue
		}
		found, was := res.failed[check], listed[check]
		for _, what := range slices.Sorted(maps.Keys(found)) {
			if _, ok := was[what]; !ok {
				msgs = append(msgs, fmt.Sprintf("%s fails: %s: %s\n(not in known.json: fix it, or record it with go test ./internal/corpus -run TestDocuments -update)",
					check, what, found[what]))
			}
		}
		for _, what := range slices.Sorted(maps.Keys(was)) {
			if _, ok := found[what]; !ok {
				msgs = append(msgs, fmt.Sprintf("%s: %s passes now; known.json lists it failing (%s): take it off the list (-update)",
					check, what, was[what]))
			}
		}
	}
	return msgs
}

// openDocument reads the one document of a corpus folder.
func openDocument(dir string) (*document, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch e.Name() {
		case "SOURCE.md", "LICENSE":
			continue
		}
		files = append(files, e.Name())
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("%s holds %d documents beside SOURCE.md and LICENSE, want 1: %q", dir, len(files), files)
	}
	return loadDocument(filepath.Base(dir), filepath.Join(dir, files[0]))
}

// checkDocument runs the checks on one document.
func checkDocument(t *testing.T, bin string, d *document) *docResult {
	res := &docResult{failed: map[string]map[string]string{}, ops: len(d.ops)}
	type invalidCase struct {
		op   *docOperation
		what string
		brk  breaking
	}
	var cases []invalidCase
	for _, op := range d.ops {
		if p := d.wrongTypeParam(op); p != nil {
			cases = append(cases, invalidCase{op, fmt.Sprintf("%s: %s parameter %s not a number", op, p.in, p.name), breaking{param: p}})
		}
		if f := d.requiredBodyField(op); f != "" {
			md := pickMedia(op.body.media)
			if isJSONMedia(md.name) || isForm(md.name) {
				cases = append(cases, invalidCase{op, fmt.Sprintf("%s: body without %s", op, f), breaking{dropReq: f}})
			}
		}
	}
	res.invalid = len(cases)

	tokenURL := d.passwordLogin()
	var account []string
	if tokenURL != "" || d.hasLogin() {
		// The account the document's login is sent (withAccount).
		account = []string{"--account", corpusAccount + ":" + corpusPassword}
	}
	base, err := serveDocument(t, bin, d.path, res, account...)
	if err != nil {
		res.fail(checkServe, checkServe, err.Error())
		res.blocked = true
		return res
	}
	client := &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	if tokenURL != "" {
		// The document's own login, as a frontend logs in: a token the
		// mock issued is one it accepts under any profile.
		d.bearer = login(client, base+tokenURL)
	}
	for _, op := range sendOrder(d.ops) {
		req, err := d.request(op, breaking{})
		if err != nil {
			res.fail(checkValid, op.String(), "the harness cannot build a request: "+err.Error())
			continue
		}
		status, header, body, err := sendDoc(client, base, req)
		if err != nil {
			res.fail(checkValid, op.String(), err.Error())
			continue
		}
		if why := d.checkAnswer(op, status, header, body, false); why != "" {
			res.fail(checkValid, op.String(), why)
			continue
		}
		res.valid++
	}
	for _, c := range cases {
		req, err := d.request(c.op, c.brk)
		if err != nil {
			res.fail(checkInvalid, c.what, "the harness cannot build a request: "+err.Error())
			continue
		}
		status, header, body, err := sendDoc(client, base, req)
		if err != nil {
			res.fail(checkInvalid, c.what, err.Error())
			continue
		}
		if why := d.checkAnswer(c.op, status, header, body, true); why != "" {
			res.fail(checkInvalid, c.what, why)
			continue
		}
		res.refused++
	}
	for _, n := range d.notes {
		t.Logf("harness note: %s", n)
	}
	start := time.Now()
	var given []string
	switch {
	case account != nil:
		// The account the mock was started with logs the runner in.
		given = []string{"--username", corpusAccount, "--password", corpusPassword}
	case d.secured():
		// No login to earn a token with: the runner is given one, as a
		// user gives the token their backend issued; the mock takes any
		// it did not issue itself.
		given = []string{"--token", corpusToken}
	}
	res.contract = runDocContract(bin, base, d.path, res, given...)
	res.took = time.Since(start)
	return res
}

// sendOrder is the order the valid requests of ops are sent in: theirs,
// but every DELETE last, a path's before the path it extends. A DELETE's
// valid request removes the record the others name (the same example
// id): sent before a PATCH of it, it would make the PATCH a 404, and
// before DELETE /articles/{slug}/favorite, the favorite's article gone.
func sendOrder(ops []*docOperation) []*docOperation {
	var out, deletes []*docOperation
	for _, op := range ops {
		if op.method == "DELETE" {
			deletes = append(deletes, op)
			continue
		}
		out = append(out, op)
	}
	slices.Reverse(deletes)
	return append(out, deletes...)
}

// startTimeout bounds serve's start on one document: a hang is a failure,
// not a stuck test.
const startTimeout = time.Minute

// serveDocument starts `moviemock serve --spec` on a free port and returns
// its URL; it records how long the start took and the process's resident
// memory then.
func serveDocument(t *testing.T, bin, spec string, res *docResult, args ...string) (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	// Run beside the document, named by its file name: what serve says
	// names no folder of this machine.
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--spec", filepath.Base(spec), "--addr", "127.0.0.1:0", "--quiet"}, args...)...)
	cmd.Dir = filepath.Dir(spec)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- line
		io.Copy(io.Discard, stdout)
	}()
	var line string
	select {
	case line = <-first:
	case <-time.After(startTimeout):
		cancel() // the pipe closes with the process
		<-first
		return "", fmt.Errorf("serve said nothing within %s", startTimeout)
	}
	res.startup = time.Since(start)
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if base == "" {
		cmd.Wait()
		return "", errors.New(startFailure(stderr.String()))
	}
	res.rssKB = residentKB(cmd.Process.Pid)
	return base, nil
}

// startFailure is why serve did not start, in one line: its message, or a
// panic's message and the first frame of moviemock's own code.
func startFailure(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return "serve exited without a word"
	}
	first := strings.TrimSpace(lines[0])
	if !strings.HasPrefix(first, "panic:") {
		return first
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "github.com/moviemock/moviemock/") && i+1 < len(lines) {
			fn := l
			if k := strings.LastIndexByte(fn, '('); k > 0 {
				fn = fn[:k]
			}
			loc := strings.TrimSpace(lines[i+1])
			if k := strings.Index(loc, "/internal/"); k >= 0 {
				loc = loc[k+1:]
			} else if k := strings.LastIndexByte(loc, '/'); k >= 0 {
				loc = loc[k+1:]
			}
			if k := strings.LastIndex(loc, " +0x"); k > 0 {
				loc = loc[:k]
			}
			return fmt.Sprintf("%s in %s (%s)", first, strings.TrimPrefix(fn, "github.com/moviemock/moviemock/"), loc)
		}
	}
	return first
}

// residentKB is a process's resident memory (Linux), 0 where unknown.
func residentKB(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// sendDoc sends a request and reads its answer (at most 8 MiB of it).
func sendDoc(client *http.Client, base string, r *docRequest) (int, http.Header, []byte, error) {
	u := base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, u, body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("the harness built a bad request: %v", err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("no answer: %v", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("answer %d cut short: %v", resp.StatusCode, err)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// checkAnswer says what is wrong with an answer to an operation ("" when
// nothing): for a valid request, a declared status; for an invalid one, a
// 4xx, declared where the operation declares one for bad input (400, 422,
// 4XX); either way a declared
// media type and a body the declared schema accepts.
func (d *document) checkAnswer(op *docOperation, status int, header http.Header, body []byte, invalid bool) string {
	code := strconv.Itoa(status)
	r, key := op.responses[code], code
	if r == nil {
		key = code[:1] + "XX"
		r = op.responses[key]
	}
	if r == nil {
		key = "DEFAULT"
		r = op.responses[key]
	}
	declared := slices.Sorted(maps.Keys(op.responses))
	// A status for bad input: where the operation declares one, an
	// invalid request must get a declared one. Where it declares only
	// others (401, 403, 429: Spotify's), no declared status means "your
	// input is wrong", and any 4xx will do.
	declaresBadInput := slices.ContainsFunc(declared, func(k string) bool { return k == "400" || k == "422" || k == "4XX" })
	switch {
	case invalid && (status < 400 || status > 499):
		return fmt.Sprintf("answered %d, not a 4xx%s", status, bodyHint(body))
	case invalid && declaresBadInput && (r == nil || key == "DEFAULT"):
		return fmt.Sprintf("answered %d, the operation declares %s%s", status, strings.Join(declared, ", "), bodyHint(body))
	case invalid && r == nil:
		return "" // no 4xx and no default declared: any 4xx will do
	case !invalid && (r == nil || status == http.StatusBadRequest) && stateRefusal(op, status, body) != "":
		return "" // the state the request met refuses it, not the document
	case !invalid && refusals[status] != "":
		// Declared or not, these refuse what the request does right: it
		// is valid by the document's schemas (TestDocumentRequests), it
		// carries the credentials its security asks for, with a declared
		// method and media type. 404 and 409 remain: the record may not
		// be there (stateRefusal).
		return fmt.Sprintf("answered %d to a valid request (%s)%s", status, refusals[status], bodyHint(body))
	case r == nil && !invalid && status/100 == 2 && !slices.ContainsFunc(declared, func(k string) bool { return k[0] == '2' || k[0] == '3' || k == "DEFAULT" }):
		// The operation declares only its refusals (springdoc's, where
		// the handler's 200 went unsaid): any 2xx is its success.
		return ""
	case r == nil:
		return fmt.Sprintf("answered %d, the operation declares %s%s", status, strings.Join(declared, ", "), bodyHint(body))
	}
	if len(r.media) == 0 || (len(body) == 0 && (op.method == "HEAD" || status == 204 || status == 304)) {
		return ""
	}
	ctype := mediaBase(header.Get("Content-Type"))
	var md *docMedia
	for i := range r.media {
		if mediaMatches(r.media[i].name, ctype) {
			md = &r.media[i]
			break
		}
	}
	if md == nil {
		names := make([]string, len(r.media))
		for i, m := range r.media {
			names[i] = m.name
		}
		return fmt.Sprintf("answered %d in %q, the document declares %s", status, ctype, strings.Join(names, ", "))
	}
	if md.schema == "" || !isJSONMedia(ctype) {
		return ""
	}
	s, err := d.schema(md.schema)
	if err != nil {
		d.notes = append(d.notes, fmt.Sprintf("%s %s: the schema does not compile: %v", op, key, firstLines(err.Error(), 1)))
		return ""
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Sprintf("answered %d with a body that is not JSON: %s", status, clip(body))
	}
	if err := s.Validate(v); err != nil {
		return fmt.Sprintf("answered %d with a body its %s schema refuses: %s; body %s", status, key, schemaError(err), clip(body))
	}
	return ""
}

// stateRefusal says why status may answer a valid request of op for the
// state it meets, declared or not ("" when it may not): the harness names
// records by keys it makes up (the document's examples), which a backend
// answers with the 404 of the record it does not have; it writes values a
// record may hold already (a 409, or FastAPI's application-raised 400
// "Username already registered"); and it sends made-up secrets a backend
// checks against its state (FastAPI's 400 "Incorrect password"). An
// application's own refusal is FastAPI's HTTPException: {"detail": text}.
func stateRefusal(op *docOperation, status int, body []byte) string {
	write := op.body != nil && (op.method == "POST" || op.method == "PUT" || op.method == "PATCH")
	switch {
	case status == http.StatusNotFound && strings.Contains(op.path, "{"):
		return "the record its made-up key names may not be there"
	case status == http.StatusConflict && write:
		return "a value that must be unique may be taken"
	case status == http.StatusBadRequest && write:
		var detail map[string]any
		if json.Unmarshal(body, &detail) != nil || len(detail) != 1 {
			return ""
		}
		if _, ok := detail["detail"].(string); ok {
			return "the application refuses what the state holds (a taken name, a made-up password)"
		}
	}
	return ""
}

// refusals are the statuses that refuse a valid request, with what they
// refuse of it.
var refusals = map[int]string{
	400: "its values are valid",
	401: "it carries the credentials the document asks for",
	403: "it carries the credentials the document asks for",
	405: "the method is declared",
	415: "the media type is declared",
	422: "its values are valid",
}

// schemaError is a validation error's innermost causes, in one line.
func schemaError(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			// A leaf's Error is a heading line, then "- at '/x': what".
			msg := e.Error()
			if i := strings.LastIndex(msg, "\n"); i >= 0 {
				msg = strings.TrimPrefix(msg[i+1:], "- ")
			}
			leaves = append(leaves, msg)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) > 3 {
		leaves = append(leaves[:3], fmt.Sprintf("and %d more", len(leaves)-3))
	}
	return strings.Join(leaves, "; ")
}

func bodyHint(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	return ": " + clip(body)
}

// mediaMatches reports whether an answer's media type is the declared one
// (which may be a range: text/*, */*).
func mediaMatches(declared, got string) bool {
	declared = mediaBase(declared)
	switch {
	case declared == got, declared == "*/*":
		return true
	case strings.HasSuffix(declared, "/*"):
		return strings.HasPrefix(got, strings.TrimSuffix(declared, "*"))
	}
	return false
}

// runDocContract runs `moviemock contract` against the mock, with args
// beside its own, and records its distinct failures; it returns its
// report's last line.
func runDocContract(bin, base, spec string, res *docResult, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"contract", "--base-url", base, "--spec", filepath.Base(spec),
		"--timeout", "30s", "--max-response-time", "1m", "--format", "json"}, args...)...)
	cmd.Dir = filepath.Dir(spec)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		res.fail(checkContract, "run", "timed out after "+runTimeout.String())
		return "timed out"
	}
	var report struct {
		Passed  bool `json:"passed"`
		Summary struct {
			Line string `json:"line"`
		} `json:"summary"`
		Distinct []struct {
			Check   string `json:"check"`
			Method  string `json:"method"`
			Path    string `json:"path"`
			Message string `json:"message"`
			Count   int    `json:"count"`
		} `json:"distinct"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &report); jerr != nil {
		why := firstLines(strings.TrimSpace(stderr.String()), 1)
		if why == "" {
			why = fmt.Sprintf("%v, no report", err)
		}
		res.fail(checkContract, "run", why)
		return "did not run"
	}
	for _, f := range report.Distinct {
		what := f.Check + " " + f.Method + " " + f.Path
		why := fmt.Sprintf("%s (%d cases)", f.Message, f.Count)
		if was, ok := res.failed[checkContract][what]; ok {
			why = was + " | " + why
		}
		res.fail(checkContract, what, why)
	}
	if err != nil && len(report.Distinct) == 0 {
		res.fail(checkContract, "run", fmt.Sprintf("%v: %s", err, report.Summary.Line))
	}
	return report.Summary.Line
}

// login posts the harness's account to a password login and returns the
// access_token it answers, "" when it answers none.
func login(client *http.Client, tokenURL string) string {
	resp, err := client.PostForm(tokenURL, url.Values{"username": {corpusAccount}, "password": {corpusPassword}})
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode/100 != 2 || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tok) != nil {
		return ""
	}
	return tok.AccessToken
}
