package contract

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// A gate is an application's own rule on a header, query parameter or
// cookie that the contract cannot tell: a dependency raising
// HTTPException(400, "X-Token header invalid") unless the value is the one
// secret it knows. FastAPI calls a dependency as soon as its own inputs
// validate, so the refusal also comes before the 422 of any other input.
// An operation that refuses every valid request the runner made with such
// an answer needs a real value from the user (--header, --query,
// --cookie); until then its cases answered by the refusal are not
// counted, and the report says which value is missing.
type gate struct {
	status int
	body   string   // the refusal's body, for the note
	params []string // "x-token (header)": the inputs that need a real value
	flags  []string // how to give them
}

// gateChecks are the checks a gate's refusal makes meaningless: what the
// application would answer with the real value is unknown. The checks on
// the refusal itself (its media type, schema, headers, time) still apply;
// its status too, but for being undeclared (waiveGates).
var gateChecks = map[string]bool{
	"positive_data_acceptance": true, "validation_error_shape": true, "unknown_id_not_found": true,
	"stateful_create_read": true, "stateful_update": true, "stateful_delete": true,
	"registration_login": true, "paging_and_filters": true, "list_item_consistency": true,
}

// appRefusal reports whether resp is an application's HTTPException: 400,
// 401 or 403 with FastAPI's {"detail": "<message>"}, not a validation
// error (whose detail is a list). A 401 asking for a bearer token is the
// security scheme's, not a gate.
func appRefusal(resp *Response) (string, bool) {
	switch resp.Status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
	default:
		return "", false
	}
	if resp.Status == http.StatusUnauthorized && strings.HasPrefix(strings.ToLower(resp.Header.Get("WWW-Authenticate")), "bearer") {
		return "", false
	}
	body := resp.Body
	if body == nil {
		if resp.Truncated || int64(len(resp.Excerpt)) != resp.Size {
			return "", false
		}
		body = resp.Excerpt
	}
	var v struct {
		Detail *string `json:"detail"`
	}
	if json.Unmarshal(body, &v) != nil || v.Detail == nil {
		return "", false
	}
	return *v.Detail, true
}

// opKey names an operation whoever built it (the sequences have operations
// of their own).
func opKey(method, path string) string { return method + " " + path }

// findGates finds the operations every valid request of which the
// application refused with its own answer, where the operation has a
// header, query parameter or cookie the user gave no value for.
func (r *runner) findGates(ops []*operation, results []*Result) map[string]*gate {
	type tally struct {
		valid, refused int
		first          *Response
		detail         string
	}
	tallies := map[*operation]*tally{}
	for _, res := range results {
		c := res.Case
		if c == nil || c.op == nil || res.Response.Status == 0 || (c.Kind != Positive && c.Kind != Generated) {
			continue
		}
		if c.Expect != ExpectSuccess && c.Expect != ExpectNotRejected {
			continue
		}
		t := tallies[c.op]
		if t == nil {
			t = &tally{}
			tallies[c.op] = t
		}
		t.valid++
		if d, ok := appRefusal(&res.Response); ok {
			t.refused++
			if t.first == nil {
				t.first, t.detail = &res.Response, d
			}
		}
	}
	gates := map[string]*gate{}
	for _, o := range ops {
		t := tallies[o]
		if t == nil || t.valid == 0 || t.refused < t.valid {
			continue
		}
		var named, required, all []fastapi.Input
		msg := normalizeName(t.detail)
		for _, in := range o.inputs.List {
			if in.In != "header" && in.In != "query" && in.In != "cookie" {
				continue
			}
			if _, given := userValue(r.cfg, in); given {
				continue
			}
			all = append(all, in)
			if in.Required {
				required = append(required, in)
			}
			if strings.Contains(msg, normalizeName(in.Name)) {
				named = append(named, in)
			}
		}
		pick := named
		if len(pick) == 0 {
			pick = required
		}
		if len(pick) == 0 {
			pick = all
		}
		if len(pick) == 0 {
			continue // nothing the user could give: a refusal to report
		}
		g := &gate{status: t.first.Status, body: snippet(t.first.Excerpt)}
		for _, in := range pick {
			g.params = append(g.params, fmt.Sprintf("%s (%s)", in.Name, in.In))
			switch in.In {
			case "header":
				g.flags = append(g.flags, "--header "+shellQuote(in.Name+": VALUE"))
			case "query":
				g.flags = append(g.flags, "--query "+shellQuote(in.Name+"=VALUE"))
			case "cookie":
				g.flags = append(g.flags, "--cookie "+shellQuote(in.Name+"=VALUE"))
			}
		}
		gates[opKey(o.method, o.path)] = g
	}
	return gates
}

// normalizeName folds case and the _/- difference of header names.
func normalizeName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "_", "-")
}

// waiveGates takes out the verdicts a gate's refusal makes meaningless,
// and says in the notes which values the user must give.
func (r *runner) waiveGates(report *Report, ops []*operation) {
	gates := r.findGates(ops, report.Results)
	if len(gates) == 0 {
		return
	}
	waived := map[string]int{}
	for _, res := range report.Results {
		c := res.Case
		if c == nil {
			continue
		}
		key := opKey(c.Method, c.Path)
		if gates[key] == nil {
			continue
		}
		if _, ok := appRefusal(&res.Response); !ok {
			continue
		}
		kept := res.Checks[:0]
		for _, chk := range res.Checks {
			// A dependency's HTTPException is a status FastAPI cannot
			// declare: a 403 of a gate is no undeclared status either.
			if !chk.Passed && (gateChecks[chk.Check] || chk.Check == "status_code_conformance") {
				waived[key]++
				continue
			}
			kept = append(kept, chk)
		}
		res.Checks = kept
	}
	for _, o := range ops {
		key := opKey(o.method, o.path)
		g := gates[key]
		if g == nil {
			continue
		}
		report.Notes = append(report.Notes, fmt.Sprintf(
			"%s: the application refuses every value the runner made for %s with %s %s, a rule of its own the contract does not tell; %d verdicts on its refusals are not counted. Give a value it accepts to test the operation: %s",
			o.id, strings.Join(g.params, ", "), strconv.Itoa(g.status), g.body, waived[key], strings.Join(g.flags, " ")))
	}
}

// untrustedHostNote says, when every answer was Starlette's
// TrustedHostMiddleware refusing the Host the runner sent (400 "Invalid
// host header"), which flag gives a host name the application trusts: the
// contract cannot tell its allowed hosts.
func untrustedHostNote(results []*Result) []string {
	answered := 0
	for _, res := range results {
		r := &res.Response
		if r.Status == 0 {
			continue
		}
		answered++
		body := r.Body
		if body == nil {
			body = r.Excerpt
		}
		if r.Status != http.StatusBadRequest || string(body) != "Invalid host header" {
			return nil
		}
	}
	if answered == 0 {
		return nil
	}
	return []string{"every request was answered 400 \"Invalid host header\" (Starlette's TrustedHostMiddleware): the application trusts other host names than the one in --base-url; give one it trusts: --header 'Host: HOSTNAME'"}
}
