//go:build !unix

package reference

import "testing"

// startForked starts target with a fresh interpreter: forking is for unix.
func startForked(t testing.TB, p probe, dir, target string, env []string, extra string) *Backend {
	t.Helper()
	return launch(t, p, dir, target, withPythonPath(env, extra))
}
