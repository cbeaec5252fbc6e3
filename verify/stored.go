package verify

import (
	"fmt"
	"strings"
	"time"
)

// Stored is run r as a study stores it: the seq-th run (from 0) of verify session session,
// with the speedup predicted for its configuration. A run that timed out (after timeout) or
// exited with an error says so in Error, with the last lines of its standard error.
func (r Run) Stored(session string, seq int, predicted float64, timeout time.Duration) MeasuredRun {
	mr := MeasuredRun{Session: session, Seq: seq, Config: r.Config, Trial: r.Trial, Round: r.Round,
		Start: r.Start, WallSeconds: r.Wall.Seconds(), ExitCode: r.ExitCode, Stats: StoredStats(r.Outcome),
		PredictedSpeedup: predicted}
	switch {
	case r.TimedOut:
		mr.Error = fmt.Sprintf("timed out after %s", timeout)
	case r.ExitCode != 0:
		mr.Error = fmt.Sprintf("exit code %d: %s", r.ExitCode, strings.Join(r.StderrTail, " | "))
	}
	return mr
}
