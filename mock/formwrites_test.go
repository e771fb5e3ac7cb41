package mock_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// A create and an update that take only a form store the fields sent, as
// a JSON body's are: each as a value of its schema's type (an integer, a
// number, a boolean, a repeated field as a list), read back after, listed,
// and an update keeps what it was not sent. A field its schema refuses is
// the declared 400, and changes nothing.
func TestFormBodiedWrites(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(contractServer(t, "../testdata/contracts/form-writes/openapi.yaml", nil, nil))
	t.Cleanup(ts.Close)
	send := func(method, path, ct, body string, want int) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
		}
		var v map[string]any
		json.Unmarshal(b, &v)
		return v
	}
	form := url.Values{"name": {"Gizmo"}, "color": {"red"}, "size": {"3"}, "weight": {"2.5"}, "active": {"true"}, "tags": {"a", "b"}}
	made := send("POST", "/widgets", "application/x-www-form-urlencoded", form.Encode(), 201)
	want := map[string]any{"id": made["id"], "name": "Gizmo", "color": "red", "size": 3.0, "weight": 2.5, "active": true, "tags": []any{"a", "b"}}
	if !reflect.DeepEqual(made, want) {
		t.Fatalf("the create answered %v, want %v", made, want)
	}
	at := fmt.Sprintf("/widgets/%v", made["id"])
	if got := send("GET", at, "", "", 200); !reflect.DeepEqual(got, want) {
		t.Errorf("GET %s: %v, want the record the form made", at, got)
	}
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	w.WriteField("color", "blue")
	w.WriteField("active", "false")
	w.Close()
	changed := send("PATCH", at, w.FormDataContentType(), mp.String(), 200)
	want["color"], want["active"] = "blue", false
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("the update answered %v, want %v", changed, want)
	}
	send("PATCH", at, "application/x-www-form-urlencoded", "size=0", 400)
	if got := send("GET", at, "", "", 200); !reflect.DeepEqual(got, want) {
		t.Errorf("GET %s after a refused update: %v, want %v", at, got, want)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/widgets", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []map[string]any
	json.NewDecoder(resp.Body).Decode(&list)
	found := false
	for _, r := range list {
		found = found || reflect.DeepEqual(r, want)
	}
	if !found {
		t.Errorf("the widget the form made is not listed")
	}
}
