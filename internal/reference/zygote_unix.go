//go:build unix

package reference

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

//go:embed zygote.py
var zygoteScript string

// zygote is one Python process that has imported the stack and forks an
// app per request (zygote.py): a corpus app starts in a tenth of the time
// of a fresh interpreter. It lives as long as the test process; its
// standard input closing ends it.
type zygote struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Scanner
}

var theZygote = sync.OnceValues(func() (*zygote, error) {
	p := probeResult
	cmd := exec.Command(p.python, "-c", zygoteScript)
	cmd.Env = append(appEnv(p.stack, os.TempDir()), "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the app forker: %w", err)
	}
	go cmd.Wait()
	z := &zygote{in: in, out: bufio.NewScanner(out)}
	var ready struct{ Ready bool }
	if err := z.reply(&ready); err != nil || !ready.Ready {
		return nil, fmt.Errorf("the app forker did not start: %v", err)
	}
	return z, nil
})

func (z *zygote) reply(v any) error {
	if !z.out.Scan() {
		if err := z.out.Err(); err != nil {
			return err
		}
		return io.ErrUnexpectedEOF
	}
	return json.Unmarshal(z.out.Bytes(), v)
}

// fork starts target (module:attribute) in dir with env, its output to log,
// and returns the child's pid.
func (z *zygote) fork(dir, target, log string, env []string, extra string) (int, error) {
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	req, err := json.Marshal(map[string]any{"dir": dir, "cwd": filepath.Dir(log), "target": target, "log": log, "env": vars, "path_append": extra})
	if err != nil {
		return 0, err
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if _, err := z.in.Write(append(req, '\n')); err != nil {
		return 0, fmt.Errorf("app forker: %w", err)
	}
	var r struct {
		PID   int    `json:"pid"`
		Error string `json:"error"`
	}
	if err := z.reply(&r); err != nil {
		return 0, fmt.Errorf("app forker: %w", err)
	}
	if r.Error != "" || r.PID <= 0 {
		return 0, fmt.Errorf("app forker: %s", r.Error)
	}
	return r.PID, nil
}

// startForked runs target in dir as launch does, forked from the zygote,
// with extra (if not "") at the end of its sys.path.
func startForked(t testing.TB, p probe, dir, target string, env []string, extra string) *Backend {
	t.Helper()
	z, err := theZygote()
	if err != nil {
		t.Logf("%v: starting %s with a fresh interpreter", err, target)
		return launch(t, p, dir, target, withPythonPath(env, extra))
	}
	logPath := filepath.Join(t.TempDir(), "app.log")
	started := time.Now()
	pid, err := z.fork(dir, target, logPath, env, extra)
	if err != nil {
		t.Fatal(err)
	}
	alive := func() bool { return syscall.Kill(pid, 0) == nil }
	t.Cleanup(func() {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		for i := 0; i < 100 && alive(); i++ {
			time.Sleep(20 * time.Millisecond)
		}
	})
	output := func() string {
		b, _ := os.ReadFile(logPath)
		return string(b[max(0, len(b)-256<<10):])
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+":\n%s", append(args, output())...)
	}

	deadline := time.Now().Add(startTimeout)
	var b *Backend
	client := &http.Client{
		Timeout:       2 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for {
		if b == nil {
			if m := runningRe.FindStringSubmatch(output()); m != nil {
				addr := "127.0.0.1:" + m[1]
				b = &Backend{URL: "http://" + addr, Addr: addr, log: output}
			}
		}
		if b != nil {
			// Any answer will do: an app may serve its document elsewhere
			// (openapi_url) or answer everything from a middleware.
			resp, err := client.Get(b.URL + "/openapi.json")
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				break
			}
		}
		switch {
		case !alive():
			fail("%s exited before answering", target)
		case time.Now().After(deadline):
			fail("%s did not answer within %v", target, startTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d := time.Since(started); d > 10*time.Second {
		t.Logf("%s took %v to start", target, d.Round(time.Millisecond))
	}
	return b
}
