package mock

import (
	"crypto/subtle"
	"net/http"
	"sync"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
)

// The endpoints. Each gets inputs the contract already validated; what is
// left is the application's own logic, and its HTTPExceptions.

// bufPool holds response buffers, so a request allocates none.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

func writePooled(w http.ResponseWriter, status int, render func([]byte) []byte) {
	bp := bufPool.Get().(*[]byte)
	body := render((*bp)[:0])
	fastapi.WriteJSON(w, status, body)
	if cap(body) <= 64<<10 {
		*bp = body
		bufPool.Put(bp)
	}
}

func (s *Server) getPerson(w http.ResponseWriter, r *http.Request, args argList) {
	id := args.get("person_id").Int
	// An id pydantic accepts but no record can have (beyond int64) is simply
	// not found, as in the backend.
	p, ok := s.data().Person(id.Int64)
	if !id.Fits || !ok {
		fastapi.WriteDetail(w, http.StatusNotFound, detailPersonNotFound)
		return
	}
	writePooled(w, http.StatusOK, func(b []byte) []byte { return fixtures.AppendPerson(b, p) })
}

func (s *Server) getReview(w http.ResponseWriter, r *http.Request, args argList) {
	data := s.data()
	rev, ok := data.Review(args.get("review_id").Str)
	if !ok {
		fastapi.WriteDetail(w, http.StatusNotFound, detailReviewNotFound)
		return
	}
	writePooled(w, http.StatusOK, func(b []byte) []byte { return data.AppendReview(b, rev) })
}

// listCacheLimit is the largest GET /reviews body kept rendered in memory;
// larger lists are streamed.
const listCacheLimit = 4 << 20

// streamChunk is how much of a streamed list is rendered before it is
// written out.
const streamChunk = 64 << 10

// listReviews returns every review in data set order. A small list is
// rendered once and served from memory with a Content-Length; a large one is
// rendered chunk by chunk as it is written (chunked transfer encoding), so
// no second copy of the data set is ever held.
func (s *Server) listReviews(w http.ResponseWriter, r *http.Request, args argList) {
	v := s.view.Load()
	v.listOnce.Do(func() { v.listBody = renderList(v.data, listCacheLimit) })
	if v.listBody != nil {
		fastapi.WriteJSON(w, http.StatusOK, v.listBody)
		return
	}
	data := v.data
	w.Header()["Content-Type"] = []string{"application/json"}
	w.WriteHeader(http.StatusOK)
	bp := bufPool.Get().(*[]byte)
	buf := append((*bp)[:0], '[')
	for i := range data.Reviews() {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = data.AppendReview(buf, &data.Reviews()[i])
		if len(buf) >= streamChunk {
			if _, err := w.Write(buf); err != nil {
				return // the client went away
			}
			buf = buf[:0]
		}
	}
	w.Write(append(buf, ']'))
}

// renderList renders the whole review list, or returns nil once it grows
// past limit.
func renderList(d *fixtures.Dataset, limit int) []byte {
	body := []byte{'['}
	for i := range d.Reviews() {
		if i > 0 {
			body = append(body, ',')
		}
		body = d.AppendReview(body, &d.Reviews()[i])
		if len(body) > limit {
			return nil
		}
	}
	return append(body, ']')
}

// login is FastAPI's OAuth2 password flow: the form is already validated
// (username, password present; grant_type "password" or absent), so what is
// left is checking the credentials and issuing a JWT.
func (s *Server) login(w http.ResponseWriter, r *http.Request, args argList) {
	username, password := args.get("username").Str, args.get("password").Str
	u, ok := s.data().UserByName(username)
	if !ok || subtle.ConstantTimeCompare([]byte(u.Password), []byte(password)) != 1 {
		w.Header().Set("WWW-Authenticate", "Bearer")
		fastapi.WriteDetail(w, http.StatusUnauthorized, fastapi.DetailWrongLogin)
		return
	}
	token, err := s.tokens.issue(u.Username)
	if err != nil {
		panic(err) // HS256 with a []byte key cannot fail; if it does, FastAPI's 500
	}
	body := make([]byte, 0, len(token)+48)
	body = append(body, `{"access_token":`...)
	body = fastapi.AppendString(body, token)
	body = append(body, `,"token_type":"bearer"}`...)
	fastapi.WriteJSON(w, http.StatusOK, body)
}
