//go:build race

package reference

// RaceEnabled says the program (a test binary) was built with the race
// detector.
const RaceEnabled = true
