package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/session"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// NewWorkerCmd returns `gctune worker`; its RunE calls runF (nil: runWorker).
func NewWorkerCmd(ro *rootOptions, runF runFunc[workerOptions]) *cobra.Command {
	run := orRun(runF, runWorker)
	var o workerOptions
	cmd := &cobra.Command{
		Use:   "worker --study STUDY",
		Short: "Join a study and run its trials beside other workers",
		Long: `Join a study made by 'gctune study create' (or optimize) and evaluate its trials until
the study holds its target of finished trials, counted in the database across all workers, or
until SIGINT or SIGTERM. Start as many workers as you like, on one machine or many, on one
PostgreSQL database (--storage postgres://user@host/db, the password from PGPASSWORD or
~/.pgpass; never printed) or on one SQLite file on one machine.

The worker loads the problem from the study and checks each workload against the fingerprint
stored with it: specs come from the study itself, bundled workloads from gctune, recorded
profiles (.csv, .gcprof) from the same path on this machine. Trials of workers that died
(no heartbeat for search.reap_timeout) are failed and their parameters run again by the
workers that live; a worker leaves when the study is done and no trial is still running.
A database error that may pass (the server restarting, a broken connection, SQLite busy) is
retried with exponential backoff, --retries attempts in all (about 21 s for the default 10),
after which the worker stops with the error; what it finished is stored, and what it was
running is reaped and run again by others. SIGINT or SIGTERM lets the running trials finish
and be stored, then stops.`,
		Example: `  gctune worker --study df --storage postgres://gctune@db/gctune
  PGPASSWORD=... GCTUNE_STORAGE=postgres://gctune@db/gctune gctune worker --study df --workers 4
  gctune worker --study demo --trials 500`,
		Args: cmdutil.NoArgs,
		RunE: ro.withConfig(func(cmd *cobra.Command, _ []string, cfg Config) error {
			o.JSON, o.Clock = ro.json, clockFlag(cmd, cfg)
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.Study, "study", "", "the study to join (required)")
	f.IntVar(&o.Trials, "trials", 0, "work until the study holds this many trials (default: the study's target; not stored)")
	f.IntVar(&o.Retries, "retries", trialstore.DefaultRetryAttempts, "attempts at a database operation that fails with an error that may pass, before giving up")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "print nothing but errors and the final result")
	addSearchFlags(cmd)
	addCostFlag(cmd)
	addClockFlag(cmd)
	return cmd
}

// workerOptions are what `gctune worker` is asked besides the configuration.
type workerOptions struct {
	// Study is the study to join (--study, required).
	Study string
	// Trials is the target of finished trials (0: the study's own), Retries the attempts at a
	// database operation that fails with an error that may pass (at least 1).
	Trials, Retries int
	// JSON prints workerDoc; Quiet prints nothing but errors and the final result.
	JSON, Quiet bool
	// Clock is --clock when given (nil otherwise): it must be the study's (Problem.CheckClock).
	Clock *filip.Clock
}

// workerDoc is the JSON document `gctune worker` prints: the session's, and who ran it.
type workerDoc struct {
	sessionDoc
	Worker      string `json:"worker"`
	Goroutines  int    `json:"goroutines"`
	SamplerSeed uint64 `json:"samplerSeed"`
	Restarts    int    `json:"restarts,omitempty"`
}

// runWorker joins the study and runs its trials (session.Run) beside the other workers until
// it holds its target, writing the result to w and notices to ew.
func runWorker(ctx context.Context, w, ew io.Writer, cfg Config, o workerOptions) error {
	if o.Study == "" {
		return cmdutil.Usagef("worker needs --study NAME (see 'gctune studies list')")
	}
	if err := checkTrialsTarget(o.Trials, 0); err != nil {
		return err
	}
	if err := cmdutil.CheckCount("retries", o.Retries, 1, maxRetries, ""); err != nil {
		return err
	}
	host, _ := os.Hostname()
	me := fmt.Sprintf("%s:%d", host, os.Getpid())
	var writeMu sync.Mutex // the reaper, the retries and the loop all write notices
	logf := func(format string, args ...any) {
		if !o.Quiet && !o.JSON {
			writeMu.Lock()
			defer writeMu.Unlock()
			fmt.Fprintf(ew, "worker %s: "+format+"\n", append([]any{me}, args...)...)
		}
	}
	var logMu sync.Mutex
	var lastLog time.Time
	policy := trialstore.RetryPolicy{Attempts: o.Retries, OnRetry: func(op string, attempt int, wait time.Duration, err error) {
		logMu.Lock()
		defer logMu.Unlock()
		if time.Since(lastLog) < time.Second {
			return
		}
		lastLog = time.Now()
		logf("database error, retrying %s (attempt %d of %d, again in %s): %s", op, attempt, o.Retries,
			wait.Round(10*time.Millisecond), cmdutil.OneLine(err))
	}}

	// The database may be restarting as the worker starts: opening is retried too.
	var store *trialstore.Store
	err := trialstore.Retry(ctx, policy, "open", func(bool) error {
		var err error
		store, err = trialstore.Open(ctx, cfg.Storage, trialstore.OpenOptions{MustExist: true})
		return err
	})
	if err != nil {
		return cmdutil.AsUsage(cmdutil.StoreOpenError(cfg.Storage, err))
	}
	defer store.Close()
	noteStore(ctx, store)
	session.KeepConnections(store, workerCount(cfg.Search.Workers))
	var id int
	var sp *study.Problem
	err = trialstore.Retry(ctx, policy, "load study", func(bool) error {
		var err error
		id, sp, err = study.Load(store, o.Study)
		return err
	})
	if err != nil {
		return err
	}
	if err := checkStudyCost(cfg, sp, o.Study); err != nil {
		return err
	}
	target := sp.Trials
	if o.Trials > 0 {
		target = o.Trials
	}
	if err := sp.CheckClock(o.Clock); err != nil {
		return err
	}
	prob, err := sp.ReopenObjective(reopenOptions(cfg, study.ReopenOptions{PreferStored: true, Worker: true}))
	if err != nil {
		return err
	}
	if !o.Quiet {
		writeMu.Lock()
		printProfileInfos(ew, profileInfos(sp))
		writeMu.Unlock()
	}
	// Writes are retried even after SIGINT or SIGTERM, so that the trials that were running
	// are stored; the retries are bounded.
	storage := trialstore.NewRetryStorage(context.WithoutCancel(ctx), store.Storage(), policy)
	goroutines := workerCount(cfg.Search.Workers)
	seed := search.ProcessSeed(sp.Seed, me, time.Now())
	logf("joined study %q in %s: target %d trials on %s, %d at once, sampler %s", o.Study, store.URL(), target,
		sp.WorkloadNames(), goroutines, sp.Sampler)

	settings := search.Settings{Trials: target, Workers: goroutines, Seed: seed, Sampler: sp.Sampler, Space: sp.Plan.Space}
	c := newSessionConfig(cfg, store, storage, o.Study, id, prob, settings, func(n session.Notice) { logf("%s", n) })
	c.Retry = policy
	res, err := session.Run(ctx, c)
	if err != nil {
		return fmt.Errorf("worker %s: study %q in %s: %w", me, o.Study, store.URL(), err)
	}
	doc := workerDoc{sessionDoc: newSessionDoc(res, o.Study, store, sp, prob),
		Worker: me, Goroutines: goroutines, SamplerSeed: seed, Restarts: res.Restarts}
	if o.JSON {
		err = cmdutil.WriteJSON(w, doc)
	} else {
		err = doc.WriteText(w)
	}
	if err != nil {
		return err
	}
	return stoppedShort(doc.sessionDoc)
}
