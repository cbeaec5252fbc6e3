//go:build race

package studies

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
