package fastapi

import (
	"bytes"
	"mime/multipart"
	"sort"
	"strconv"
	"strings"
)

// UploadFile is a multipart part sent with a filename: Starlette keeps it
// as an UploadFile rather than a string.
type UploadFile struct {
	Filename string
	Content  []byte
	Header   [][2]string // lower-case names, latin-1 values, first value of each name

	// read: AppendInput has written the file once, which left Python's
	// file at its end.
	read bool
}

// spoolMaxSize is Starlette's MultiPartParser.spool_max_size: a file larger
// than this has rolled over from memory to a temporary file.
const spoolMaxSize = 1 << 20

// AppendInput appends the JSON FastAPI writes for an UploadFile as the
// "input" of a validation error: jsonable_encoder's fallbacks applied to
// the object, verbatim. The spooled file is first tried as dict(file),
// which reads it line by line and succeeds only if every line is two bytes
// long (a {first byte: second byte} map); otherwise vars(file) is written,
// whose "_file" is the same dict() tried on the lines left after the one
// that failed ({} when that fails too). Either way the file is then at its
// end, so the same file written again in the same answer (a form model's
// input, then its field's error) is dict() of no lines: "file":{}.
func (f *UploadFile) AppendInput(dst []byte) []byte {
	dst = append(dst, `{"filename":`...)
	dst = AppendString(dst, f.Filename)
	dst = append(dst, `,"file":`...)
	lines := pyLines(f.Content)
	if f.read {
		lines = nil
	}
	f.read = true
	if pairs, ok := linePairs(lines); ok {
		dst = appendPairs(dst, pairs)
	} else {
		rest := lines[len(pairs)+1:] // the failing line was consumed
		inner, ok := linePairs(rest)
		if !ok {
			inner = nil
		}
		dst = append(dst, `{"_file":`...)
		dst = appendPairs(dst, inner)
		if len(f.Content) > spoolMaxSize {
			dst = append(dst, `,"_max_size":1048576,"_rolled":true}`...)
		} else {
			dst = append(dst, `,"_max_size":1048576,"_rolled":false,"_TemporaryFileArgs":{"mode":"w+b","buffering":-1,"suffix":null,"prefix":null,"encoding":null,"newline":null,"dir":null,"errors":null}}`...)
		}
	}
	dst = append(dst, `,"size":`...)
	dst = strconv.AppendInt(dst, int64(len(f.Content)), 10)
	dst = append(dst, `,"headers":{`...)
	for i, kv := range f.Header {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, kv[0])
		dst = append(dst, ':')
		dst = AppendString(dst, kv[1])
	}
	return append(dst, `},"_max_mem_size":1048576}`...)
}

// pyLines splits b as iterating a Python binary file does: each line keeps
// its "\n"; the last may lack one.
func pyLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, b)
			break
		}
		lines = append(lines, b[:i+1])
		b = b[i+1:]
	}
	return lines
}

// linePairs is dict(lines): each line of length two is a key byte and a
// value byte. It stops at the first line that is not (false), returning
// the pairs before it.
func linePairs(lines [][]byte) ([][2]byte, bool) {
	pairs := make([][2]byte, 0, len(lines))
	for _, l := range lines {
		if len(l) != 2 {
			return pairs, false
		}
		pairs = append(pairs, [2]byte{l[0], l[1]})
	}
	return pairs, true
}

// appendPairs writes a Python dict built from pairs: a repeated key keeps
// its first place and its last value.
func appendPairs(dst []byte, pairs [][2]byte) []byte {
	var order []byte
	values := map[byte]byte{}
	for _, p := range pairs {
		if _, ok := values[p[0]]; !ok {
			order = append(order, p[0])
		}
		values[p[0]] = p[1]
	}
	dst = append(dst, '{')
	for i, k := range order {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(k), 10)
		dst = append(dst, `":`...)
		dst = strconv.AppendInt(dst, int64(values[k]), 10)
	}
	return append(dst, '}')
}

// rawPartHeaders is a part's headers as Starlette's Headers hold them:
// lower-case names, values read as latin-1, the first value of each name.
// Go's multipart reader keeps no order, so Content-Disposition and
// Content-Type come first, as browsers and curl send them, then the rest
// by name.
func rawPartHeaders(p *multipart.Part) [][2]string {
	names := make([]string, 0, len(p.Header))
	for name := range p.Header {
		names = append(names, strings.ToLower(name))
	}
	rank := func(n string) int {
		switch n {
		case "content-disposition":
			return 0
		case "content-type":
			return 1
		}
		return 2
	}
	sort.Slice(names, func(i, j int) bool {
		if ri, rj := rank(names[i]), rank(names[j]); ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	out := make([][2]string, len(names))
	for i, n := range names {
		out[i] = [2]string{n, safeDecode(p.Header.Get(n), "latin-1")}
	}
	return out
}
