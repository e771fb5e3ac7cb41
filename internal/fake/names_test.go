package fake

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

// check judges one generated value; obj is the whole object it came from.
type check func(v any, obj map[string]any) error

func matches(pattern string) check {
	re := regexp.MustCompile(pattern)
	return func(v any, _ map[string]any) error {
		s, ok := v.(string)
		if !ok || !re.MatchString(s) {
			return fmt.Errorf("%#v does not match %s", v, pattern)
		}
		return nil
	}
}

func between(lo, hi float64, integer bool) check {
	return func(v any, _ map[string]any) error {
		f, ok := v.(float64)
		if !ok || f < lo || f > hi || integer && f != math.Trunc(f) {
			return fmt.Errorf("%#v is not in [%g, %g]", v, lo, hi)
		}
		return nil
	}
}

func oneOf(options ...string) check {
	return func(v any, _ map[string]any) error {
		if s, ok := v.(string); !ok || !slices.Contains(options, s) {
			return fmt.Errorf("%#v is not one of %q", v, options)
		}
		return nil
	}
}

func each(c check) check {
	return func(v any, obj map[string]any) error {
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%#v is not an array", v)
		}
		for _, e := range list {
			if err := c(e, obj); err != nil {
				return err
			}
		}
		return nil
	}
}

func all(cs ...check) check {
	return func(v any, obj map[string]any) error {
		for _, c := range cs {
			if err := c(v, obj); err != nil {
				return err
			}
		}
		return nil
	}
}

const (
	dateRE     = `^\d{4}-\d\d-\d\d$`
	dateTimeRE = `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$`
	uuid4RE    = `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`
)

// notBefore checks that a date is not before the one in the property other.
func notBefore(other string, years int) check {
	return func(v any, obj map[string]any) error {
		s, _ := v.(string)
		o, _ := obj[other].(string)
		if s == "" || o == "" {
			return nil
		}
		t, err1 := time.Parse(time.RFC3339Nano, s)
		u, err2 := time.Parse(time.RFC3339Nano, o)
		if err1 != nil || err2 != nil {
			t, err1 = time.Parse(time.DateOnly, s)
			u, err2 = time.Parse(time.DateOnly, o)
		}
		if err1 != nil || err2 != nil {
			return fmt.Errorf("cannot compare %q with %s %q", s, other, o)
		}
		if t.Before(u.AddDate(years, 0, 0)) {
			return fmt.Errorf("%s is before %s %s (+%d years)", s, other, o, years)
		}
		return nil
	}
}

// TestNames: values are chosen by property name, within the schema's
// bounds. The Names schema of testdata/contract31.yaml gives most
// properties no constraint but a type.
func TestNames(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/contract31.yaml")
	g := New(sp)
	ref := sp.Doc.Components.Schemas["Names"]
	const n = 300
	objs := make([]map[string]any, n)
	for i := range objs {
		if err := json.Unmarshal(g.Append(nil, gofakeit.New(uint64(i+1)), "", ref), &objs[i]); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		prop  string
		check check
	}{
		{"first_name", matches(`^[A-Z][A-Za-z'-]+$`)},
		{"last_name", matches(`^[A-Z][A-Za-z' -]+$`)},
		{"full_name", matches(`^[A-Z][A-Za-z'-]+ [A-Z][A-Za-z' -]+$`)},
		{"username", matches(`^[a-z0-9._-]+$`)},
		{"email", matches(`^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}$`)},
		{"password", matches(`^[A-Za-z0-9]{12}$`)},
		{"title", matches(`\S`)},
		{"content", matches(`^[A-Z].*[.!?]$`)},
		{"description", matches(`^[A-Z].*[.!?]$`)},
		{"biography", func(v any, obj map[string]any) error {
			// Names the person whose name was written before it.
			if s, _ := v.(string); !strings.HasPrefix(s, obj["full_name"].(string)+" is ") {
				return fmt.Errorf("%q does not begin with full_name %q", s, obj["full_name"])
			}
			return nil
		}},
		{"avatar", matches(`^https://images\.example\.org/avatars/[a-z0-9-]+\.png$`)},
		{"poster_url", matches(`^https://images\.example\.org/posters/[a-z0-9-]+\.jpg$`)},
		{"profile_image", matches(`^https://images\.example\.org/people/[a-z0-9-]+\.jpg$`)},
		{"website", matches(`^https?://www\.[a-z0-9.-]+\.[a-z]+(/[\w/-]*)?$`)},
		{"city", matches(`^\p{Lu}`)},
		{"country", matches(`^\p{Lu}`)},
		{"place_of_birth", matches(`^\p{Lu}[^,]*, \p{Lu}`)},
		{"address", matches(`^\d+ .+, [A-Z]`)},
		{"phone", matches(`^[0-9() .+-]{10,}$`)},
		{"company", matches(`\S`)},
		{"known_for_department", oneOf(departments...)},
		{"genre", matches(`^[A-Z][a-zA-Z -]+$`)},
		{"genres", each(matches(`^[A-Z][a-zA-Z -]+$`))},
		{"year", between(1990, 1999, true)}, // the schema's bounds win over the usual range
		{"release_year", between(1950, 2025, true)},
		{"rating", between(0, 5, false)},
		{"score", between(1, 10, true)},
		{"price", all(between(1, 500, false), func(v any, _ map[string]any) error {
			if f := v.(float64); math.Abs(f*100-math.Round(f*100)) > 1e-6 {
				return fmt.Errorf("price %v has more than two decimals", f)
			}
			return nil
		})},
		{"view_count", between(0, 10000, true)},
		{"quantity", between(1, 20, true)},
		{"age", between(18, 90, true)},
		{"created_at", matches(dateTimeRE)},
		{"updated_at", all(matches(dateTimeRE), notBefore("created_at", 0))},
		{"birthday", matches(dateRE)},
		{"deathday", func(v any, obj map[string]any) error {
			if v == nil {
				return nil
			}
			if err := matches(dateRE)(v, obj); err != nil {
				return err
			}
			return notBefore("birthday", 18)(v, obj)
		}},
		{"due_date", all(matches(dateRE), matches(`^202[6-7]-`))},
		{"lat", between(-90, 90, false)},
		{"lng", between(-180, 180, false)},
		{"color", matches(`^[a-z]+$`)},
		{"tags", each(matches(`^[a-z]+$`))},
		{"role", oneOf(roles...)},
		{"status", oneOf(statuses...)},
		{"author_id", between(1, 10000, true)},
		{"movie_id", matches(`^tt\d{7}$`)},
		{"user_id", matches(uuid4RE)},
		{"reactions", func(v any, _ map[string]any) error {
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%#v is not a dict", v)
			}
			for k, count := range m {
				if !slices.Contains(reactionWords, k) && !slices.Contains(reactionEmoji, k) {
					return fmt.Errorf("reaction %q", k)
				}
				if err := between(0, 500, true)(count, nil); err != nil {
					return err
				}
			}
			return nil
		}},
		{"known_for", each(matches(`\S`))},
	}
	for _, tc := range tests {
		t.Run(tc.prop, func(t *testing.T) {
			t.Parallel()
			for i, obj := range objs {
				v, ok := obj[tc.prop]
				if !ok {
					t.Fatalf("seed %d: no %s", i+1, tc.prop)
				}
				if err := tc.check(v, obj); err != nil {
					t.Fatalf("seed %d: %s: %v", i+1, tc.prop, err)
				}
			}
		})
	}
	t.Run("flags", func(t *testing.T) {
		active, deleted, dead := 0, 0, 0
		for _, obj := range objs {
			if obj["is_active"] == true {
				active++
			}
			if obj["is_deleted"] == true {
				deleted++
			}
			if obj["deathday"] != nil {
				dead++
			}
		}
		if active < n*6/10 || deleted > n*3/10 || dead > n*4/10 {
			t.Errorf("of %d: %d active, %d deleted, %d dead", n, active, deleted, dead)
		}
	})
}

// TestTopLevelNames: Append's name chooses the value for a top-level schema
// as for a property, and the format or pattern still rules.
func TestTopLevelNames(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/contract31.yaml")
	g := New(sp)
	str := func(mod func(s *openapi3.Schema)) *openapi3.SchemaRef {
		s := openapi3.NewStringSchema()
		if mod != nil {
			mod(s)
		}
		return s.NewRef()
	}
	tests := []struct {
		name   string
		schema *openapi3.SchemaRef
		want   string // a pattern the value (as JSON text) matches
	}{
		{"email", str(nil), `^"[^@"]+@[^@"]+\.[a-z]+"$`},
		{"avatar", str(nil), `^"https://images\.example\.org/avatars/[a-z0-9-]+\.png"$`},
		{"posterURL", str(nil), `^"https://images\.example\.org/posters/[a-z0-9-]+\.jpg"$`},
		{"birthday", str(func(s *openapi3.Schema) { s.Format = "date" }), `^"(19\d\d|200[0-6])-\d\d-\d\d"$`},
		{"created_at", str(nil), `^"202[0-5]-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z"$`},
		{"id", str(nil), `^"[0-9a-f-]{36}"$`},
		{"id", openapi3.NewIntegerSchema().NewRef(), `^\d+$`},
		{"year", openapi3.NewIntegerSchema().WithMin(2000).WithMax(2005).NewRef(), `^200[0-5]$`},
		{"year", str(nil), `^"(19[5-9]\d|20[0-2]\d)"$`},
		{"price", openapi3.NewFloat64Schema().NewRef(), `^\d+\.\d{1,2}$`},
		{"username", str(func(s *openapi3.Schema) { s.Pattern = `^[a-z0-9_]{3,20}$` }), `^"[a-z0-9_]{3,20}"$`},
		{"movie_id", str(func(s *openapi3.Schema) { s.Format = "uuid" }), `^"[0-9a-f-]{36}"$`}, // the format wins
		{"email", str(func(s *openapi3.Schema) { s.Pattern = `^[a-z]+@corp\.example$` }), `^"[a-z]+@corp\.example"$`},
		{"country", str(func(s *openapi3.Schema) { s.Pattern = `^[A-Z]{2}$` }), `^"[A-Z]{2}"$`},
		{"", str(nil), `^"[a-z]+( [a-z]+)?"$`},
		{"is_active", openapi3.NewBoolSchema().NewRef(), `^(true|false)$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			re := regexp.MustCompile(tc.want)
			for seed := uint64(1); seed <= 100; seed++ {
				b := g.Append(nil, gofakeit.New(seed), tc.name, tc.schema)
				if !re.Match(b) {
					t.Fatalf("seed %d: %s does not match %s", seed, b, tc.want)
				}
				v, err := decode(b)
				if err != nil {
					t.Fatal(err)
				}
				if err := sp.Validate(tc.schema.Value, v, true); err != nil {
					t.Fatalf("seed %d: %s: %v", seed, b, err)
				}
			}
		})
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
	}{
		{"poster_url", "poster_url"},
		{"posterURL", "poster_url"},
		{"profileImage", "profile_image"},
		{"URLPath", "url_path"},
		{"Place Of Birth", "place_of_birth"},
		{"known-for", "known_for"},
		{"avatar2x", "avatar2x"},
	}
	for _, tc := range tests {
		if got := split(tc.in).full; got != tc.want {
			t.Errorf("split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSingular(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"genres": "genre", "categories": "category", "addresses": "address", "tags": "tag",
		"known_for": "known_for", "loc": "loc", "statuses": "status", "movie_ids": "movie_id",
	} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPatterns: strings with a pattern and length limits are valid whatever
// the property is called (a name's value is used only when it matches).
func TestPatterns(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/contract31.yaml")
	g := New(sp)
	tests := []struct {
		pattern  string
		min, max uint64 // max 0: none
	}{
		{`^[a-z]+$`, 8, 12},
		{`^\w+@\w+\.com$`, 0, 0},
		{`^[A-Z]{2,}-\d+$`, 10, 14},
		{`^(foo|barbaz)+$`, 9, 0},
		{`^[^\s]+$`, 5, 9},
		{`^\d{5}(-\d{4})?$`, 0, 0},
		{`^[a-z0-9_]{3,20}$`, 0, 0},
		{`^.{3}$`, 0, 0},
		{`^https?://[a-z]+\.[a-z]{2,3}/.*$`, 0, 30},
		{`^[a-z]*$`, 20, 20},
		{`abc`, 10, 12}, // unanchored: padded around the match
		{`^(?i)movie-[0-9]+$`, 0, 0},
		{`^[\p{L} ]+$`, 3, 0},
		{`^[a-f0-9]{32}$`, 0, 0},
		{`^\S+$`, 15, 40},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			t.Parallel()
			s := openapi3.NewStringSchema()
			s.Pattern, s.MinLength = tc.pattern, tc.min
			if tc.max > 0 {
				s.MaxLength = &tc.max
			}
			ref := s.NewRef()
			for seed := uint64(1); seed <= 200; seed++ {
				for _, name := range []string{"", "username", "email", "code", "description"} {
					b := g.Append(nil, gofakeit.New(seed), name, ref)
					v, err := decode(b)
					if err != nil {
						t.Fatal(err)
					}
					if err := sp.Validate(s, v, false); err != nil {
						t.Fatalf("seed %d, name %q: %s: %v", seed, name, b, err)
					}
				}
			}
		})
	}
}

// A made-up access token is a JWT whose exp no run's clock reaches: a
// client holding a token it is answered to an exp in the future (the
// runner's jwt_wellformed) does not see it expire as the calendar moves.
func TestJWTDoesNotExpire(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Token:\n      type: object\n      required: [access_token, refresh_token]\n      properties:\n        access_token: {type: string}\n        refresh_token: {type: string}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	horizon := time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC).Unix()
	for seed := uint64(1); seed <= 50; seed++ {
		var tok map[string]string
		if err := json.Unmarshal(g.Append(nil, gofakeit.New(seed), "", sp.Doc.Components.Schemas["Token"]), &tok); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"access_token", "refresh_token"} {
			parts := strings.Split(tok[name], ".")
			var claims struct {
				Exp int64 `json:"exp"`
			}
			raw, err := base64.RawURLEncoding.DecodeString(parts[min(1, len(parts)-1)])
			if len(parts) != 3 || err != nil || json.Unmarshal(raw, &claims) != nil || claims.Exp < horizon {
				t.Fatalf("seed %d: %s %q: exp %d, want a JWT whose exp is past %d", seed, name, tok[name], claims.Exp, horizon)
			}
		}
	}
}
