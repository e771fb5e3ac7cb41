package framework

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      Name
	}{
		{"HTTPValidationError", `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},
			"components":{"schemas":{"HTTPValidationError":{"type":"object","properties":{"detail":{"type":"array","items":{}}}}}}}`, FastAPI},
		{"no input, FastAPI's description", `{"openapi":"3.1.0","info":{"title":"t","version":"1"},
			"paths":{"/":{"get":{"responses":{"200":{"description":"Successful Response"}}}}}}`, FastAPI},
		{"hand-written", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},
			"paths":{"/":{"get":{"responses":{"200":{"description":"OK"}}}}},
			"components":{"schemas":{"Error":{"type":"object","properties":{"detail":{"type":"string"}}}}}}`, OpenAPI},
		{"a schema called HTTPValidationError without detail", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},
			"components":{"schemas":{"HTTPValidationError":{"type":"object","properties":{"errors":{"type":"array","items":{}}}}}}}`, OpenAPI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := openapi3.NewLoader().LoadFromData([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := doc.Validate(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got, why := Detect(doc); got != tc.want {
				t.Errorf("Detect = %s (%s), want %s", got, why, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Name{"": "", "auto": "", "FastAPI": FastAPI, " openapi ": OpenAPI} {
		got, _, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, _, err := Parse("django"); err == nil {
		t.Error("Parse(django): no error")
	}
}

// A FastAPI date-time is pydantic's (a fraction only when there is one, in
// microseconds); any other profile's always has milliseconds, in UTC.
func TestFormatDateTime(t *testing.T) {
	whole := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	frac := time.Date(2026, 3, 1, 13, 0, 0, 123456789, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		name Name
		t    time.Time
		want string
	}{
		{FastAPI, whole, "2026-03-01T12:00:00Z"},
		{FastAPI, frac, "2026-03-01T12:00:00.123456Z"},
		{OpenAPI, whole, "2026-03-01T12:00:00.000Z"},
		{OpenAPI, frac, "2026-03-01T12:00:00.123Z"},
	} {
		if got := tc.name.FormatDateTime(tc.t); got != tc.want {
			t.Errorf("%s.FormatDateTime(%s) = %s, want %s", tc.name, tc.t, got, tc.want)
		}
	}
}

// A FastAPI time is pydantic's naive time (no offset); any other
// profile's is RFC 3339 full-time in UTC, whose offset JSON Schema's
// format "time" requires.
func TestFormatTime(t *testing.T) {
	whole := time.Date(2026, 3, 1, 11, 7, 40, 0, time.UTC)
	frac := time.Date(2026, 3, 1, 13, 0, 0, 123456789, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		name Name
		t    time.Time
		want string
	}{
		{FastAPI, whole, "11:07:40"},
		{FastAPI, frac, "12:00:00.123456"},
		{OpenAPI, whole, "11:07:40Z"},
		{OpenAPI, frac, "12:00:00Z"},
	} {
		if got := tc.name.FormatTime(tc.t); got != tc.want {
			t.Errorf("%s.FormatTime(%s) = %s, want %s", tc.name, tc.t, got, tc.want)
		}
	}
}

func TestRouteOrder(t *testing.T) {
	paths := []string{"/numbers/{Sid}.json", "/numbers/Local.json", "/users/{id}", "/users/me", "/{a}/b", "/a/{b}", "/"}
	for _, tc := range []struct {
		name Name
		want []string
	}{
		{FastAPI, paths},
		{OpenAPI, []string{"/", "/numbers/Local.json", "/users/me", "/numbers/{Sid}.json", "/users/{id}", "/a/{b}", "/{a}/b"}},
	} {
		got := RouteOrder(paths, tc.name)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if paths[0] != "/numbers/{Sid}.json" {
		t.Error("RouteOrder changed its argument")
	}
}
