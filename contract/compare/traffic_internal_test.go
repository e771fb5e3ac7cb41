package compare

import (
	"testing"

	"github.com/moviemock/moviemock/internal/traffic"
)

// A call sent a body field when its body has it: JSON at any depth (in any
// element of the arrays on the way), a form's field by its name.
func TestBodyFieldsSent(t *testing.T) {
	t.Parallel()
	multipart := "--b\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.png\"\r\n\r\nx\r\n--b--\r\n"
	calls := map[string]*traffic.Call{
		"json":      {Body: []byte(`{"title":"a","tags":[{"id":1},{"name":"x"}],"meta":{"n":null}}`), BodyType: "application/json"},
		"list":      {Body: []byte(`[{"id":1}]`), BodyType: "application/json"},
		"form":      {Body: []byte("username=a&password=b"), BodyType: "application/x-www-form-urlencoded;charset=UTF-8"},
		"multipart": {Body: []byte(multipart), BodyType: "multipart/form-data; boundary=b"},
		"none":      {},
	}
	for _, tc := range []struct {
		call, prop string
		want       bool
	}{
		{"json", "title", true},
		{"json", "tags/items/name", true},
		{"json", "tags/items/id", true},
		{"json", "tags/items/other", false},
		{"json", "meta/n", true},
		{"json", "meta/n/anyOf[subschema #1]", true},
		{"json", "missing", false},
		{"json", "", true},
		{"list", "items/id", true},
		{"form", "password", true},
		{"form", "scope", false},
		{"multipart", "avatar", true},
		{"none", "title", false},
		{"none", "", false},
	} {
		if got := (bodyFields{}).sent(calls[tc.call], tc.prop); got != tc.want {
			t.Errorf("%s body, %q: sent %v, want %v", tc.call, tc.prop, got, tc.want)
		}
	}
}

// A recorded status falls under a response's key: itself, a range the
// operation declares no status of on its own, or default.
func TestStatusIs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key      string
		status   int
		declared []string
		want     bool
	}{
		{"200", 200, nil, true},
		{"200", 201, nil, false},
		{"2XX", 204, []string{"200", "2XX"}, true},
		{"2XX", 200, []string{"200", "2XX"}, false},
		{"2xx", 201, nil, true},
		{"default", 500, []string{"200", "default"}, true},
		{"default", 200, []string{"200", "default"}, false},
		{"default", 404, []string{"4XX", "default"}, false},
	} {
		if got := statusIs(tc.key, tc.status, tc.declared); got != tc.want {
			t.Errorf("statusIs(%q, %d, %q) = %v", tc.key, tc.status, tc.declared, got)
		}
	}
}
