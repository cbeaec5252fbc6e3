package session

import (
	"fmt"
	"strings"
	"time"
)

// NoticeKind says what a Notice reports.
type NoticeKind int

// The kinds of Notice.
const (
	// NoticeReaped: the session reaped trials of a worker that stopped (Trials) and queued
	// their parameters again.
	NoticeReaped NoticeKind = iota + 1
	// NoticeRestarted: one of the session's own trials was reaped by another worker while it
	// ran (its beats did not get through for the reap timeout); its parameters are queued
	// again and the session carries on (Err says what failed).
	NoticeRestarted
	// NoticeWaiting: the target is reached from this session's side, but Running trials of
	// other workers still run; the session waits for them to finish or to be reaped.
	NoticeWaiting
)

// Notice is what a session reports besides trials: reaps, restarts and waits.
type Notice struct {
	Kind NoticeKind
	// Trials are the IDs of the reaped trials (NoticeReaped).
	Trials []int
	// Err is why the session restarted (NoticeRestarted).
	Err error
	// Running is the number of other workers' running trials (NoticeWaiting).
	Running int
	// SinceBeat is how long ago the most recent beat of those trials was (NoticeWaiting).
	SinceBeat time.Duration
	// Wait is the longest the session waits for them if their worker died: until the most
	// recent beat is ReapTimeout old, and the reaper's next look (NoticeWaiting).
	Wait time.Duration
}

// String says what happened in one line, for a user.
func (n Notice) String() string {
	switch n.Kind {
	case NoticeReaped:
		return fmt.Sprintf("re-queued %d trial(s) of a worker that stopped (trial IDs %v)", len(n.Trials), n.Trials)
	case NoticeRestarted:
		msg := ""
		if n.Err != nil {
			msg = strings.Join(strings.Fields(n.Err.Error()), " ")
		}
		return fmt.Sprintf("a running trial was reaped by another worker (%s); continuing", msg)
	case NoticeWaiting:
		trials := "trials"
		if n.Running == 1 {
			trials = "trial"
		}
		return fmt.Sprintf("waiting up to %s for %d running %s of a worker that may have died (last beat %s ago)",
			seconds(n.Wait), n.Running, trials, seconds(n.SinceBeat))
	}
	return fmt.Sprintf("NoticeKind(%d)", int(n.Kind))
}

// seconds writes d in seconds: tenths below 10 s, whole seconds above.
func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%.0fs", d.Seconds())
}
