package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
)

// NewStudyCreateCmd returns `gctune studies create` (also `gctune study create`: `study` is
// an alias of `studies`); its RunE calls runF (nil: runStudyCreate).
func NewStudyCreateCmd(ro *rootOptions, runF runFunc[studyCreateOptions]) *cobra.Command {
	run := orRun(runF, runStudyCreate)
	var quiet bool
	cmd := &cobra.Command{
		Use:         "create STUDY WORKLOAD...",
		Annotations: cmdutil.Declare(argsNewStudyProfiles, nil, nil),
		Short:       "Create a study for workers to join, without running trials",
		Long: `Create a study and store with it everything a worker needs ('gctune worker --study
STUDY'), on this machine or another: the workloads (a bundled workload by name, a spec's text,
a recorded profile's path and content hash), the objective, the space and the seeds derived
from the lifetime profile (queued once, here). No trial runs: start workers, or run it here
with 'gctune resume STUDY'.

With PostgreSQL (--storage postgres://user@host/db, the password from PGPASSWORD) the schema
is created on first use under an advisory lock; two creations of one name at once leave one
study, and the other fails. Credentials are never printed nor stored in the study.`,
		Example: `  gctune study create df --storage postgres://gctune@db/gctune dataframe-3.1gb --trials 1000
  gctune study create demo my-workload.yaml --max-footprint 4GiB
  gctune study create run recorded-run.csv --storage postgres://gctune@db/gctune   # workers need run.csv at this path`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cmdutil.Usagef("study create needs a study name and at least one workload (see 'gctune workloads')")
			}
			return nil
		},
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, studyCreateOptions{
				Study: args[0], Refs: args[1:], JSON: ro.json, Quiet: quiet})
		}),
	}
	addProblemFlags(cmd)
	f := cmd.Flags()
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	addStorageFlag(cmd, storageURLUsage)
	return cmd
}

// createDoc is `study create --json`.
type createDoc struct {
	Study        string                  `json:"study"`
	Storage      string                  `json:"storage"`
	Workloads    []study.CreatedWorkload `json:"workloads"`
	Target       int                     `json:"target"`
	Sampler      string                  `json:"sampler"`
	Seed         uint64                  `json:"seed"`
	Queued       int                     `json:"queued"`
	DefaultValue float64                 `json:"defaultValue"`
	Plan         search.Plan             `json:"plan"`
	// Profiles says how each workload's profile was read, with its simulated default run.
	Profiles []study.ProfileInfo `json:"profiles"`
}

// studyCreateOptions are what `gctune study create` is asked besides the configuration.
type studyCreateOptions struct {
	// Study is the new study's name, Refs its workloads' references.
	Study string
	Refs  []string
	// JSON prints createDoc; Quiet prints nothing but errors.
	JSON, Quiet bool
}

// runStudyCreate creates the study (createNewStudy) without running a trial and says how
// workers join it.
func runStudyCreate(ctx context.Context, w, errOut io.Writer, cfg Config, o studyCreateOptions) error {
	name, refs, asJSON, quiet := o.Study, o.Refs, o.JSON, o.Quiet
	ns, err := createNewStudy(ctx, cfg, name, refs, newStudyWording{
		badName: "study create: %v",
		exists:  "study %q already exists in %s: join it with 'gctune worker --study %s', or create another name",
	})
	if err != nil {
		return err
	}
	store, sp, prob := ns.store, ns.sp, ns.prob
	defer store.Close()
	if !quiet {
		printProfileInfos(errOut, profileInfos(sp))
	}
	doc := createDoc{Study: name, Storage: store.URL(), Target: sp.Trials, Sampler: sp.Sampler, Seed: sp.Seed,
		Queued: len(sp.Plan.Seeds), DefaultValue: sp.DefaultValue, Plan: sp.Plan, Profiles: study.WithDefaultRuns(profileInfos(sp), prob),
		Workloads: sp.CreatedWorkloads()}
	if asJSON {
		return cmdutil.WriteJSON(w, doc)
	}
	if quiet {
		return nil
	}
	ew := errwriter.New(w)
	ew.Printf("created study %q in %s: %d trials on %s, sampler %s, seed %d\n", name, store.URL(), sp.Trials, sp.WorkloadNames(), sp.Sampler, sp.Seed)
	for _, wl := range doc.Workloads {
		ew.Printf("  workload %s (%s, fingerprint %.19s): %s\n", wl.Ref, wl.Kind, wl.Fingerprint, wl.HowWorkersFindIt())
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	printPlan(w, sp.Plan)
	ew.Printf("%d configuration(s) queued to run first\n", doc.Queued)
	ew.Printf("join it: gctune worker --study %s --storage %s\n", export.ShellQuote(name), export.ShellQuote(store.URL()))
	return ew.Err()
}
