package fake

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A hint is where values for a property come from, chosen by its name: one
// part per kind of value, since "year" names a string or an integer alike.
type hint struct {
	str     func(st *state) string // strings
	formats []string               // the formats str's values have
	text    bool                   // str writes prose: it may be cut or padded to a length
	alt     func(st *state) string // another form, tried when str's misses a pattern (a code for a name)
	span    *span                  // dates: str nil, the value is a date in span…
	date    bool                   // …written as a date (else a date-time) when no format says
	num     *numHint               // integers and numbers
	truePct int                    // booleans
	nullPct int                    // how often null, when null is valid (0: the default)
}

type numHint struct {
	from, to float64
	dec      int // decimals, for numbers
}

// fits reports whether h's strings suit the format (a known one, or "").
func (h *hint) fits(format string) bool {
	if h.str == nil {
		return h.span != nil && (format == "" || format == "date" || format == "date-time" || format == "time")
	}
	return format == "" || slices.Contains(h.formats, format)
}

func (h *hint) has(k kind) bool {
	switch k {
	case kStr:
		return h.str != nil || h.span != nil
	case kInt, kNum:
		return h.num != nil
	case kBool:
		return h.truePct > 0
	case kNull:
		return h.nullPct > 0
	}
	return false
}

// words is a name split into lower-case snake_case words.
type words struct {
	full string   // the words joined with "_"
	all  []string // the words
	last string
}

func split(name string) words {
	var all []string
	var cur []rune
	runes := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			all = append(all, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1]) ||
			unicode.IsUpper(runes[i-1]) && i+1 < len(runes) && unicode.IsLower(runes[i+1])):
			flush() // posterURL, URLPath, profileImage
		}
		cur = append(cur, r)
	}
	flush()
	w := words{all: all, full: strings.Join(all, "_")}
	if len(all) > 0 {
		w.last = all[len(all)-1]
	}
	return w
}

func (w words) has(list ...string) bool {
	for _, x := range w.all {
		if slices.Contains(list, x) {
			return true
		}
	}
	return false
}

// rule picks a hint for the names it matches: by the whole name, its last
// word, or any of its words.
type rule struct {
	exact, last, any []string
	h                *hint
	fn               func(w, ctx words) *hint
}

func (r *rule) matches(w words) bool {
	return slices.Contains(r.exact, w.full) || slices.Contains(r.last, w.last) || w.has(r.any...)
}

// hintFor chooses the hint for a value of kind k in the property name of an
// object named ctx: the first rule that matches and has a part for k.
func hintFor(name, ctx string, k kind) *hint {
	w := split(name)
	if len(w.all) == 0 {
		return nil
	}
	if k == kBool {
		return boolHint(w)
	}
	cw := split(ctx)
	for i := range rules {
		r := &rules[i]
		if !r.matches(w) {
			continue
		}
		h := r.h
		if r.fn != nil {
			h = r.fn(w, cw)
		}
		if h != nil && h.has(k) {
			return h
		}
	}
	return nil
}

func ws(s string) []string { return strings.Fields(s) }

func prose(fn func(st *state) string) *hint { return &hint{str: fn, text: true} }
func plain(fn func(st *state) string, formats ...string) *hint {
	return &hint{str: fn, formats: formats}
}
func numbers(from, to float64, dec int) *hint {
	return &hint{num: &numHint{from: from, to: to, dec: dec}}
}
func pick(options []string) func(st *state) string {
	return func(st *state) string { return options[st.f.IntN(len(options))] }
}
func constant(s string) func(st *state) string { return func(*state) string { return s } }

var uriFormats = ws("uri url iri uri-reference iri-reference")

// rules, in the order they are tried. Whole names come first, then last
// words (author_id is an id, created_at a date-time), then any word
// (poster_url is an image, profile_image too); a rule with no part for the
// value's kind passes to the next (image_count is a count).
var rules []rule

func init() {
	// Set in init: nameHint looks rules up again (tag_name is a tag).
	rules = []rule{
		{exact: ws("place_of_birth birthplace birth_place hometown"), h: prose(place)},
		{exact: ws("known_for_department department"), h: plain(pick(departments))},
		{exact: ws("known_for"), h: prose(func(st *state) string { return st.f.MovieName() })},
		{exact: ws("first_name firstname given_name forename"), h: prose(func(st *state) string { return st.f.FirstName() })},
		{exact: ws("last_name lastname family_name surname"), h: prose(func(st *state) string { return st.f.LastName() })},
		{exact: ws("middle_name"), h: prose(func(st *state) string { return st.f.MiddleName() })},
		{exact: ws("imdb_id movie_id film_id title_id"), h: &hint{str: imdbID, num: &numHint{from: 1, to: 10000}}},
		{exact: ws("token_type"), h: plain(constant("bearer"))},
		{exact: ws("grant_type"), h: plain(constant("password"))},
		{exact: ws("access_token refresh_token id_token bearer_token jwt"), h: plain(jwt)},
		{exact: ws("client_secret api_key secret_key secret"), h: plain(hexToken)},
		{exact: ws("client_id"), h: plain(func(st *state) string { return slug(st.f.AppName()) + "-" + st.f.DigitN(4) })},
		{exact: ws("scope scopes"), h: plain(scope)},
		{exact: ws("lat latitude"), h: numbers(-90, 90, 6)},
		{exact: ws("lng lon long longitude"), h: numbers(-180, 180, 6)},
		{exact: ws("zip zip_code zipcode postal_code postcode"), h: plain(func(st *state) string { return st.f.Zip() })},
		{exact: ws("country_code"), h: plain(func(st *state) string { return st.f.CountryAbr() })},
		{exact: ws("user_agent"), h: plain(func(st *state) string { return st.f.UserAgent() })},
		{exact: ws("ip ip_address remote_addr client_ip"), h: plain(func(st *state) string { return st.f.IPv4Address() }, "ipv4")},
		{exact: ws("mime_type mimetype content_type media_type"), h: plain(func(st *state) string { return st.f.FileMimeType() })},
		{exact: ws("file_name filename"), h: plain(func(st *state) string { return slug(st.f.NounCommon()) + "." + st.f.FileExtension() })},
		{exact: ws("time_zone timezone tz"), h: plain(func(st *state) string { return st.f.TimeZoneRegion() })},
		{exact: ws("hex_color"), h: plain(func(st *state) string { return st.f.HexColor() })},
		{exact: ws("original_language language_code lang_code"), h: plain(pick(languageCodes))},
		{exact: ws("locale"), h: plain(func(st *state) string { return st.f.LanguageBCP() })},
		{exact: ws("last_login last_seen last_active"), fn: dateHint(false)},
		{exact: ws("loc"), h: &hint{str: pick(locParts), num: &numHint{from: 0, to: 5}}},
		{exact: ws("vote_average"), h: numbers(1, 10, 1)},
		{exact: ws("vote_count"), h: numbers(0, 20000, 0)},
		{exact: ws("popularity"), h: numbers(0, 1000, 3)},
		{exact: ws("runtime"), h: numbers(70, 200, 0)},
		{exact: ws("page_size per_page limit size"), h: numbers(10, 100, 0)},

		{last: ws("id uuid guid pk"), fn: idHint},
		{last: ws("at timestamp datetime"), fn: dateHint(false)},
		{last: ws("on"), fn: dateHint(true)},
		{last: ws("date day dob"), any: ws("birthday deathday"), fn: dateHint(true)},
		{any: ws("year"), fn: yearHint},
		{last: ws("by"), h: &hint{str: username, num: &numHint{from: 1, to: 1000}}},

		{any: ws("email mail"), h: plain(email, "email", "idn-email")},
		{any: ws("password passwd pwd passphrase"), h: plain(func(st *state) string {
			return st.f.Password(true, true, true, false, false, 12)
		}, "password")},
		{exact: ws("user login handle nickname nick screen_name user_name"), last: ws("username"), h: plain(username)},
		{any: imageWords, fn: imageHint},
		{any: ws("url uri link website homepage href site web"), h: plain(link, uriFormats...)},
		{last: ws("name"), fn: nameHint},
		{last: ws("title headline"), fn: titleHint},
		{any: ws("biography bio"), h: prose(biography)},
		{any: ws("description overview summary synopsis plot about abstract blurb details"), h: prose(description)},
		{any: ws("content body text comment review feedback reply"), fn: contentHint},
		{any: ws("message msg detail note notes caption excerpt remark reason error"), fn: messageHint},
		{any: ws("tagline slogan motto"), h: prose(func(st *state) string { return st.f.Slogan() })},
		{any: ws("quote"), h: prose(func(st *state) string { return st.f.Quote() })},
		{any: ws("city town"), h: prose(func(st *state) string { return st.f.City() })},
		{any: ws("country nationality nation"), h: &hint{str: func(st *state) string { return st.f.Country() }, text: true,
			alt: func(st *state) string { return st.f.CountryAbr() }}},
		{any: ws("state province region county"), h: prose(func(st *state) string { return st.f.State() })},
		{any: ws("street address"), h: prose(func(st *state) string { return st.f.Street() + ", " + st.f.City() })},
		{any: ws("location place origin venue"), h: prose(place)},
		{any: ws("phone mobile telephone tel fax cell"), h: plain(func(st *state) string { return st.f.PhoneFormatted() })},
		{any: ws("company studio organization organisation employer publisher distributor network brand vendor manufacturer agency"),
			h: prose(func(st *state) string { return st.f.Company() })},
		{any: ws("department"), h: plain(pick(departments))},
		{any: ws("job occupation profession position"), h: prose(func(st *state) string { return st.f.JobTitle() })},
		{any: ws("genre genres"), h: prose(func(st *state) string { return st.f.MovieGenre() })},
		{any: ws("language languages lang"), h: &hint{str: func(st *state) string { return st.f.Language() }, text: true,
			alt: pick(languageCodes)}},
		{any: ws("color colour"), h: &hint{str: func(st *state) string { return st.f.SafeColor() },
			alt: func(st *state) string { return st.f.HexColor() }}},
		{any: ws("tag tags keyword keywords label labels topic topics category categories"), h: plain(func(st *state) string { return lowerWord(st.f) })},
		{any: ws("role roles"), h: plain(pick(roles))},
		{any: ws("status"), h: plain(pick(statuses))},
		{any: ws("gender sex"), h: plain(func(st *state) string { return strings.ToLower(st.f.Gender()) })},
		{any: ws("currency"), h: plain(func(st *state) string { return st.f.CurrencyShort() })},
		{any: ws("token jwt"), h: plain(jwt)},
		{any: ws("secret key hash checksum signature nonce digest"), h: plain(hexToken)},
		{any: ws("version"), h: plain(func(st *state) string { return st.f.AppVersion() })},
		{any: ws("slug"), h: plain(func(st *state) string { return slug(st.f.MovieName()) })},
		{any: ws("code"), h: plain(func(st *state) string { return strings.ToUpper(st.f.LetterN(2)) + st.f.DigitN(3) })},
		{any: ws("host hostname domain"), h: plain(func(st *state) string { return st.f.DomainName() }, "hostname", "idn-hostname")},
		{any: ws("character author director actor writer creator owner producer composer artist person cast crew member"), h: prose(personName)},
		{any: ws("type kind"), fn: typeHint},
		{any: ws("rating certification"), h: &hint{str: pick(certifications), num: &numHint{from: 1, to: 10, dec: 1}}},

		{any: ws("age"), h: numbers(18, 90, 0)},
		{any: ws("score stars grade"), h: numbers(1, 10, 1)},
		{any: ws("price cost fee amount subtotal balance"), h: numbers(1, 500, 2)},
		{any: ws("salary income wage"), h: numbers(20000, 200000, 2)},
		{any: ws("budget revenue gross earnings"), h: numbers(100000, 300000000, 0)},
		{any: ws("percent percentage pct progress discount"), h: numbers(0, 100, 1)},
		{any: ws("ratio probability confidence share"), h: numbers(0, 1, 3)},
		{any: ws("duration minutes length"), h: numbers(70, 200, 0)},
		{any: ws("seconds secs"), h: numbers(1, 7200, 0)},
		{any: ws("ms millis milliseconds latency"), h: numbers(1, 5000, 0)},
		{any: ws("width height"), h: numbers(100, 4000, 0)},
		{any: ws("bytes filesize"), h: numbers(1024, 10000000, 0)},
		{any: ws("page"), h: numbers(1, 50, 0)},
		{any: ws("offset skip"), h: numbers(0, 1000, 0)},
		{any: ws("position rank order index priority sort"), h: numbers(1, 100, 0)},
		{any: ws("level tier"), h: numbers(1, 10, 0)},
		{any: ws("port"), h: numbers(1024, 65535, 0)},
		{any: ws("season"), h: numbers(1, 12, 0)},
		{any: ws("episode"), h: numbers(1, 24, 0)},
		{any: ws("temperature temp"), h: numbers(-20, 40, 1)},
		{any: ws("weight"), h: numbers(1, 200, 1)},
		{any: ws("likes views votes followers following friends downloads plays shares reactions subscribers comments reviews"),
			h: numbers(0, 10000, 0)},
		{any: ws("quantity qty"), h: numbers(1, 20, 0)},
		{any: ws("count total number num"), h: numbers(0, 500, 0)},
	}
}

var imageWords = ws("avatar poster image images photo photos picture pic thumbnail thumb cover logo icon banner backdrop headshot portrait img still")

var (
	departments = []string{"Acting", "Acting", "Acting", "Directing", "Writing", "Production", "Sound",
		"Camera", "Editing", "Art", "Costume & Make-Up", "Visual Effects", "Crew", "Lighting"}
	roles          = []string{"user", "user", "user", "user", "user", "critic", "critic", "moderator", "admin"}
	statuses       = []string{"active", "active", "active", "pending", "inactive", "archived"}
	verdicts       = []string{"A must-see.", "Worth a rainy Sunday.", "Skip it.", "Better on a second viewing.", "Overrated, but fun.", "The ending divides people.", "Bring tissues.", "Pure popcorn."}
	certifications = []string{"G", "PG", "PG-13", "R", "NC-17"}
	languageCodes  = []string{"en", "en", "en", "fr", "es", "de", "it", "ja", "ko", "hi", "zh", "pt", "sv"}
	reactionWords  = []string{"like", "love", "laugh", "wow", "sad", "angry"}
	reactionEmoji  = []string{"👍", "❤️", "😂", "😮", "😢", "😡"}
	ratingSources  = []string{"imdb", "rotten_tomatoes", "metacritic", "letterboxd"}
	scopes         = []string{"read", "write", "profile", "email", "admin"}
	// What FastAPI's ValidationError items say.
	locParts     = []string{"body", "body", "query", "path", "header", "title", "email", "username", "page", "limit", "rating", "content"}
	errorTypes   = []string{"missing", "missing", "string_type", "int_parsing", "string_too_short", "greater_than_equal", "value_error", "json_invalid"}
	errorMessage = []string{"Field required", "Field required", "Input should be a valid string", "Input should be a valid integer, unable to parse string as an integer",
		"String should have at least 1 character", "Input should be greater than or equal to 1", "Value error, invalid value", "JSON decode error"}
	personish = ws("person people actor actress cast crew director author user member celebrity artist writer creator profile employee customer contact staff critic")
	movieish  = ws("movie movies film films show series episode")
)

func place(st *state) string { return st.f.City() + ", " + st.f.Country() }

// personName is a full name; the object is then called by it.
func personName(st *state) string {
	n := st.f.Name()
	if st.subject == "" {
		st.subject = n
	}
	return n
}

func username(st *state) string {
	u := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_':
			return r
		case r == ' ' || r == '-':
			return '_'
		}
		return -1 // gofakeit v7.18.1 makes the odd "c++908"
	}, strings.ToLower(st.f.Username()))
	if u == "" {
		u = lowerWord(st.f)
	}
	if st.subject == "" {
		st.subject = u
	}
	return u
}

// email is made from the object's name when it has one.
func email(st *state) string {
	if st.subject != "" {
		if local := slugWith(st.subject, "."); local != "" {
			return local + "@" + st.f.DomainName()
		}
	}
	return st.f.Email()
}

func link(st *state) string {
	if st.subject != "" && st.chance(50) {
		return "https://www." + slugWith(st.subject, "") + ".com"
	}
	return st.f.URL()
}

func imdbID(st *state) string {
	return "tt" + strconv.Itoa(st.f.IntRange(100000, 9999999) + 10000000)[1:]
}

func hexToken(st *state) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 32)
	for i := range b {
		b[i] = digits[st.f.IntN(16)]
	}
	return string(b)
}

// jwt looks like an HS256 token: a fixed header, a small payload, a random
// signature. Its exp is in 2100, past any clock a run sees: a token
// answered where a client holds it to an exp in the future (the runner's
// jwt_wellformed, a token refresh) does not expire as the calendar moves,
// as one of a year's range does once that year is over.
func jwt(st *state) string {
	sub := st.subject
	if sub == "" {
		sub = strings.ToLower(st.f.Username())
	}
	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"` + slugWith(sub, "_") +
		`","exp":` + strconv.Itoa(st.f.IntRange(jwtExpFrom, jwtExpFrom+365*24*3600)) + `}`))
	sig := make([]byte, 32)
	for i := range sig {
		sig[i] = byte(st.f.IntN(256))
	}
	return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + payload + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// jwtExpFrom is 2100-01-01T00:00:00Z.
const jwtExpFrom = 4102444800

func scope(st *state) string {
	var s []string
	for _, x := range scopes {
		if st.chance(40) {
			s = append(s, x)
		}
	}
	return strings.Join(s, " ")
}

func sentence(st *state) string { return st.f.Sentence() }

func description(st *state) string {
	s := st.f.Sentence()
	if st.chance(50) {
		s += " " + st.f.Sentence()
	}
	return s
}

func reviewText(st *state) string { return st.f.Sentence() + " " + verdicts[st.f.IntN(len(verdicts))] }

// headline is a sentence without its full stop.
func headline(st *state) string { return strings.TrimRight(st.f.Sentence(), ".!?") }

func biography(st *state) string {
	dept := departments[st.f.IntN(len(departments))]
	adj := strings.ToLower(st.f.AdjectiveDescriptive())
	if strings.Contains(st.subject, " ") { // a person's name, written before
		return st.subject + " is " + article(adj) + " " + adj + " " + departmentNoun(dept) + " from " +
			st.f.Country() + ". " + st.f.Sentence()
	}
	if st.chance(50) {
		return st.f.Bio() + "."
	}
	return capitalize(adj) + " " + departmentNoun(dept) + " from " + st.f.Country() + ". " + st.f.Sentence()
}

// article is "an" before a vowel sound (roughly: a vowel letter), else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func departmentNoun(dept string) string {
	switch dept {
	case "Acting":
		return "actor"
	case "Directing":
		return "director"
	case "Writing":
		return "screenwriter"
	case "Production":
		return "producer"
	case "Sound":
		return "composer"
	case "Camera":
		return "cinematographer"
	case "Editing":
		return "film editor"
	}
	return "film-maker"
}

func idHint(w, ctx words) *hint {
	h := &hint{str: func(st *state) string { return st.f.UUID() }, formats: []string{"uuid"}, num: &numHint{from: 1, to: 10000}}
	if w.has(movieish...) || len(w.all) == 1 && ctx.has(movieish...) {
		h.str, h.formats = imdbID, nil
	}
	return h
}

// spanFor is the range of dates a name suggests, and how often such a date
// is null when it may be (a death day, a deletion: mostly not yet).
func spanFor(w words) (span, int) {
	switch {
	case w.has("birth", "born", "birthday", "dob"):
		return span{birthSpan.from, birthSpan.to, relBirth}, 0
	case w.has("death", "died", "deathday"):
		return span{deathSpan.from, deathSpan.to, relDeath}, 75
	case w.has("release", "released", "premiere", "aired", "air", "published", "publication"):
		return releaseSpan, 0
	case w.has("due", "expires", "expire", "expiry", "expiration", "deadline", "until", "end", "ends", "scheduled", "next"):
		return futureSpan, 0
	case w.has("deleted", "archived", "ended", "cancelled", "canceled", "revoked", "banned", "closed"):
		return defaultSpan, 70
	case w.has("created", "posted", "added", "registered", "joined", "inserted", "submitted", "creation"):
		return span{defaultSpan.from, defaultSpan.to, relCreated}, 0
	case w.has("updated", "modified", "edited", "changed"):
		return span{defaultSpan.from, defaultSpan.to, relUpdated}, 0
	}
	return defaultSpan, 0
}

// dateHint: dates in a range the name suggests; integers are Unix times.
func dateHint(date bool) func(w, ctx words) *hint {
	return func(w, _ words) *hint {
		sp, null := spanFor(w)
		return &hint{span: &sp, date: date, nullPct: null,
			num: &numHint{from: float64(sp.from.Unix()), to: float64(sp.to.Unix())}}
	}
}

func yearHint(w, _ words) *hint {
	sp, _ := spanFor(w)
	from, to := sp.from.Year(), sp.to.Year()
	if sp.from == defaultSpan.from {
		from = 1950 // a year alone is most often a film's
	}
	return &hint{
		str: func(st *state) string { return strconv.Itoa(st.f.IntRange(from, to)) },
		num: &numHint{from: float64(from), to: float64(to)},
	}
}

func imageHint(w, ctx words) *hint {
	folder, ext := "images", ".jpg"
	source := func(st *state) string { return lowerWord(st.f) + "-" + st.f.DigitN(4) }
	named := false // named after the record's subject (a person), when it has one
	switch {
	case w.has("avatar"):
		folder, ext, source, named = "avatars", ".png", username, true
	case w.has("headshot", "portrait", "profile") || ctx.has(personish...) && !w.has("backdrop", "cover", "still", "logo", "icon"):
		folder, source, named = "people", personName, true
	case w.has("poster", "backdrop", "cover", "still"):
		folder = "posters"
		if slices.Contains(ws("backdrop cover still"), w.last) {
			folder = w.last + "s"
		}
		source = func(st *state) string { return st.f.MovieName() }
	case w.has("logo", "icon"):
		folder, ext, source = "logos", ".png", func(st *state) string { return st.f.Company() }
	case w.has("thumbnail", "thumb"):
		folder = "thumbnails"
	}
	return &hint{formats: uriFormats, str: func(st *state) string {
		name := ""
		if named {
			name = st.subject
		}
		if name == "" {
			name = source(st)
		}
		return "https://images.example.org/" + folder + "/" + slug(name) + ext
	}}
}

func nameHint(w, ctx words) *hint {
	f := func(fn func(st *state) string) *hint { return prose(fn) }
	first := split(strings.Join(w.all[:len(w.all)-1], "_"))
	switch {
	case first.has("first", "given", "fore"):
		return f(func(st *state) string { return st.f.FirstName() })
	case first.has("last", "family", "sur"):
		return f(func(st *state) string { return st.f.LastName() })
	case first.has("user", "screen", "login", "account", "nick"):
		return plain(username)
	case first.has("full", "display", "real", "legal", "stage", "pen", "author", "director", "actor", "person", "contact", "character"):
		return f(personName)
	case first.has("company", "studio", "org", "organization", "organisation", "business", "brand", "publisher", "network"):
		return f(func(st *state) string { return st.f.Company() })
	case first.has(append(movieish, "original")...):
		return f(func(st *state) string { return st.f.MovieName() })
	case first.has("city"):
		return f(func(st *state) string { return st.f.City() })
	case first.has("country"):
		return f(func(st *state) string { return st.f.Country() })
	case first.has("file"):
		return plain(func(st *state) string { return slug(st.f.NounCommon()) + "." + st.f.FileExtension() })
	case first.has("host", "domain"):
		return plain(func(st *state) string { return st.f.DomainName() })
	case first.has("product", "item"):
		return f(func(st *state) string { return st.f.ProductName() })
	case len(first.all) > 0:
		// tag_name, genre_name…: what the other words name.
		if h := hintFor(first.full, ctx.full, kStr); h != nil {
			return h
		}
	}
	switch {
	case ctx.has(movieish...):
		return f(func(st *state) string { return st.f.MovieName() })
	case ctx.has("genre"):
		return f(func(st *state) string { return st.f.MovieGenre() })
	case ctx.has("company", "studio", "network", "organization", "organisation", "publisher", "distributor", "brand"):
		return f(func(st *state) string { return st.f.Company() })
	case ctx.has("country"):
		return f(func(st *state) string { return st.f.Country() })
	case ctx.has("city"):
		return f(func(st *state) string { return st.f.City() })
	case ctx.has("language"):
		return f(func(st *state) string { return st.f.Language() })
	case ctx.has("tag", "keyword", "category", "label", "topic"):
		return plain(func(st *state) string { return lowerWord(st.f) })
	case ctx.has("product", "item"):
		return f(func(st *state) string { return st.f.ProductName() })
	case ctx.has("department"):
		return plain(pick(departments))
	case ctx.has("role"):
		return plain(pick(roles))
	}
	return f(personName)
}

func titleHint(w, ctx words) *hint {
	all := words{all: append(slices.Clip(w.all), ctx.all...)}
	switch {
	case all.has("job", "position", "employee", "occupation"):
		return prose(func(st *state) string { return st.f.JobTitle() })
	case all.has("book", "novel"):
		return prose(func(st *state) string { return st.f.BookTitle() })
	case all.has("song", "track", "album"):
		return prose(func(st *state) string { return st.f.SongName() })
	case all.has("review", "post", "article", "comment", "blog", "news", "story", "todo", "task", "issue", "ticket", "note",
		"thread", "topic", "question", "event", "page", "headline", "list"):
		return prose(headline)
	}
	return prose(func(st *state) string { return st.f.MovieName() })
}

// messageHint: a sentence; in an error, what pydantic says.
func messageHint(w, ctx words) *hint {
	if ctx.has("error", "errors") && w.has("msg", "message") {
		return plain(func(st *state) string { return errorMessage[st.errorKind()] })
	}
	return prose(sentence)
}

// errorKind picks the kind of error an error object reports, once: its type
// and its message then agree.
func (st *state) errorKind() int {
	if st.errKind == 0 {
		st.errKind = st.f.IntN(len(errorTypes)) + 1
	}
	return st.errKind - 1
}

// typeHint: a word; in an error, pydantic's error type.
func typeHint(w, ctx words) *hint {
	if ctx.has("error", "errors") {
		return plain(func(st *state) string { return errorTypes[st.errorKind()] })
	}
	return plain(func(st *state) string { return lowerWord(st.f) })
}

// contentHint: a review's text ends with a verdict; other text is sentences.
func contentHint(w, ctx words) *hint {
	if w.has("review") || ctx.has("review", "rating", "critique") {
		return prose(reviewText)
	}
	return prose(description)
}

// boolHint: flags that are usually on (is_active, verified) or off
// (is_deleted, banned).
func boolHint(w words) *hint {
	switch {
	case w.has("deleted", "banned", "disabled", "blocked", "archived", "adult", "private", "hidden", "locked", "spoiler",
		"suspended", "expired", "flagged", "deprecated", "draft", "deceased", "dead", "error", "failed"):
		return &hint{truePct: 15}
	case w.has("active", "enabled", "verified", "published", "available", "visible", "public", "approved", "confirmed",
		"valid", "success", "ok", "released"):
		return &hint{truePct: 80}
	}
	return &hint{truePct: 50}
}

// singular is the name an array's items are called: the last word made
// singular (genres → genre, categories → category).
func singular(name string) string {
	w := split(name)
	if len(w.all) == 0 {
		return name
	}
	last := w.last
	switch {
	case strings.HasSuffix(last, "ies") && len(last) > 4:
		last = last[:len(last)-3] + "y"
	case strings.HasSuffix(last, "sses"), strings.HasSuffix(last, "shes"), strings.HasSuffix(last, "ches"),
		strings.HasSuffix(last, "xes"), strings.HasSuffix(last, "uses"):
		last = last[:len(last)-2]
	case strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && !strings.HasSuffix(last, "us") &&
		!strings.HasSuffix(last, "is") && len(last) > 2:
		last = last[:len(last)-1]
	}
	w.all[len(w.all)-1] = last
	return strings.Join(w.all, "_")
}

// dictKeys are the key lists a dict of this name takes its keys from (one
// list per dict), or nil for made-up words.
func dictKeys(name string) [][]string {
	w := split(name)
	switch {
	case w.has("reaction", "reactions", "emoji", "emojis", "emotes"):
		return [][]string{reactionWords, reactionWords, reactionEmoji}
	case w.has("rating", "ratings", "score", "scores"):
		return [][]string{ratingSources}
	case w.has("translation", "translations", "titles", "names", "localized", "localised", "i18n"):
		return [][]string{languageCodes[2:]}
	case w.has("votes", "counts", "likes"):
		return [][]string{reactionWords}
	}
	return nil
}

// countsDict reports whether a dict of this name, its values unspecified,
// counts something.
func countsDict(name string) bool {
	return split(name).has("reaction", "reactions", "emoji", "emojis", "emotes", "votes", "counts", "likes", "stats",
		"ratings", "scores", "totals")
}
