package proxy

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// Violation is one failed check of one exchange, as GET /__mock/violations
// lists it.
type Violation struct {
	Case      string `json:"case"` // the exchange, and when it came in
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation"`
	Status    int    `json:"status"`
	Check     string `json:"check"`
	Expected  string `json:"expected"`
	Got       string `json:"got"`
	Curl      string `json:"curl"`
}

// Violations lists the violations found so far, oldest first.
func (p *Proxy) Violations() []Violation {
	out := []Violation{}
	if p.cfg.Observer == nil {
		return out
	}
	for _, res := range p.cfg.Observer.Failures() {
		for _, c := range res.Checks {
			if c.Passed {
				continue
			}
			out = append(out, Violation{
				Case: res.Case.Name, Method: res.Case.Method, Path: res.Case.Request.URL, Operation: res.Case.Operation,
				Status: res.Response.Status, Check: c.Check, Expected: c.Expected, Got: c.Got, Curl: contract.Curl(res.Case.Request),
			})
		}
	}
	return out
}

func (p *Proxy) violations(w http.ResponseWriter, r *http.Request) {
	var checked, failed int
	if p.cfg.Observer != nil {
		checked, failed = p.cfg.Observer.Counts()
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(struct {
		Checked    int         `json:"checked"`
		Failed     int         `json:"failed"`
		Violations []Violation `json:"violations"`
	}{checked, failed, p.Violations()})
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
	return p.cfg.Observer.Report()
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
