// Package loadgen is a small HTTP/1.1 load generator in the manner of wrk:
// a fixed number of keep-alive connections, each sending one prepared
// request back to back and reading every answer in full. It is cheap on
// the client side (no net/http client, no allocation per request), so that
// a benchmark running it beside a server on the same cores measures the
// server. moviemock's throughput benchmarks and its many-connections test
// use it.
package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httputil"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Request builds the raw bytes of an HTTP/1.1 request to send again and
// again. Headers are "Name: value" lines.
func Request(method, target string, body string, headers ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: moviemock-loadgen\r\nAccept: */*\r\n", method, target)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if body != "" || method == "POST" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n" + body)
	return b.Bytes()
}

// Options say how hard to drive a server.
type Options struct {
	Conns    int           // connections opened at once, each used for all its requests
	Requests int64         // answers to read in all, over every connection
	Status   int           // the status every answer must have; 0: any
	Timeout  time.Duration // per answer; 0: 10 s
}

// Result is what a run saw.
type Result struct {
	Answers  int64         // answers read in full with the expected status
	Errors   int64         // answers missing, cut off, malformed or with another status
	Elapsed  time.Duration // from the first connection to the last answer
	FirstErr error         // the first error, to name what went wrong
}

// Add adds the answers, errors and time of another run to r.
func (r *Result) Add(o Result) {
	r.Answers += o.Answers
	r.Errors += o.Errors
	r.Elapsed += o.Elapsed
	if r.FirstErr == nil {
		r.FirstErr = o.FirstErr
	}
}

// PerSecond is the rate of good answers.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Answers) / r.Elapsed.Seconds()
}

// Run connects opts.Conns connections to addr and sends req over them until
// opts.Requests answers are read. A connection that fails is counted and
// reopened. Every connection is opened before the first request is sent,
// so all of them are held at once.
func Run(ctx context.Context, addr string, req []byte, opts Options) (Result, error) {
	if opts.Conns <= 0 || opts.Requests <= 0 {
		return Result{}, errors.New("loadgen: need at least one connection and one request")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	var (
		left    atomic.Int64
		good    atomic.Int64
		bad     atomic.Int64
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	left.Store(opts.Requests)
	fail := func(err error) {
		bad.Add(1)
		errOnce.Do(func() { first = err })
	}
	var d net.Dialer
	conns := make([]net.Conn, opts.Conns)
	for i := range conns {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			for _, c := range conns[:i] {
				c.Close()
			}
			return Result{}, fmt.Errorf("loadgen: connection %d of %d: %w", i+1, opts.Conns, err)
		}
		conns[i] = c
	}
	start := time.Now()
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{conn: c, br: bufio.NewReaderSize(c, 64<<10)}
			defer func() { w.conn.Close() }()
			for left.Add(-1) >= 0 && ctx.Err() == nil {
				if err := w.do(req, opts); err != nil {
					fail(err)
					if err := w.redial(ctx, &d, addr); err != nil {
						fail(err)
						return
					}
					continue
				}
				good.Add(1)
			}
		}()
	}
	wg.Wait()
	return Result{Answers: good.Load(), Errors: bad.Load(), Elapsed: time.Since(start), FirstErr: first}, ctx.Err()
}

type worker struct {
	conn net.Conn
	br   *bufio.Reader
}

func (w *worker) redial(ctx context.Context, d *net.Dialer, addr string) error {
	w.conn.Close()
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	w.conn = c
	w.br.Reset(c)
	return nil
}

// do sends req and reads its answer in full.
func (w *worker) do(req []byte, opts Options) error {
	w.conn.SetDeadline(time.Now().Add(opts.Timeout))
	if _, err := w.conn.Write(req); err != nil {
		return err
	}
	code, err := ReadResponse(w.br)
	if err != nil {
		return err
	}
	if opts.Status != 0 && code != opts.Status {
		return fmt.Errorf("status %d, want %d", code, opts.Status)
	}
	return nil
}

// ReadResponse reads one HTTP/1.1 answer from br, its body included
// (Content-Length, chunked, or up to the end of a closing connection), and
// returns its status code.
func ReadResponse(br *bufio.Reader) (int, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, fmt.Errorf("status line: %w", err)
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, fmt.Errorf("status line %q", line)
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("status line %q", line)
	}
	length, chunked, closing := int64(-1), false, false
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return 0, fmt.Errorf("header: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, fmt.Errorf("header line %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.ParseInt(string(value), 10, 64); err != nil || length < 0 {
				return 0, fmt.Errorf("Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		if _, err := io.Copy(io.Discard, httputil.NewChunkedReader(br)); err != nil {
			return 0, fmt.Errorf("chunked body: %w", err)
		}
		// The trailer section ends with an empty line.
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return 0, fmt.Errorf("trailer: %w", err)
			}
			if len(bytes.TrimRight(line, "\r\n")) == 0 {
				break
			}
		}
	case length > 0:
		if _, err := br.Discard(int(length)); err != nil {
			return 0, fmt.Errorf("body: %w", err)
		}
	case length < 0 && closing:
		// The body runs to the end of the connection.
		if _, err := io.Copy(io.Discard, br); err != nil {
			return 0, fmt.Errorf("body: %w", err)
		}
	case length < 0 && code >= 200 && code != 204 && code != 304:
		return 0, errors.New("no Content-Length on a keep-alive answer")
	}
	return code, nil
}
