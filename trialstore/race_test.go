//go:build race

package trialstore

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
