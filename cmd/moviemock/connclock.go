package main

import (
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connClock cuts off a connection that takes longer than header to send a
// request's headers (counted from its first byte, or from the connection's
// start) or sits idle longer than idle between requests: what
// http.Server's ReadHeaderTimeout and IdleTimeout do, at a lower cost.
// Those set a read deadline, a runtime timer, two or three times a request
// (a thirtieth of a read); here a request notes the time as its phase
// changes, and one goroutine looks at every connection a few times a
// timeout. A connection is cut a tick late at most: a tenth of the shorter
// timeout, and never more than a second.
//
// A cut is a close, as an expired deadline is: the server answers nothing
// and drops the connection.
type connClock struct {
	header, idle time.Duration
	tick         time.Duration

	mu    sync.Mutex
	conns map[*clockedConn]struct{}
	stop  chan struct{}
	once  sync.Once
}

// Phases of a clocked connection.
const (
	phaseHeaders = iota // reading a request's headers: header applies
	phaseIdle           // between requests: idle applies
	phaseActive         // a request is being answered: the body limits apply
)

// clockedConn is an accepted connection whose phase the clock follows.
type clockedConn struct {
	net.Conn
	phase atomic.Int32
	since atomic.Int64 // when the phase began, Unix nanoseconds
}

// Read notes the first byte of a request after an idle spell: the
// request's headers are on the clock from then.
func (c *clockedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.phase.Load() == phaseIdle {
		c.set(phaseHeaders)
	}
	return n, err
}

func (c *clockedConn) set(phase int32) {
	c.since.Store(time.Now().UnixNano())
	c.phase.Store(phase)
}

// CloseWrite is the TCP connection's: net/http half-closes a connection
// it ends after an error answer (431), so that the client reads that
// answer rather than a reset.
func (c *clockedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil // as for a connection without it: the server closes it later
}

// ReadFrom is the TCP connection's (sendfile and splice for net/http's
// io.Copy of a file).
func (c *clockedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// SetLinger is the TCP connection's (a scenario's reset closes with RST).
func (c *clockedConn) SetLinger(sec int) error {
	if tcp, ok := c.Conn.(*net.TCPConn); ok {
		return tcp.SetLinger(sec)
	}
	return nil
}

func newConnClock(header, idle time.Duration) *connClock {
	tick := min(header, idle) / 10
	if header <= 0 || idle <= 0 {
		tick = max(header, idle) / 10
	}
	return &connClock{header: header, idle: idle, tick: min(max(tick, 10*time.Millisecond), time.Second),
		conns: map[*clockedConn]struct{}{}, stop: make(chan struct{})}
}

// apply installs the clock on srv, which serves what listener returns:
// srv's own header and idle timeouts are turned off, and its ConnState
// hook (the connection limit's) still runs.
func (k *connClock) apply(srv *http.Server, ln net.Listener) net.Listener {
	srv.ReadHeaderTimeout, srv.IdleTimeout = 0, 0
	next := srv.ConnState
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		k.state(c, st)
		if next != nil {
			next(c, st)
		}
	}
	go k.run()
	return clockListener{ln, k}
}

// Stop ends the clock's goroutine.
func (k *connClock) Stop() { k.once.Do(func() { close(k.stop) }) }

type clockListener struct {
	net.Listener
	k *connClock
}

func (l clockListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &clockedConn{Conn: c}
	cc.set(phaseHeaders)
	l.k.mu.Lock()
	l.k.conns[cc] = struct{}{}
	l.k.mu.Unlock()
	return cc, nil
}

func (k *connClock) state(c net.Conn, st http.ConnState) {
	cc, ok := c.(*clockedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		cc.phase.Store(phaseActive)
	case http.StateIdle:
		cc.set(phaseIdle)
	case http.StateHijacked, http.StateClosed:
		k.mu.Lock()
		delete(k.conns, cc)
		k.mu.Unlock()
	}
}

func (k *connClock) run() {
	t := time.NewTicker(k.tick)
	defer t.Stop()
	var late []*clockedConn
	for {
		select {
		case <-k.stop:
			return
		case now := <-t.C:
			late = k.late(now.UnixNano(), late[:0])
			for _, c := range late {
				c.Conn.Close()
			}
		}
	}
}

// late appends to out the connections past their phase's timeout at now.
func (k *connClock) late(now int64, out []*clockedConn) []*clockedConn {
	k.mu.Lock()
	defer k.mu.Unlock()
	for c := range k.conns {
		var limit time.Duration
		switch c.phase.Load() {
		case phaseHeaders:
			limit = k.header
		case phaseIdle:
			limit = k.idle
		}
		if limit > 0 && now-c.since.Load() > int64(limit) {
			out = append(out, c)
		}
	}
	return out
}
