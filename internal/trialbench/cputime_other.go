//go:build !unix

package trialbench

import "time"

// cpuTime is not available without getrusage(2).
func cpuTime() (time.Duration, bool) { return 0, false }
