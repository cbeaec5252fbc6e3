package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/stage"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/session"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// sessionFlags are the flags optimize and resume share.
type sessionFlags struct {
	quiet bool
}

// addSearchFlags adds the flags of the commands that run a study's trials (optimize, resume,
// worker): --storage and --workers.
func addSearchFlags(cmd *cobra.Command) {
	addStorageFlag(cmd, storageURLUsage)
	cmdutil.AddBoundFlag(cmd, "workers", defaultConfig().Search.Workers, "search.workers", "trials evaluated at once; 0 = the number of cores (search.workers)")
}

// NewOptimizeCmd returns `gctune optimize`; its RunE calls runF (nil: runOptimize).
func NewOptimizeCmd(ro *rootOptions, runF runFunc[optimizeOptions]) *cobra.Command {
	run := orRun(runF, runOptimize)
	var (
		sf    sessionFlags
		study string
	)
	cmd := &cobra.Command{
		Use:         "optimize WORKLOAD...",
		Annotations: cmdutil.Declare(argsProfiles, nil, nil),
		Short:       "Search the GC parameters that make a workload fastest",
		Long: `Create a study and search the five GC parameters (eden size, growth headroom, shrink
threshold, full GC ratio, survivors to keep) that minimise the workload's simulated run time.
With several workloads, minimise the worst (or mean, --aggregate) slowdown against each one's
defaults, so the configuration is robust across data sizes.

The search starts from the VM defaults and a configuration derived from the lifetime profile,
within bounds the profile allows (printed at the start; --no-seed, --no-constrain). Every
finished trial is stored at once in the study database (--storage): a study that is stopped or
killed loses no completed trial and continues with 'gctune resume STUDY'. Export the best
configuration with 'gctune export STUDY'.`,
		Example: `  gctune optimize dataframe-3.1gb --trials 200
  gctune optimize dataframe-500mb dataframe-1.6gb dataframe-3.1gb --aggregate max --study dataframes
  gctune optimize run.csv --max-footprint 4GiB --storage postgres://gctune@db/gctune`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.Usagef("optimize needs at least one workload (see 'gctune workloads')")
			}
			return nil
		},
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, optimizeOptions{
				Refs: args, Study: study, JSON: ro.json, Quiet: sf.quiet})
		}),
	}
	f := cmd.Flags()
	f.StringVar(&study, "study", "", "study name (default: the workloads' names joined by '+')")
	addProblemFlags(cmd)
	f.BoolVarP(&sf.quiet, "quiet", "q", false, "no progress bar and no plan")
	addSearchFlags(cmd)
	addToleranceFlag(cmd)
	return cmd
}

// addProblemFlags adds the flags that define a new study's problem (optimize, study create).
func addProblemFlags(cmd *cobra.Command) {
	d := defaultConfig()
	cmdutil.AddBoundFlag(cmd, "trials", d.Search.Trials, "search.trials", "finished trials the study should reach (search.trials)")
	cmdutil.AddBoundFlag(cmd, "seed", d.Search.Seed, "search.seed", "study seed (search.seed)")
	cmdutil.AddBoundFlag(cmd, "max-footprint", d.Search.MaxFootprint.String(), "search.max_footprint", "memory budget on the peak footprint; 0 = none (search.max_footprint)")
	cmdutil.AddBoundFlag(cmd, "aggregate", string(d.Search.Aggregate), "search.aggregate", "several workloads: max or mean slowdown (search.aggregate)")
	cmdutil.AddBoundFlag(cmd, "no-seed", false, "search.no_seed", "do not start from the lifetime-informed configurations (search.no_seed)")
	cmdutil.AddBoundFlag(cmd, "no-constrain", false, "search.no_constrain", "do not narrow the space from the lifetime profile (search.no_constrain)")
	cmdutil.AddBoundFlag(cmd, "resolution", d.Workload.Resolution, "workload.resolution", "records per object when generating workloads; 0 = the spec's own (workload.resolution)")
	cmdutil.AddBoundFlag(cmd, "sampler", d.Search.Sampler, "search.sampler", "sampler: "+strings.Join(search.Samplers(), ", ")+" (search.sampler)")
	cmdutil.AddBoundFlag(cmd, "replicas", d.Uncertainty.Replicas, "uncertainty.replicas", "perturbed runs the recommendation is judged and stated on (uncertainty.replicas)")
	cmdutil.AddBoundFlag(cmd, "search-replicas", d.Uncertainty.SearchReplicas, "uncertainty.search_replicas", "perturbed runs each search trial is judged on; 0 = the single simulation (uncertainty.search_replicas)")
	cmdutil.AddBoundFlag(cmd, "statistic", d.Uncertainty.Statistic.String(), "uncertainty.statistic", "what the replicas are reduced to: mean, max, or a percentile such as p90 (uncertainty.statistic)")
	cmdutil.AddBoundFlag(cmd, "no-robust", false, "uncertainty.off", "judge every configuration on the single simulation of the profile, without perturbed runs (uncertainty.off)")
	cmdutil.AddBoundFlag(cmd, "start-phase", d.Uncertainty.StartPhase, "uncertainty.start_phase", "start each perturbed run at a random point of its eden cycle (uncertainty.start_phase)")
	cmdutil.AddBoundFlag(cmd, "allocation-spread", d.Uncertainty.AllocationSpread, "uncertainty.allocation_spread", "scale each perturbed run's objects by up to this fraction either way (uncertainty.allocation_spread)")
	cmdutil.AddBoundFlag(cmd, "phases", d.Uncertainty.Phases, "uncertainty.phases", "phases of a perturbed run, each but the first after young garbage (uncertainty.phases)")
	cmdutil.AddBoundFlag(cmd, "phase-spread", d.Uncertainty.PhaseSpread, "uncertainty.phase_spread", "young garbage before a phase, up to this fraction of its bytes (uncertainty.phase_spread)")
	cmdutil.AddBoundFlag(cmd, "cost-sigma", d.Uncertainty.CostSigma, "uncertainty.cost_sigma", "log-normal spread of each cost group's factor in a perturbed run (uncertainty.cost_sigma)")
	addCostFlag(cmd)
	addProfileFlags(cmd)
	addRebuildFlags(cmd)
}

// NewResumeCmd returns `gctune resume`; its RunE calls runF (nil: runResume).
func NewResumeCmd(ro *rootOptions, runF runFunc[resumeOptions]) *cobra.Command {
	run := orRun(runF, runResume)
	var (
		sf     sessionFlags
		trials int
		more   int
		force  bool
	)
	cmd := &cobra.Command{
		Use:         "resume STUDY",
		Annotations: cmdutil.Declare(argsStudy, nil, nil),
		Short:       "Continue a saved study",
		Long: `Continue a study where it stopped. Trials left RUNNING by a worker that died (their
heartbeat is older than search.reap_timeout) are failed and their parameters run again; then
trials run until the study holds its target of finished trials (the one it was created with,
--trials to set a new total, --more to add). Right after a crash, the killed trials' heartbeats
are still young: resume says so and waits, up to the reap timeout, until they are reaped (or
finished by a worker that lives), then runs them again. The workloads are checked against the
fingerprints stored with the study: a changed workload is refused unless --force.`,
		Example: `  gctune resume dataframe-3.1gb
  gctune resume dataframe-3.1gb --more 100 --workers 4`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, resumeOptions{
				Study: args[0], Clock: clockFlag(cmd, cfg), Trials: trials, More: more, Force: force, JSON: ro.json, Quiet: sf.quiet})
		}),
	}
	f := cmd.Flags()
	f.IntVar(&trials, "trials", 0, "new target of finished trials (default: the study's own)")
	f.IntVar(&more, "more", 0, "run this many trials more than the study holds")
	f.BoolVar(&force, "force", false, "resume even though a workload changed since the study began")
	addCostFlag(cmd)
	f.BoolVarP(&sf.quiet, "quiet", "q", false, "no progress bar")
	addSearchFlags(cmd)
	addClockFlag(cmd)
	addToleranceFlag(cmd)
	return cmd
}

// optimizeOptions are what `gctune optimize` is asked besides the configuration.
type optimizeOptions struct {
	// Refs are the workloads' references.
	Refs []string
	// Study is the study's name; "" names it after the workloads, joined by '+'.
	Study string
	// JSON prints the session's document; Quiet prints no progress bar and no plan.
	JSON, Quiet bool
}

// runOptimize creates the study (createNewStudy) and runs its trials (runSession), writing
// the result to w and progress to ew.
func runOptimize(ctx context.Context, w, ew io.Writer, cfg Config, o optimizeOptions) error {
	refs, name, asJSON, quiet := o.Refs, o.Study, o.JSON, o.Quiet
	if name == "" {
		name = strings.Join(refs, "+")
	}
	ns, err := createNewStudy(ctx, cfg, name, refs, newStudyWording{
		badName: "study name: %v (name it with --study)",
		exists:  "study %q already exists in %s: continue it with 'gctune resume %s', or name a new one with --study",
	})
	if err != nil {
		return err
	}
	store, sp, prob := ns.store, ns.sp, ns.prob
	defer store.Close()
	if !quiet {
		printProfileInfos(ew, profileInfos(sp))
	}
	if !quiet && !asJSON {
		fmt.Fprintf(ew, "study %q in %s: %d trials on %s, sampler %s, seed %d\n", name, store.URL(), sp.Trials, sp.WorkloadNames(), sp.Sampler, sp.Seed)
		printPlan(ew, sp.Plan)
		for _, n := range sp.Notes {
			fmt.Fprintf(ew, "%s\n", n)
		}
	}
	return runSession(ctx, w, ew, cfg, store, name, ns.study.ID, sp, prob, asJSON, quiet)
}

// newProblem opens the workloads (openWorkloads), reads the cost model and plans the search
// (study.New): the problem a new study stores, with its objective.
func newProblem(cfg Config, refs []string) (*study.Problem, *objective.Problem, error) {
	cost, _, err := loadCost(cfg)
	if err != nil {
		return nil, nil, err
	}
	lw, err := openWorkloads(refs, cfg, cost)
	if err != nil {
		return nil, nil, err
	}
	return study.New(lw, study.Problem{
		MaxFootprint: uint64(cfg.Search.MaxFootprint), Aggregate: string(cfg.Search.Aggregate),
		ConfiguredSpace: cfg.Search.Space.Space(), NoSeed: cfg.Search.NoSeed,
		NoConstrain: cfg.Search.NoConstrain, Seed: cfg.Search.Seed, Sampler: cfg.Search.Sampler,
		Trials: cfg.Search.Trials, VM: cfg.Simulate.VMFacts(), Cost: cost, Version: cfg.build.version,
		Uncertainty: cfg.Uncertainty.Effective(), Statistic: cfg.Uncertainty.Statistic.String(),
	})
}

// resumeOptions are what `gctune resume` is asked besides the configuration.
type resumeOptions struct {
	// Study is the study's name.
	Study string
	// Clock is --clock when given (nil otherwise): it must be the study's (Problem.CheckClock).
	Clock *filip.Clock
	// Trials sets a new target of finished trials, More adds to the trials the study holds
	// (0: the study's own target).
	Trials, More int
	// Force uses workloads that changed since the study began.
	Force bool
	// JSON prints the session's document; Quiet prints no progress bar.
	JSON, Quiet bool
}

// runResume continues the study: its workloads reopened and checked, its target set, its
// trials run (runSession), the result written to w and progress to ew.
func runResume(ctx context.Context, w, ew io.Writer, cfg Config, o resumeOptions) error {
	name, clock, trials, more, force, asJSON, quiet := o.Study, o.Clock, o.Trials, o.More, o.Force, o.JSON, o.Quiet
	if err := checkTrialsTarget(trials, more); err != nil {
		return err
	}
	store, id, sp, err := openStudy(ctx, cfg.Storage, name, false)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := checkStudyCost(cfg, sp, name); err != nil {
		return err
	}
	if err := sp.CheckClock(clock); err != nil {
		return err
	}
	prob, err := sp.ReopenObjective(reopenOptions(cfg, study.ReopenOptions{Force: force}))
	if err != nil {
		return err
	}
	if !quiet {
		printProfileInfos(ew, profileInfos(sp))
	}
	d, err := sp.Resume(store, id, name, trials, more)
	if err != nil {
		return err
	}
	if d != nil {
		if asJSON { // the same document as ever, for scripts; the hint beside it
			fmt.Fprintln(ew, d.Hint())
			return runSession(ctx, w, ew, cfg, store, name, id, sp, prob, asJSON, true)
		}
		// A finished study states its stored recommendation, as export writes it.
		if d.Recommendation, err = study.StoredRecommendationFor(store, id, prob, d.Trials,
			study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Version: cfg.build.recommendation}); err != nil {
			return err
		}
		return d.WriteText(w)
	}
	if !quiet && !asJSON {
		fmt.Fprintf(ew, "resuming study %q in %s: target %d trials on %s\n", name, store.URL(), sp.Trials, sp.WorkloadNames())
	}
	return runSession(ctx, w, ew, cfg, store, name, id, sp, prob, asJSON, quiet)
}

// sessionDoc is the JSON document optimize, resume and worker print: the session's report,
// and how each profile was read, with its simulated default run.
type sessionDoc struct {
	session.Report
	Profiles []study.ProfileInfo `json:"profiles,omitempty"`
}

// runSession runs the study's trials (session.Run), makes and stores the recommendation, and
// prints the report: to w the result, to ew the progress bar, the notices and the stages.
func runSession(ctx context.Context, w, ew io.Writer, cfg Config, store *trialstore.Store, name string, id int,
	sp *study.Problem, prob *objective.Problem, asJSON, quiet bool) error {
	var bar *session.Progress
	settings := search.Settings{Trials: sp.Trials, Workers: workerCount(cfg.Search.Workers), Seed: sp.Seed,
		Sampler: sp.Sampler, Space: sp.Plan.Space}
	if !quiet && !asJSON {
		bar = session.NewProgress(ew, cmdutil.IsTerminal(ew), prob.DefaultValue(), sp.Seconds())
		settings.Recorder = bar
	}
	notify := func(n session.Notice) {
		if bar != nil {
			bar.Note(n.String())
		}
	}
	// A cancelled ctx (SIGINT, SIGTERM) stops new trials from starting; running ones finish
	// and are recorded.
	res, err := session.Run(ctx, newSessionConfig(cfg, store, store.Storage(), name, id, prob, settings, notify))
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	doc := newSessionDoc(res, name, store, sp, prob)
	if res.HasBest {
		trials, err := store.Storage().GetAllTrials(id)
		if err != nil {
			return err
		}
		// Choosing and stating the recommendation simulates hundreds of runs: say so.
		var st *stage.Reporter
		settings := study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Save: true, Version: cfg.build.recommendation}
		if !quiet && !asJSON {
			st = stage.New(ew, cmdutil.IsTerminal(ew))
			settings.Stage = func(step string) {
				if words := recommend.StepWords(step, cfg.Search.Tolerance); words != "" {
					st.Begin(words)
				}
			}
		}
		doc.Recommendation, err = study.Recommendation(ctx, store, id, name, prob, trials, settings)
		st.End()
		if err != nil {
			return err
		}
	}
	if asJSON {
		err = cmdutil.WriteJSON(w, doc)
	} else {
		err = doc.WriteText(w)
	}
	if err != nil {
		return err
	}
	return stoppedShort(doc)
}

// stoppedShort is the error of a session that a signal stopped before the study held its
// target (exit 130, session.Report.StoppedShort), nil for one that finished.
func stoppedShort(d sessionDoc) error {
	if why := d.StoppedShort(); why != "" {
		return cmdutil.Interruptedf("%s", why)
	}
	return nil
}

// newSessionConfig is the session optimize, resume and worker run on study name (ID id) in
// store, through storage (the store's, or that wrapped to retry), as the configuration says.
func newSessionConfig(cfg Config, store *trialstore.Store, storage goptuna.Storage, name string, id int,
	prob *objective.Problem, settings search.Settings, notify func(session.Notice)) session.Config {
	return session.Config{Storage: storage, Study: name, StudyID: id, Problem: prob, Search: settings,
		Keeper: session.StoreKeeper(store, id), HeartbeatInterval: cfg.Search.HeartbeatInterval,
		ReapTimeout: cfg.Search.ReapTimeout, Notify: notify}
}

// newSessionDoc describes a session's outcome (session.NewReport), with how each profile was
// read and its simulated default run beside the profiled run's counts.
func newSessionDoc(res session.Result, name string, store *trialstore.Store, sp *study.Problem, prob *objective.Problem) sessionDoc {
	doc := sessionDoc{Report: session.NewReport(res, name, store.URL(), sp, prob), Profiles: study.WithDefaultRuns(profileInfos(sp), prob)}
	for _, p := range doc.Profiles {
		doc.Beside = append(doc.Beside, study.ProfiledBeside(p.Profiled, p.SimulatedDefault))
	}
	return doc
}
