package model

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/spec"
)

// The expectations below are read off testdata/contracts/{movies,tasks}/
// openapi.json, not off what Compile produces. Where the model applies a
// convention rather than something the document states, a comment says so.

// wantColl is what the model should understand of one collection.
type wantColl struct {
	name, title, file, singular string
	id                          IDKind
	secret                      string
	// fields in the schema's property order, each written
	// "name:type[@format][!|?][=default]": ! required, ? nullable (anyOf
	// with null), =default the JSON the field defaults to. A nullable field
	// without a declared default defaults to null (convention); any other
	// field without one has no default.
	fields []string
}

// wantRel is one field with a relation. Every field of every collection not
// listed must have none.
type wantRel struct {
	coll, field   string
	embed, join   string // Field.Embed (collection) and Field.Join (field)
	refers, owner string // Field.Refers (collection); owner "owner" when Field.Owner
}

// wantOp is what the model should understand of one operation.
type wantOp struct {
	method, path, id string
	kind             Kind
	coll             string
	idParam          string
	parentParam      string
	parent           string
	status           int
	shape            Shape
	filters          []string
	paging           Paging
	secured          bool
	example          string // the declared success example, compact; "" none
}

type wantContract struct {
	colls []wantColl
	login string
	rels  []wantRel
	ops   []wantOp
}

// reporter is what check needs of a *testing.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

var skipLimit = Paging{Skip: "skip", Limit: "limit"}

// moviesWant: testdata/contracts/movies/openapi.json.
func moviesWant() wantContract {
	return wantContract{
		// Collections are the schemas with an id that an operation returns
		// (Person, User, Movie, Review, Reaction), in the order
		// components.schemas writes them (alphabetical here, as FastAPI
		// sorts them). Token (no id), the request bodies and the error
		// schemas are not collections. File names are the snake_case
		// plural (convention), singulars the snake_case name.
		colls: []wantColl{
			{name: "Movie", title: "Movie", file: "movies", singular: "movie", id: StrID, fields: []string{
				// id is a string without a format (IMDb-style "tt0137523"): StrID.
				"id:string!", "title:string!", "original_title:string?", "year:integer!",
				"genres:array=[]", `original_language:string="en"`, "overview:string?",
				"runtime:integer?", "poster:string?",
				"created_at:string@date-time!", "updated_at:string@date-time!",
			}},
			{name: "Person", title: "Person", file: "persons", singular: "person", id: IntID, fields: []string{
				"id:integer!", "name:string!", "biography:string?", "poster:string?",
				"birthday:string@date?", "deathday:string@date?", "place_of_birth:string?",
				"known_for_department:string?", "known_for:array=[]",
			}},
			{name: "Reaction", title: "Reaction", file: "reactions", singular: "reaction", id: IntID, fields: []string{
				"id:integer!", "review_id:string!", "user_id:integer!", "emoji:string!",
				"created_at:string@date-time!",
			}},
			{name: "Review", title: "Review", file: "reviews", singular: "review", id: StrID, fields: []string{
				"id:string!", "movie_id:string!", "author_id:integer!", "content:string!",
				"author:object!", // a $ref to User (with a description beside it)
				"created_at:string@date-time!", "updated_at:string@date-time!",
				"reactions:object!",
			}},
			// User is the login collection: the only collection with a
			// username. Its records carry a password (convention: the
			// Secret), which UserCreate takes and User never serves.
			{name: "User", title: "User", file: "users", singular: "user", id: IntID, secret: "password", fields: []string{
				"id:integer!", "username:string!", "avatar:string?", `role:string="user"`,
			}},
		},
		login: "User",
		rels: []wantRel{
			// movie_id names the collection whose singular is "movie".
			{coll: "Review", field: "movie_id", refers: "Movie"},
			// author embeds a User, joined by its sibling author_id, which
			// therefore refers to User; author_id is an owner field
			// (convention: a create fills it from the token's user).
			{coll: "Review", field: "author_id", refers: "User", owner: "owner"},
			{coll: "Review", field: "author", embed: "User", join: "author_id"},
			{coll: "Reaction", field: "review_id", refers: "Review"},
			// user_id refers to User by its singular, and is an owner field.
			{coll: "Reaction", field: "user_id", refers: "User", owner: "owner"},
		},
		// In path order as written, then GET, PUT, POST, DELETE, …, PATCH
		// (so a path's DELETE comes before its PATCH). Every write but
		// registration declares security: [{OAuth2PasswordBearer: []}], as
		// does GET /users/me; the document has no top-level security.
		ops: []wantOp{
			{method: "GET", path: "/person/{person_id}", id: "getPerson", kind: ReadOne, coll: "Person", idParam: "person_id", status: 200, shape: OneShape},
			// The x-www-form-urlencoded body (Body_login) has username and
			// password: the OAuth2 password form, checked against the login
			// collection. Its response, Token, is no collection, yet Shape
			// is OneShape: itemsOf says OneShape for any $ref.
			{method: "POST", path: "/auth/login", id: "login", kind: Login, coll: "User", status: 200, shape: OneShape},
			{method: "POST", path: "/users", id: "registerUser", kind: Create, coll: "User", status: 201, shape: OneShape},
			// A secured GET with no parameters answering the login
			// collection: the token's user (convention).
			{method: "GET", path: "/users/me", id: "readCurrentUser", kind: CurrentUser, coll: "User", status: 200, shape: OneShape, secured: true},
			// year and original_language name Movie fields: filters; skip
			// and limit page.
			{method: "GET", path: "/movies", id: "listMovies", kind: List, coll: "Movie", status: 200, shape: ArrayShape, filters: []string{"year", "original_language"}, paging: skipLimit},
			{method: "POST", path: "/movies", id: "createMovie", kind: Create, coll: "Movie", status: 201, shape: OneShape, secured: true},
			{method: "GET", path: "/movies/{movie_id}", id: "getMovie", kind: ReadOne, coll: "Movie", idParam: "movie_id", status: 200, shape: OneShape},
			// 204 without content: no response schema, no shape. Its
			// collection is the one the same path's GET reads.
			{method: "DELETE", path: "/movies/{movie_id}", id: "deleteMovie", kind: Delete, coll: "Movie", idParam: "movie_id", status: 204, secured: true},
			{method: "PATCH", path: "/movies/{movie_id}", id: "updateMovie", kind: Update, coll: "Movie", idParam: "movie_id", status: 200, shape: OneShape, secured: true},
			// The path parameter movie_id is also Review's field: it filters
			// the list and refers to Movie. No query parameters, no paging.
			{method: "GET", path: "/movies/{movie_id}/reviews", id: "listMovieReviews", kind: NestedList, coll: "Review", parentParam: "movie_id", parent: "Movie", status: 200, shape: ArrayShape},
			{method: "GET", path: "/reviews", id: "listReviews", kind: List, coll: "Review", status: 200, shape: ArrayShape, filters: []string{"movie_id", "author_id"}, paging: skipLimit},
			{method: "POST", path: "/reviews", id: "createReview", kind: Create, coll: "Review", status: 201, shape: OneShape, secured: true},
			{method: "GET", path: "/reviews/{review_id}", id: "getReview", kind: ReadOne, coll: "Review", idParam: "review_id", status: 200, shape: OneShape},
			{method: "PUT", path: "/reviews/{review_id}", id: "replaceReview", kind: Replace, coll: "Review", idParam: "review_id", status: 200, shape: OneShape, secured: true},
			{method: "DELETE", path: "/reviews/{review_id}", id: "deleteReview", kind: Delete, coll: "Review", idParam: "review_id", status: 204, secured: true},
			{method: "PATCH", path: "/reviews/{review_id}", id: "updateReview", kind: Update, coll: "Review", idParam: "review_id", status: 200, shape: OneShape, secured: true},
			{method: "GET", path: "/reviews/{review_id}/reactions", id: "listReactions", kind: NestedList, coll: "Reaction", parentParam: "review_id", parent: "Review", status: 200, shape: ArrayShape},
			{method: "POST", path: "/reviews/{review_id}/reactions", id: "createReaction", kind: NestedCreate, coll: "Reaction", parentParam: "review_id", parent: "Review", status: 201, shape: OneShape, secured: true},
		},
	}
}

// tasksWant: testdata/contracts/tasks/openapi.json.
func tasksWant() wantContract {
	return wantContract{
		// Project is returned as the items of Page_Project_ (itself no
		// collection: no id), Task by itself and in lists. Stats and Health
		// have no id. Both ids are strings in format uuid: UUIDID.
		colls: []wantColl{
			{name: "Project", title: "Project", file: "projects", singular: "project", id: UUIDID, fields: []string{
				"id:string@uuid!", "name:string!", "description:string?", `color:string="#64748b"`,
				"archived:boolean=false", "created_at:string@date-time!", "updated_at:string@date-time!",
			}},
			{name: "Task", title: "Task", file: "tasks", singular: "task", id: UUIDID, fields: []string{
				"id:string@uuid!", "project_id:string@uuid!", "title:string!", "description:string?",
				// {"$ref": Priority, "default": "medium"}: the enum's type, and
				// the default written beside the $ref.
				`priority:string="medium"`,
				"done:boolean=false", "due_date:string@date?", "tags:array=[]",
				"created_at:string@date-time!", "updated_at:string@date-time!",
			}},
		},
		// No schema has a username: no login collection, no Secret.
		login: "",
		rels: []wantRel{
			{coll: "Task", field: "project_id", refers: "Project"},
		},
		// No securitySchemes, no security: nothing is Secured.
		ops: []wantOp{
			// Page_Project_ has items (an array of Project) and no id: a
			// page. archived is a Project field: a filter; page/size page.
			{method: "GET", path: "/projects", id: "list_projects_projects_get", kind: List, coll: "Project", status: 200, shape: PageShape, filters: []string{"archived"}, paging: Paging{Page: "page", Size: "size", FirstPage: 1}},
			{method: "POST", path: "/projects", id: "create_project_projects_post", kind: Create, coll: "Project", status: 201, shape: OneShape},
			{method: "GET", path: "/projects/{project_id}", id: "get_project_projects__project_id__get", kind: ReadOne, coll: "Project", idParam: "project_id", status: 200, shape: OneShape},
			{method: "PUT", path: "/projects/{project_id}", id: "replace_project_projects__project_id__put", kind: Replace, coll: "Project", idParam: "project_id", status: 200, shape: OneShape},
			{method: "DELETE", path: "/projects/{project_id}", id: "delete_project_projects__project_id__delete", kind: Delete, coll: "Project", idParam: "project_id", status: 204},
			{method: "PATCH", path: "/projects/{project_id}", id: "update_project_projects__project_id__patch", kind: Update, coll: "Project", idParam: "project_id", status: 200, shape: OneShape},
			{method: "GET", path: "/projects/{project_id}/tasks", id: "list_project_tasks_projects__project_id__tasks_get", kind: NestedList, coll: "Task", parentParam: "project_id", parent: "Project", status: 200, shape: ArrayShape},
			// TaskCreate has no project_id: the path parameter fills it.
			{method: "POST", path: "/projects/{project_id}/tasks", id: "create_project_task_projects__project_id__tasks_post", kind: NestedCreate, coll: "Task", parentParam: "project_id", parent: "Project", status: 201, shape: OneShape},
			// project_id, priority and done are Task fields; offset/limit page
			// a bare list.
			{method: "GET", path: "/tasks", id: "list_tasks_tasks_get", kind: List, coll: "Task", status: 200, shape: ArrayShape, filters: []string{"project_id", "priority", "done"}, paging: Paging{Skip: "offset", Limit: "limit"}},
			{method: "GET", path: "/tasks/{task_id}", id: "get_task_tasks__task_id__get", kind: ReadOne, coll: "Task", idParam: "task_id", status: 200, shape: OneShape},
			{method: "PUT", path: "/tasks/{task_id}", id: "replace_task_tasks__task_id__put", kind: Replace, coll: "Task", idParam: "task_id", status: 200, shape: OneShape},
			{method: "DELETE", path: "/tasks/{task_id}", id: "delete_task_tasks__task_id__delete", kind: Delete, coll: "Task", idParam: "task_id", status: 204},
			{method: "PATCH", path: "/tasks/{task_id}", id: "update_task_tasks__task_id__patch", kind: Update, coll: "Task", idParam: "task_id", status: 200, shape: OneShape},
			// No convention: Stats is no collection. Its 200 declares an
			// example, answered as written (members in document order).
			// Shape is OneShape because the response is a $ref (see login).
			{method: "GET", path: "/stats", id: "get_stats_stats_get", kind: Example, status: 200, shape: OneShape,
				example: `{"projects":12,"tasks":40,"done":14,"by_priority":{"low":10,"medium":14,"high":11,"urgent":5}}`},
			// No convention and no example: a generated body.
			{method: "GET", path: "/health", id: "health_health_get", kind: Example, status: 200, shape: OneShape},
		},
	}
}

func TestGrownContracts(t *testing.T) {
	t.Run("movies", func(t *testing.T) {
		m := compileFile(t, "../../testdata/contracts/movies/openapi.json")
		checkContract(t, m, moviesWant())
		checkMoviesExtras(t, m)
	})
	t.Run("tasks", func(t *testing.T) {
		m := compileFile(t, "../../testdata/contracts/tasks/openapi.json")
		checkContract(t, m, tasksWant())
		if rec := m.Collection("Project").Record; rec != m.Collection("Project").Schema {
			t.Errorf("Project.Record is a copy of its schema; want the schema itself (no embeds, no secret)")
		}
	})
	t.Run("movies derived", func(t *testing.T) {
		root := decodeDoc(t, "../../testdata/contracts/movies/openapi.json")
		// Movie gains an optional, nullable tagline after title.
		props := mapping(t, root, "components", "schemas", "Movie", "properties")
		var tagline yaml.Node
		if err := yaml.Unmarshal([]byte(`{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Tagline"}`), &tagline); err != nil {
			t.Fatal(err)
		}
		at := keyIndex(t, props, "title") + 2
		props.Content = slices.Insert(props.Content, at, &yaml.Node{Kind: yaml.ScalarNode, Value: "tagline"}, tagline.Content[0])
		// PUT /reviews/{review_id} goes.
		item := mapping(t, root, "paths", "/reviews/{review_id}")
		put := keyIndex(t, item, "put")
		item.Content = slices.Delete(item.Content, put, put+2)

		data, err := spec.NodeJSON(root)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := spec.Load(data, "movies-derived.json")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Compile(sp)
		if err != nil {
			t.Fatal(err)
		}
		want := moviesWant()
		for i := range want.colls {
			if c := &want.colls[i]; c.name == "Movie" {
				// Not in required, nullable: defaults to null.
				c.fields = slices.Insert(c.fields, 2, "tagline:string?")
			}
		}
		want.ops = slices.DeleteFunc(want.ops, func(o wantOp) bool { return o.id == "replaceReview" })
		checkContract(t, m, want)
		if o := m.Operation("replaceReview"); o != nil {
			t.Errorf("replaceReview is still compiled: %v", o)
		}
		if f := m.Collection("Movie").Field("tagline"); f == nil || f.Index != 2 || f.Required || !f.Nullable {
			t.Errorf("Movie.tagline = %+v; want field 2, optional, nullable", f)
		}
	})
}

// checkMoviesExtras checks what the movies contract shows beyond the tables:
// the fixture record schemas and the lookups by name.
func checkMoviesExtras(t *testing.T, m *Model) {
	t.Helper()
	// The login collection's records must carry a password string, which the
	// served schema does not have.
	user := m.Collection("User")
	if user.Record.Properties["password"] == nil || !slices.Contains(user.Record.Required, "password") {
		t.Errorf("User.Record: properties %v, required %v; want a required password", keys(user.Record.Properties), user.Record.Required)
	}
	if user.Schema.Properties["password"] != nil || slices.Contains(user.Schema.Required, "password") {
		t.Errorf("User.Schema gained a password: the served schema must not")
	}
	// Review requires author, but a fixture record need not write it: it is
	// joined from author_id (convention).
	review := m.Collection("Review")
	if !slices.Contains(review.Schema.Required, "author") {
		t.Errorf("Review.Schema.Required = %v; want author", review.Schema.Required)
	}
	if want := []string{"id", "movie_id", "author_id", "content", "created_at", "updated_at", "reactions"}; !sameSet(review.Record.Required, want) {
		t.Errorf("Review.Record.Required = %v; want %v", review.Record.Required, want)
	}
	// Movie has no embeds and is not the login collection: its record
	// schema is its schema.
	if movie := m.Collection("Movie"); movie.Record != movie.Schema {
		t.Errorf("Movie.Record is a copy of its schema; want the schema itself")
	}
	for _, name := range []string{"Review", "reviews", "review"} {
		if got := m.Lookup(name); got != review {
			t.Errorf("Lookup(%q) = %v; want Review", name, got)
		}
	}
	if got := m.Lookup("Token"); got != nil {
		t.Errorf("Lookup(Token) = %v; want none: Token has no id", got)
	}
}

func checkContract(t reporter, m *Model, want wantContract) {
	t.Helper()
	// Collections.
	var names []string
	for _, c := range m.Collections {
		names = append(names, c.Name)
	}
	var wantNames []string
	for _, wc := range want.colls {
		wantNames = append(wantNames, wc.name)
	}
	if !slices.Equal(names, wantNames) {
		t.Errorf("collections = %v; want %v", names, wantNames)
	}
	for i, wc := range want.colls {
		c := m.Collection(wc.name)
		if c == nil {
			continue
		}
		if c.Index != i || c.Title != wc.title || c.File != wc.file || c.Singular != wc.singular || c.IDKind != wc.id || c.Secret != wc.secret {
			t.Errorf("%s: index %d title %q file %q singular %q id kind %d secret %q; want %d %q %q %q %d %q",
				wc.name, c.Index, c.Title, c.File, c.Singular, c.IDKind, c.Secret, i, wc.title, wc.file, wc.singular, wc.id, wc.secret)
		}
		if m.ByFile(wc.file) != c {
			t.Errorf("ByFile(%q) = %v; want %s", wc.file, m.ByFile(wc.file), wc.name)
		}
		if c.ID == nil || c.ID != c.Field("id") {
			t.Errorf("%s.ID = %v; want its id field", wc.name, c.ID)
		}
		var fieldNames, wantFields []string
		for _, f := range c.Fields {
			fieldNames = append(fieldNames, f.Name)
		}
		for _, s := range wc.fields {
			wantFields = append(wantFields, parseField(s).name)
		}
		if !slices.Equal(fieldNames, wantFields) {
			t.Errorf("%s fields = %v; want %v", wc.name, fieldNames, wantFields)
			continue
		}
		for j, s := range wc.fields {
			w, f := parseField(s), c.Fields[j]
			var def string
			if f.Default != nil {
				def = string(f.Default)
			}
			if f.Index != j || f.Type != w.typ || f.Format != w.format || f.Required != w.required || f.Nullable != w.nullable || def != w.def || (f.Default == nil) != (w.def == "") {
				t.Errorf("%s.%s: index %d type %q format %q required %v nullable %v default %q; want %d %q %q %v %v %q",
					wc.name, f.Name, f.Index, f.Type, f.Format, f.Required, f.Nullable, def, j, w.typ, w.format, w.required, w.nullable, w.def)
			}
			wantStamp := map[string]string{"created_at": "created", "updated_at": "updated"}[f.Name]
			if f.Stamp != wantStamp {
				t.Errorf("%s.%s: stamp %q; want %q", wc.name, f.Name, f.Stamp, wantStamp)
			}
		}
	}
	if got := collName(m.Login); got != want.login {
		t.Errorf("login collection = %q; want %q", got, want.login)
	}

	// Relations: exactly the listed fields have one.
	listed := map[string]wantRel{}
	for _, r := range want.rels {
		listed[r.coll+"."+r.field] = r
	}
	for _, c := range m.Collections {
		for _, f := range c.Fields {
			key := c.Name + "." + f.Name
			w, ok := listed[key]
			delete(listed, key)
			var owner string
			if f.Owner {
				owner = "owner"
			}
			var join string
			if f.Join != nil {
				join = f.Join.Name
				if c.Field(join) != f.Join {
					t.Errorf("%s: Join is not %s's own field %s", key, c.Name, join)
				}
			}
			got := wantRel{coll: c.Name, field: f.Name, embed: collName(f.Embed), join: join, refers: collName(f.Refers), owner: owner}
			if !ok {
				w = wantRel{coll: c.Name, field: f.Name}
			}
			if got != w {
				t.Errorf("%s relation = %+v; want %+v", key, got, w)
			}
		}
	}
	for key := range listed {
		t.Errorf("%s: no such field to relate", key)
	}

	// Operations, in order.
	if len(m.Operations) != len(want.ops) {
		var got []string
		for _, o := range m.Operations {
			got = append(got, o.String())
		}
		t.Errorf("%d operations %v; want %d", len(got), got, len(want.ops))
	}
	for i, w := range want.ops {
		if i >= len(m.Operations) {
			break
		}
		o := m.Operations[i]
		label := fmt.Sprintf("operation %d (%s %s)", i, w.method, w.path)
		if o.Method != w.method || o.Path != w.path || o.ID != w.id {
			t.Errorf("%s: is %s %s %q; want id %q", label, o.Method, o.Path, o.ID, w.id)
			continue
		}
		if m.Operation(w.id) != o {
			t.Errorf("%s: Operation(%q) finds another", label, w.id)
		}
		got := fmt.Sprintf("kind=%v coll=%s id=%q parent=%q→%s status=%d shape=%d filters=%q paging=%+v secured=%v",
			o.Kind, collName(o.Coll), o.IDParam, o.ParentParam, collName(o.Parent), o.Status, o.Shape, o.Filters, o.Paging, o.Secured)
		exp := fmt.Sprintf("kind=%v coll=%s id=%q parent=%q→%s status=%d shape=%d filters=%q paging=%+v secured=%v",
			w.kind, w.coll, w.idParam, w.parentParam, w.parent, w.status, w.shape, w.filters, w.paging, w.secured)
		if got != exp {
			t.Errorf("%s:\n got  %s\n want %s", label, got, exp)
		}
		if (o.Kind == Example) != (o.Why != "") {
			t.Errorf("%s: kind %v with why %q; want a reason exactly when no convention fits", label, o.Kind, o.Why)
		}
		if string(o.Example) != w.example {
			t.Errorf("%s: example %s; want %s", label, o.Example, w.example)
		}
		// A 2xx with content has a response schema; 204 has none.
		if hasBody := o.Status != 204; (o.Response != nil) != hasBody {
			t.Errorf("%s: response schema %v with status %d", label, o.Response, o.Status)
		}
	}
}

type fieldSpec struct {
	name, typ, format  string
	required, nullable bool
	def                string
}

// parseField reads "name:type[@format][!|?][=default]".
func parseField(s string) fieldSpec {
	var f fieldSpec
	s, f.def, _ = strings.Cut(s, "=")
	if t, ok := strings.CutSuffix(s, "!"); ok {
		s, f.required = t, true
	} else if t, ok := strings.CutSuffix(s, "?"); ok {
		s, f.nullable = t, true
		if f.def == "" {
			f.def = "null"
		}
	}
	s, f.format, _ = strings.Cut(s, "@")
	f.name, f.typ, _ = strings.Cut(s, ":")
	return f
}

func collName(c *Collection) string {
	if c == nil {
		return ""
	}
	return c.Name
}

func compileFile(t *testing.T, path string) *Model {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// decodeDoc decodes a JSON document into a YAML node tree, which keeps the
// members in their written order (the model reads property and path order
// from it; a map[string]any would sort them).
func decodeDoc(t *testing.T, path string) *yaml.Node {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	return &root
}

// mapping is the mapping node at path under the document root.
func mapping(t *testing.T, root *yaml.Node, path ...string) *yaml.Node {
	t.Helper()
	n := root.Content[0]
	for _, key := range path {
		i := keyIndex(t, n, key)
		n = n.Content[i+1]
	}
	if n.Kind != yaml.MappingNode {
		t.Fatalf("%v is not a mapping", path)
	}
	return n
}

// keyIndex is the index in n.Content of key's key node.
func keyIndex(t *testing.T, n *yaml.Node, key string) int {
	t.Helper()
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return i
		}
	}
	t.Fatalf("no member %q", key)
	return -1
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
