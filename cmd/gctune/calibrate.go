package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/verify"
)

// NewCalibrateCmd returns `gctune calibrate`; its RunE calls runF (nil: runCalibrate).
func NewCalibrateCmd(ro *rootOptions, runF runFunc[calibrateOptions]) *cobra.Command {
	run := orRun(runF, runCalibrate)
	var o calibrateOptions
	cmd := &cobra.Command{
		Use:         "calibrate PROFILE --measured run.json [-o cost.yaml]",
		Annotations: cmdutil.Declare(argsProfiles, []string{"output"}, nil),
		Short:       "Scale the cost model to one measured run of the application on this machine",
		Long: `Scale the simulator's cost model so that the profile's simulated run at the default GC
parameters takes the times the real application took on this machine, and write the result
as a cost file that every command that simulates takes with --cost FILE (or the config key
cost). The measurement is one run at the defaults, as Pharo reports it (run.json):

  wallSeconds       the run's wall time, Time millisecondsToRun: [...]      (required)
  gcSeconds         time in GC: VM parameters 8 + 10
  scavenges         VM parameter 9          scavengeSeconds  VM parameter 10
  fullGCs           VM parameter 7          fullGCSeconds    VM parameter 8

Times are in seconds; each may be given in milliseconds instead, the VM's unit, as wallMs,
gcMs, scavengeMs, fullGCMs (--snippet prints a Pharo script that writes exactly that). As many
scales are fitted as the measurement determines: wall time alone gives one scale for all the
work; with GC time, a mutator scale and one GC scale; with scavenge and full-GC times, one
each. Counts are printed beside the simulated ones: they check that the profile reproduces the
run's mechanics and are never fitted. --from-study STUDY uses the default runs that
'gctune verify' stored in the study instead of a file.`,
		Example: `  gctune calibrate --snippet > bench.st       # edit the block, then: pharo --headless App.image st bench.st
  gctune calibrate recorded-run.csv --measured run.json -o cost.yaml
  gctune optimize recorded-run.csv --cost cost.yaml
  gctune calibrate dataframe-3.1gb --measured costfit/testdata/iwst23p-3.1gb.json
  gctune calibrate --from-study my-app -o cost.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return cmdutil.Usagef("calibrate takes one profile, not %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Profile = args[0]
			}
			o.JSON = ro.json
			// --snippet reads no configuration: it prints the snippet even beside a bad one.
			var cfg Config
			if !o.Snippet {
				var err error
				if cfg, err = loadConfig(cmd, ro.configFile); err == nil {
					cfg.build = newBuildStamp(ro.build)
				}
				if err != nil {
					return err
				}
				if err := checkOutputsNotInputs(cmd, args, ro.configFile, cfg); err != nil {
					return err
				}
			}
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Measured, "measured", "", "the measured default run: a JSON file (see above)")
	f.StringVar(&o.FromStudy, "from-study", "", "use the default runs 'gctune verify' stored in this study")
	f.StringVarP(&o.Output, "output", "o", "", "write the calibrated cost model to FILE (YAML; replaces only a gctune cost file)")
	f.BoolVar(&o.Snippet, "snippet", false, "print a Pharo snippet that measures a run and writes run.json")
	addWorkloadFlags(cmd, "seed")
	addClockFlag(cmd)
	addRebuildFlags(cmd)
	addStorageFlag(cmd, "study database, with --from-study (storage, GCTUNE_STORAGE)")
	addCostFlag(cmd)
	return cmd
}

// calibrateOptions are what `gctune calibrate` is asked besides the configuration.
type calibrateOptions struct {
	// Profile is the profile the measured run is of ("": the study's only workload, with
	// FromStudy).
	Profile string
	// Measured is the measured run's JSON file; FromStudy the study whose default runs
	// 'gctune verify' stored (one of the two).
	Measured, FromStudy string
	// Output is the cost file written ("": none).
	Output string
	// Snippet prints the Pharo snippet that measures a run, and nothing else.
	Snippet bool
	// JSON prints calibrateDoc.
	JSON bool
}

// calibrateDoc is `gctune calibrate --json`: the profile, how it was read, and the
// calibration (costfit.Calibration, its fields inline).
type calibrateDoc struct {
	Profile string `json:"profile"`
	// ProfileInfo says how the profile was read: layout, clock and why, sampling rate,
	// warnings (the line every command that reads a profile prints).
	ProfileInfo study.ProfileInfo `json:"profileInfo"`
	costfit.Calibration
}

// calibrateInput is what calibrate fits: the profile, the VM facts, the base cost, the
// measurement.
type calibrateInput struct {
	profile      *profile.Profile
	ref          string
	info         study.ProfileInfo
	vm           heapsim.Params
	base         heapsim.Cost
	baseName     string
	measured     costfit.Measured
	measuredFrom string
}

// runCalibrate fits the cost model to the measured run (costfit.Calibrate), writes it to
// o.Output and the fit to w; how the profile was read goes to ew. With o.Snippet it prints the
// snippet only.
func runCalibrate(ctx context.Context, w, ew io.Writer, cfg Config, o calibrateOptions) error {
	if o.Snippet {
		_, err := io.WriteString(w, costfit.Snippet)
		return err
	}
	if (o.Measured == "") == (o.FromStudy == "") {
		return cmdutil.Usagef("calibrate needs the measured default run: --measured run.json or --from-study STUDY (one of them)")
	}
	if err := checkCostOutput(o.Output); err != nil {
		return err
	}
	var in *calibrateInput
	var err error
	if o.FromStudy != "" {
		in, err = calibrateFromStudy(ctx, cfg, o)
	} else {
		in, err = calibrateFromFile(ctx, cfg, o)
	}
	if err != nil {
		return err
	}
	c, err := costfit.Calibrate(in.profile, in.vm, in.base, in.baseName, in.measured, in.measuredFrom)
	var fe *costfit.FitError
	if errors.As(err, &fe) {
		return cmdutil.Usagef("calibrate %s on %s: %w", in.ref, in.measuredFrom, fe.Err)
	}
	if err != nil {
		return fmt.Errorf("calibrate %s: %w", in.ref, err)
	}
	if o.Output != "" {
		file, err := c.File(in.ref, cfg.build.version)
		if err != nil {
			return err
		}
		if err := outfile.Write(o.Output, func(w io.Writer) error { return costfit.WriteFile(w, file) }); err != nil {
			return fmt.Errorf("calibrate: write %s: %w", o.Output, err)
		}
		c.Output = o.Output
	}
	doc := calibrateDoc{Profile: in.ref, ProfileInfo: in.info, Calibration: *c}
	printProfileInfo(ew, doc.ProfileInfo)
	if o.JSON {
		return cmdutil.WriteJSON(w, doc)
	}
	return doc.WriteText(w, doc.Profile)
}

// checkCostOutput refuses to replace a regular file that is not a gctune cost file
// (costfit.CheckReplace).
func checkCostOutput(path string) error {
	if path == "" {
		return nil
	}
	err := costfit.CheckReplace(path)
	if errors.Is(err, costfit.ErrNotCostFile) {
		return cmdutil.Usagef("-o %s exists and is not a gctune cost file: not replacing it", path)
	}
	if err != nil {
		return cmdutil.Usagef("-o %w", err)
	}
	return nil
}

func calibrateFromFile(ctx context.Context, cfg Config, o calibrateOptions) (*calibrateInput, error) {
	if o.Profile == "" {
		return nil, cmdutil.Usagef("calibrate needs the profile the measured run is of (a workload, spec or recorded profile)")
	}
	m, err := readMeasured(ctx, o.Measured)
	if err != nil {
		return nil, err
	}
	opts, err := cfg.openOptions()
	if err != nil {
		return nil, err
	}
	p, info, err := openProfile(ctx, o.Profile, opts)
	if err != nil {
		return nil, inputError(err)
	}
	base, baseName, err := loadCostContext(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &calibrateInput{profile: p, ref: o.Profile, info: study.NewProfileInfo(info, p), vm: cfg.Simulate.VMFacts(), base: base, baseName: baseName,
		measured: m, measuredFrom: o.Measured}, nil
}

// readMeasured reads --measured (costfit.ReadMeasured); its errors are the user's to fix.
func readMeasured(ctx context.Context, path string) (costfit.Measured, error) {
	m, err := costfit.ReadMeasured(ctx, path)
	if err != nil {
		return costfit.Measured{}, inputError(err)
	}
	return m, nil
}

// calibrateFromStudy takes the measurement from the latest verify session of the study: the
// mean of its default runs' gctune-stats figures when every run printed them, else the mean
// wall time of the processes (VM start-up included). The profile is the study's (its only
// workload, unless one is named), the base cost the study's.
func calibrateFromStudy(ctx context.Context, cfg Config, o calibrateOptions) (*calibrateInput, error) {
	store, id, sp, err := openStudy(ctx, cfg.Storage, o.FromStudy, false)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	m, err := verify.StudyMeasurement(store, id, o.FromStudy)
	if errors.Is(err, verify.ErrNoDefaultRun) {
		return nil, cmdutil.Usagef("study %q has no successful default run measured: run 'gctune verify %s -- COMMAND' first", o.FromStudy, o.FromStudy)
	}
	if err != nil {
		return nil, err
	}
	wr, lw, err := sp.ReopenWorkload(o.FromStudy, o.Profile, reopenOptions(cfg, study.ReopenOptions{}))
	if err != nil {
		return nil, err
	}
	base, baseName := sp.Cost, "study "+o.FromStudy
	if cfg.Cost != "" {
		if base, baseName, err = loadCostContext(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return &calibrateInput{profile: lw.Workloads[0].Profile, ref: wr.Ref, info: openedInfos(lw.Opened)[0], vm: sp.VM, base: base,
		baseName: baseName, measured: m, measuredFrom: m.Source}, nil
}
