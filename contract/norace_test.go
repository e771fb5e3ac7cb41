//go:build !race

package contract_test

// raceEnabled says the tests run under the race detector.
const raceEnabled = false
