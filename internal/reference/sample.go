package reference

// Sample is cases whole, or its first n when the tests run under the race
// detector. A table of cases each run against its own FastAPI backend
// spends its time in Python, which the race detector does not watch: a few
// of them exercise the Go side's goroutines as well as all of them do, and
// the run without -race (go test ./...) takes them all.
func Sample[T any](cases []T, n int) []T {
	if RaceEnabled && len(cases) > n {
		return cases[:n]
	}
	return cases
}
