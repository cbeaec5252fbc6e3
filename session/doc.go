// Package session runs the loop a worker runs over a study: it claims and runs trials
// (search.Optimize) until the study holds its target, beats for each trial it runs, reaps the
// trials of workers that died and runs their parameters again, starts over when one of its own
// trials was reaped while it ran, and, once the target is reached from its side, stays while
// other workers' trials run, because one whose worker died is reaped and re-run here. gctune's
// optimize, resume and worker commands all run one session (Run).
//
// # Time
//
// Every wait, tick and reading of the time goes through an injected Clock: RealClock in the
// commands, a fake clock in the tests, which therefore never sleep. Heartbeats go every
// HeartbeatInterval; the reaper looks at the start and then every quarter of ReapTimeout, so
// that the trial of a worker that died is queued again within 1.25 timeouts of its last beat.
//
// # Dead workers and a crash
//
// A study left by a killed process holds RUNNING trials whose last beat may be younger than
// the reap timeout. A session whose budget counts them waits (and says so, with a Notice of
// kind NoticeWaiting) until they finish, beat on and finish (another live worker), or go stale,
// are reaped and run again here: it reaches its target either way.
//
// # Output
//
// Run prints nothing: progress goes to Config.Search.Recorder (per trial) and Config.Notify
// (reaps, restarts, waiting), and the outcome is the Result. What a front end states of it is
// here too, once: Progress is a Recorder that draws a bar on a terminal (and the notices in
// its place), and Report is the outcome as optimize, resume and worker state it (NewReport:
// the document they print with --json; WriteText: their summary; StoppedShort: why a
// session a signal stopped is short of its target).
package session
