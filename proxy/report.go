package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// Violation is one failed check of one exchange, as GET /__mock/violations
// lists it: an exchange may have several.
type Violation struct {
	Case   string `json:"case"` // the exchange, and when it came in
	Method string `json:"method"`
	// Path is the request's path as the client sent it, URL the request as
	// forwarded to the upstream (with the query).
	Path      string `json:"path"`
	URL       string `json:"url"`
	Operation string `json:"operation"`
	Status    int    `json:"status"`
	Check     string `json:"check"`
	Expected  string `json:"expected"`
	Got       string `json:"got"`
	Curl      string `json:"curl"`
}

// Violations lists the violations found so far, oldest first, shown as
// the reports show them (contract.Redactor): no credential, no secret
// field's value, reproductions that read $MOVIEMOCK_TOKEN.
func (p *Proxy) Violations() []Violation {
	out := []Violation{}
	if p.cfg.Observer == nil {
		return out
	}
	rep := p.cfg.Observer.Report()
	x := rep.Redactor()
	for _, res := range rep.Results {
		for _, c := range res.Checks {
			if c.Passed {
				continue
			}
			out = append(out, Violation{
				Case: x.Text(res.Case.Name), Method: res.Case.Method, Path: x.Text(p.clientPath(res.Case.Request.URL)), URL: x.Text(res.Case.Request.URL),
				Operation: res.Case.Operation, Status: res.Response.Status, Check: c.Check, Expected: x.Text(c.Expected), Got: x.Text(c.Got),
				Curl: x.Curl(res.Case.Request),
			})
		}
	}
	return out
}

// clientPath is the path of a forwarded request's URL as the client sent
// it: without the upstream's base path.
func (p *Proxy) clientPath(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return target
	}
	return strings.TrimPrefix(u.Path, p.upstream.Path)
}

// violationsBody is GET /__mock/violations's answer. Its counts are the
// reports' (contract.ObservedSummary): a violation is one failed check;
// Failed counts the exchanges with at least one. Violations lists those of
// the failing exchanges kept (the first contract.MaxKeptFailures).
type violationsBody struct {
	Exchanges      int         `json:"exchanges"`       // every exchange
	Reached        int         `json:"reached"`         // answered by the upstream
	Mocked         int         `json:"mocked"`          // answered by the mock instead
	Checked        int         `json:"checked"`         // of a contract operation, checked
	Failed         int         `json:"failed"`          // checked, with a violation
	ViolationCount int         `json:"violation_count"` // failed checks
	Violations     []Violation `json:"violations"`
}

func (p *Proxy) violations(w http.ResponseWriter, r *http.Request) {
	var body violationsBody
	if p.cfg.Observer != nil {
		s := p.cfg.Observer.Summary()
		body = violationsBody{Exchanges: s.Total(), Reached: s.Reached(), Mocked: s.Mocked, Checked: s.Exchanges,
			Failed: s.Failed, ViolationCount: s.Violations}
	}
	body.Violations = p.Violations()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

func (p *Proxy) clearViolations(w http.ResponseWriter, r *http.Request) {
	if p.cfg.Observer != nil {
		p.cfg.Observer.Reset()
	}
	w.WriteHeader(http.StatusNoContent)
}

// Report is the report of every exchange checked so far; nil when nothing
// checks them.
func (p *Proxy) Report() *contract.Report {
	if p.cfg.Observer == nil {
		return nil
	}
	rep := p.cfg.Observer.Report()
	if rec := p.cfg.Recorder; rec != nil {
		if why, missed := rec.Stopped(); why != "" {
			rep.Notes = append(rep.Notes, fmt.Sprintf("--record: %s (%d answers with records not recorded)", why, missed))
		}
	}
	return rep
}

// Record writes what the recorder kept into dir now and then (every
// interval, when something new was kept) until ctx ends, then once more.
// Each write's outcome goes to report.
func (p *Proxy) Record(ctx context.Context, dir string, interval time.Duration, report func(written int, problems, err error)) {
	rec := p.cfg.Recorder
	if rec == nil {
		return
	}
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-tick:
			if rec.Changed() {
				report(rec.WriteDir(dir))
			}
		case <-ctx.Done():
			report(rec.WriteDir(dir))
			return
		}
	}
}
