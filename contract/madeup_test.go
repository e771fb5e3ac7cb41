package contract_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// albumsDoc reads records by keys nothing of the document gives: no
// example, no list, no create.
const albumsDoc = `openapi: 3.0.3
info: {title: albums, version: "1"}
paths:
  /albums/{id}:
    get:
      operationId: getAlbum
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: OK
          content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}
  /albums/{id}/tracks/{n}:
    get:
      operationId: getTrack
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
        - {name: n, in: path, required: true, schema: {type: integer, minimum: 1}}
      responses:
        "200": {description: OK}
`

// A path parameter no list, example or create gives a value for is sent a
// key made up from its schema: where the target takes it, the operation
// is tested; where it answers 404, the state refuses (no such record),
// which is no failure, and the operation is not counted as tested.
func TestMadeUpPathKeys(t *testing.T) {
	t.Parallel()
	t.Run("taken", func(t *testing.T) {
		t.Parallel()
		report := runOnMock(t, albumsDoc, "albums.yaml", contract.Config{})
		testsEveryOperation(t, report)
		if !hasNote(report, "getAlbum: tested with a key the runner made up") {
			t.Errorf("no note says getAlbum's key was made up: %q", report.Notes)
		}
	})
	t.Run("server error", func(t *testing.T) {
		t.Parallel()
		// A lookup of a key the backend does not hold breaks (a dict's
		// KeyError): the server error is a failure, once, of
		// not_a_server_error; no success was owed to the key.
		broken := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
		})
		report := runOnHandler(t, albumsDoc, "albums.yaml", broken, contract.Config{})
		for _, f := range failed(report) {
			if strings.HasPrefix(f, "positive_data_acceptance:") {
				t.Errorf("a server error to a made-up key fails more than not_a_server_error: %s", f)
			}
		}
		if !slices.ContainsFunc(failed(report), func(f string) bool { return strings.HasPrefix(f, "not_a_server_error:") }) {
			t.Errorf("no not_a_server_error failure: %q", failed(report))
		}
	})
	t.Run("absent", func(t *testing.T) {
		t.Parallel()
		// No album is there: every key is answered 404, which the
		// document does not declare.
		gone := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"no such album"}`))
		})
		report := runOnHandler(t, albumsDoc, "albums.yaml", gone, contract.Config{})
		if f := failed(report); len(f) > 0 {
			t.Errorf("%d failures where no record is there:\n%s", len(f), strings.Join(f, "\n"))
		}
		for _, c := range report.Coverage {
			if c.Positive > 0 {
				t.Errorf("%s %s: counted as tested, though only 404s answered", c.Method, c.Path)
			}
		}
		for _, id := range []string{"getAlbum", "getTrack"} {
			if !hasNote(report, id+": no positive case answered:") {
				t.Errorf("no note says %s's made-up key met a 404: %q", id, report.Notes)
			}
		}
	})
}
