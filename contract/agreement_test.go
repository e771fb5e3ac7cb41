package contract_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// agreementExamples are the generated cases per operation: few, so that an
// input runs in well under a second.
const agreementExamples = 2

// FuzzContractAgreement holds "mock and runner agree" on random contracts
// shaped as FastAPI writes them (agreement_gen_test.go): the mock loads any
// of them, as `moviemock serve --spec` does, and the runner, as `moviemock
// contract --spec` does, finds no failure against it.
func FuzzContractAgreement(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
		strings.Repeat("\xff", 64),
		strings.Repeat("\x02\x07\x01\x05", 40),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := contractFromBytes(data)
		agree(t, doc, "")
	})
}

// agree serves doc with the mock and runs the contract runner against it,
// with token as --token gives it where not empty; every failure of either
// is the test's.
func agree(t *testing.T, doc []byte, token string) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\ndocument:\n%s", append(args, doc)...)
	}
	sp, err := spec.Load(doc, "openapi.json")
	if err != nil {
		fail("load: %v", err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		fail("compile: %v", err)
	}
	data, err := fixtures.LoadDefault(m)
	if err != nil {
		fail("fixtures: %v", err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: data})
	if err != nil {
		fail("mock: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The runner reads the document afresh, as `moviemock contract
	// --spec` does.
	rsp, err := spec.Load(doc, "openapi.json")
	if err != nil {
		fail("load: %v", err)
	}
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL, Spec: rsp, Examples: agreementExamples, Token: token})
	if err != nil {
		fail("run: %v", err)
	}
	if f := failed(report); len(f) > 0 {
		fail("%d failures against the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
}

// FuzzResourceAgreement holds "mock and runner agree" on random documents
// of resources shaped as other frameworks write them
// (resources_gen_test.go): envelopes, natural keys, forms, nested
// records, declared error shapes; the runner, its sequences included,
// finds no failure against the mock.
func FuzzResourceAgreement(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
		strings.Repeat("\xff", 64),
		strings.Repeat("\x02\x07\x01\x05", 40),
		strings.Repeat("\x01\x01\x02\x02\x00\x03", 20),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// a credential for the writes a document secures: the mock
		// accepts any it cannot verify
		agree(t, resourcesFromBytes(data), "resource-agreement-credential")
	})
}
