package reference

// Sample is cases whole, or its first n when the tests run under the race
// detector. A table whose every case starts a whole backend (a FastAPI app,
// or the mock with a contract run against it) runs the same goroutines case
// after case, and spends much of its time in Python, which the race
// detector does not watch: a few cases exercise the Go side as well as all
// of them do, and the run without -race (go test ./...) takes them all.
func Sample[T any](cases []T, n int) []T {
	if RaceEnabled && len(cases) > n {
		return cases[:n]
	}
	return cases
}
