package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

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
func startBinary(b *testing.B, bin string) (*exec.Cmd, string) {
	b.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
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

func firstAnswer(b *testing.B, addr string) {
	b.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write(loadgen.Request("GET", "/person/1", "")); err != nil {
		b.Fatal(err)
	}
	if code, err := loadgen.ReadResponse(bufio.NewReader(conn)); err != nil || code != 200 {
		b.Fatalf("first answer: %d %v", code, err)
	}
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
