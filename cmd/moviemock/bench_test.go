package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/loadgen"
)

// BenchmarkStartup starts the built binary on its embedded data, as the
// README's first command does, and times it from exec to its first answered
// request (GET /person/1 over a fresh connection). It also reports the
// resident memory of the idle process a second after that answer:
//
//	go test ./cmd/moviemock -run '^$' -bench Startup -benchtime 20x
func BenchmarkStartup(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "moviemock")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		cmd, addr := startBinary(b, bin)
		firstAnswer(b, addr)
		total += time.Since(start)
		b.StopTimer()
		cmd.Process.Kill()
		cmd.Wait()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-answer")

	cmd, addr := startBinary(b, bin)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	firstAnswer(b, addr)
	time.Sleep(time.Second)
	b.ReportMetric(float64(rss(b, cmd.Process.Pid))/(1<<20), "idle-MiB")
}

var servingLine = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)

// startBinary runs bin serve on 127.0.0.1:0 and returns once it has said
// where it listens.
func startBinary(b *testing.B, bin string, args ...string) (*exec.Cmd, string) {
	b.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadBytes('\n')
	m := servingLine.FindSubmatch(line)
	if err != nil || m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		b.Fatalf("no address from serve: %q %v", line, err)
	}
	return cmd, string(m[1])
}

func firstAnswer(b *testing.B, addr string) { answerTo(b, addr, "/person/1", 200) }

// answerTo sends GET target to addr and wants status back.
func answerTo(b *testing.B, addr, target string, status int) {
	b.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write(loadgen.Request("GET", target, "")); err != nil {
		b.Fatal(err)
	}
	if code, err := loadgen.ReadResponse(bufio.NewReader(conn)); err != nil || code != status {
		b.Fatalf("first answer to %s: %d %v, want %d", target, code, err, status)
	}
}

// BenchmarkStartupLargeDocument is BenchmarkStartup on a document of
// about 3 MB: the public Spotify document's paths written again under as
// many prefixes as it takes (/c1/albums, /c2/albums, …), its components
// shared. A frontend developer's large vendor document is answered this
// long after serve is started.
func BenchmarkStartupLargeDocument(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "documents", "spotify", "fixed-spotify-open-api.yml"))
	if err != nil {
		b.Skip(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	big := map[string]any{}
	var out []byte
	for n := 1; len(out) < 3<<20; n++ {
		for p, item := range paths {
			// A copy of its own: each operationId must stay unique.
			text, err := json.Marshal(item)
			if err != nil {
				b.Fatal(err)
			}
			var c map[string]any
			if err := json.Unmarshal(text, &c); err != nil {
				b.Fatal(err)
			}
			for _, op := range c {
				if m, ok := op.(map[string]any); ok && m["operationId"] != nil {
					m["operationId"] = fmt.Sprintf("%v-c%d", m["operationId"], n)
				}
			}
			big[fmt.Sprintf("/c%d%s", n, p)] = c
		}
		doc["paths"] = big
		if out, err = json.Marshal(doc); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), "large.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "moviemock")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		cmd, addr := startBinary(b, bin, "--spec", path, "--quiet")
		answerTo(b, addr, "/c1/markets", 401) // secured: the first answer is its 401
		total += time.Since(start)
		b.StopTimer()
		cmd.Process.Kill()
		cmd.Wait()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(out))/(1<<20), "doc-MiB")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-answer")
}

// rss is a process's resident set size in bytes, from /proc.
func rss(b *testing.B, pid int) int64 {
	b.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Skipf("no /proc here: %v", err)
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
			if err != nil {
				b.Fatalf("VmRSS %q", v)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}
