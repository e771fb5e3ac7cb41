package fastapi

import (
	"bytes"
	"image"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"reflect"
	"testing"
)

func TestResponseContentType(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mt, want string }{
		{"text/html", "text/html; charset=utf-8"},
		{"text/plain", "text/plain; charset=utf-8"},
		{"text/event-stream", "text/event-stream; charset=utf-8"},
		{"text/plain; charset=latin-1", "text/plain; charset=latin-1"},
		{"image/png", "image/png"},
		{"application/jsonl", "application/jsonl"},
		{"application/xml", "application/xml"},
	} {
		if got := ResponseContentType(tc.mt); got != tc.want {
			t.Errorf("ResponseContentType(%q) = %q, want %q", tc.mt, got, tc.want)
		}
	}
}

// The bytes are those FastAPI 0.141 sent for
// docs_src/server_sent_events/tutorial002 and tutorial004.
func TestAppendEventAsFastAPI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ev   Event
		want string
	}{
		{"data only", Event{Data: `{"name":"Plumbus"}`, HasData: true}, "data: {\"name\":\"Plumbus\"}\n\n"},
		{"comment only", Event{Comment: "stream of item updates"}, ": stream of item updates\n\n"},
		{"every field", Event{Event: "item_update", Data: `{"price":32.99}`, HasData: true, ID: "1", HasID: true, Retry: 5000, HasRetry: true},
			"event: item_update\ndata: {\"price\":32.99}\nid: 1\nretry: 5000\n\n"},
		{"data with id", Event{Data: "x", HasData: true, ID: "0", HasID: true}, "data: x\nid: 0\n\n"},
		{"multi-line data", Event{Data: "a\r\nb\rc", HasData: true}, "data: a\ndata: b\ndata: c\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(AppendEvent(nil, tc.ev)); got != tc.want {
				t.Errorf("AppendEvent = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		max        int
		want       []map[string]any
		err        error
	}{
		{"fastapi tutorial002", ": stream of item updates\n\nevent: item_update\ndata: {\"a\":1}\nid: 1\nretry: 5000\n\nevent: item_update\ndata: 2\nid: 2\nretry: 5000\n\n", 10,
			[]map[string]any{{"event": "item_update", "data": `{"a":1}`, "id": "1", "retry": int64(5000)}, {"event": "item_update", "data": "2", "id": "2", "retry": int64(5000)}}, nil},
		{"keep-alive and CRLF", ": ping\r\n\r\ndata: a\r\ndata:b\r\n\r\n", 10, []map[string]any{{"data": "a\nb"}}, nil},
		{"no data dispatches nothing", "id: 3\n\nevent: x\n\n", 10, nil, nil},
		{"empty data is an event", "data:\n\n", 10, []map[string]any{{"data": ""}}, nil},
		{"cut off last event", "data: a\n\ndata: b\n", 10, []map[string]any{{"data": "a"}}, nil},
		{"bad retry ignored", "data: a\nretry: 1x\n\n", 10, []map[string]any{{"data": "a"}}, nil},
		{"budget", "data: a\n\ndata: b\n\n", 1, []map[string]any{{"data": "a"}}, ErrTooManyItems},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseEvents([]byte(tc.body), tc.max)
			if err != tc.err || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseEvents = %v, %v; want %v, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestParseLines(t *testing.T) {
	t.Parallel()
	got, err := ParseLines([]byte("{\"a\":1}\n\n{\"a\":2}\r\n{\"a\":3}"), 10)
	if err != nil || len(got) != 3 || string(got[1]) != `{"a":2}` || string(got[2]) != `{"a":3}` {
		t.Errorf("ParseLines = %q, %v", got, err)
	}
	if _, err := ParseLines([]byte("1\n2\n3\n"), 2); err != ErrTooManyItems {
		t.Errorf("over budget: err = %v", err)
	}
}

// The samples are real files of their type, and BodyFits takes them.
func TestSampleBodiesFitTheirType(t *testing.T) {
	t.Parallel()
	for _, mt := range []string{"image/png", "image/gif", "image/jpeg", "image/*"} {
		body, concrete := SampleBody(mt, "text")
		if _, _, err := image.Decode(bytes.NewReader(body)); err != nil {
			t.Errorf("%s: the sample does not decode: %v", mt, err)
		}
		if err := BodyFits(ResponseContentType(concrete), body); err != nil {
			t.Errorf("%s: %v", mt, err)
		}
	}
	for _, mt := range []string{"text/html", "text/plain", "application/xml", "text/csv", "application/pdf", "application/octet-stream"} {
		body, concrete := SampleBody(mt, "a < b")
		if len(body) == 0 || concrete != mt {
			t.Errorf("%s: sample %q as %s", mt, body, concrete)
		}
		if err := BodyFits(ResponseContentType(concrete), body); err != nil {
			t.Errorf("%s: %v", mt, err)
		}
	}
	if err := BodyFits("image/png", []byte("{}")); err == nil {
		t.Error("a JSON body passed as image/png")
	}
	if err := BodyFits("text/plain; charset=utf-8", []byte{0xff, 0xfe}); err == nil {
		t.Error("invalid UTF-8 passed as utf-8 text")
	}
}

func TestMediaMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"image/png", "image/png", true}, {"Image/PNG", "image/png", true}, {"image/*", "image/gif", true},
		{"*/*", "text/html", true}, {"*/*", "", false}, {"image/*", "text/html", false}, {"text/html", "text/plain", false},
		{`application/vnd.api+json; ext="https://www.jsonapi.net/ext/openapi"`, "application/vnd.api+json", true},
		{"text/plain; charset=utf-8", "text/plain", true}, {"text/plain; charset=utf-8", "text/html", false},
	} {
		if got := MediaMatches(tc.want, tc.got); got != tc.ok {
			t.Errorf("MediaMatches(%q, %q) = %v", tc.want, tc.got, got)
		}
	}
}

// ParseEvents and ParseLines read what a server under test streams: any
// bytes, never a panic, never more items than the budget.
func FuzzParseStreams(f *testing.F) {
	f.Add([]byte(": ping\n\nevent: e\ndata: {\"a\":1}\nid: 1\nretry: 5\n\n"))
	f.Add([]byte("data\r\ndata:\rretry: 99999999999999999999\n\n{\"a\":1}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		const max = 5
		if events, _ := ParseEvents(body, max); len(events) > max {
			t.Fatalf("%d events past the budget", len(events))
		}
		if lines, _ := ParseLines(body, max); len(lines) > max {
			t.Fatalf("%d lines past the budget", len(lines))
		}
	})
}
