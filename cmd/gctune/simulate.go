package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/heapsim/eventlog"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// NewSimulateCmd returns `gctune simulate`; its RunE calls runF (nil: runSimulate).
func NewSimulateCmd(ro *rootOptions, runF runFunc[simulateOptions]) *cobra.Command {
	run := orRun(runF, runSimulate)
	var o simulateOptions
	cmd := &cobra.Command{
		Use:         "simulate WORKLOAD|PROFILE",
		Annotations: declare(argsProfiles, []string{"events"}, nil),
		Short:       "Simulate the Spur collector on a workload with given GC parameters",
		Long: `Simulate the Pharo VM's Spur collector (scavenger, tenuring, remembered set, old-space
segments, full GC, growth and shrink) over a workload's object lifetimes, with the given GC
parameters and with the defaults, and print the papers' table for both and the speedup.

Parameters come from the simulate section of the configuration: ./gctune.yaml, --config FILE
(an exported configuration: gctune export --format yaml), GCTUNE_SIMULATE_* variables, or the
flags below. Sizes accept KiB/MiB/GiB and k/m/g.`,
		Example: `  gctune simulate dataframe-3.1gb
  gctune simulate dataframe-3.1gb --eden 64MiB --headroom 512MiB --shrink 512MiB --ratio 10 --survivors-proportion 1.0
  gctune simulate run.csv --config best.yaml --events events.csv
  gctune simulate --json dataframe-500mb
  echo '{"eden":"64MiB","headroom":"512MiB","ratio":10,"survivors_proportion":1}' | gctune simulate --batch dataframe-3.1gb

--batch reads one parameter set per line of standard input, a JSON object with any of the keys
eden, headroom, shrink (bytes, or strings such as "64MiB"), ratio and survivors_proportion (a
number or "pharo"; missing keys take the configured values, a key given twice is an error), simulates the workload (generated once) and writes
one JSON line per input: {"params":..., "stats":..., "speedup":...} or {"error":"..."}. It is
how benchmark scripts in other languages drive the simulator.`,
		Args: exactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Ref, o.JSON, o.Stdin = args[0], ro.json, cmd.InOrStdin()
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	addSimulateFlags(cmd)
	addCostFlag(cmd)
	addProfileFlags(cmd)
	addWorkloadFlags(cmd, "seed")
	f := cmd.Flags()
	addRebuildFlags(cmd)
	f.StringVar(&o.Events, "events", "", "write the per-GC event log of the given parameters as CSV to FILE.csv")
	f.BoolVar(&o.Batch, "batch", false, "read parameter sets as JSON lines on standard input, answer one JSON line each")
	f.IntVar(&o.Replicas, "replicas", 0, "also run both configurations on this many perturbed replicas of the run (the uncertainty section's model) and print each one's values and interval")
	f.Uint64Var(&o.ReplicaSeed, "replica-seed", 1, "seed the replicas are drawn from (a study draws them from its own seed)")
	f.StringVar(&o.Scenario, "scenario", string(uncertainty.ScenarioLike), "what the --replicas runs are: like (inputs like this one: the allocation scaled too, as the search judges) or again (this input run again, as the headline forecast is stated)")
	f.StringArrayVar(&o.Pretenure, "pretenure", nil, "allocate this site's objects straight into old space in the given run, as basicNewTenured does: a site (\"Foo>>#bar @23\") or a method, all its sites (repeatable; docs/sites.md)")
	return cmd
}

// addSimulateFlags adds the five tunables' flags, bound to the simulate section.
func addSimulateFlags(cmd *cobra.Command) {
	d := heapsim.DefaultParams()
	for _, t := range tunable.All() {
		usage := fmt.Sprintf("%s, VM parameter %d (simulate.%s)", t.Label, t.VMParam, t.Key)
		if t.Unit == tunable.UnitProportion {
			usage = fmt.Sprintf("%s: the tenuring proportion p, ≥ 1 keeps all survivors, or %s (VM parameter %d; simulate.%s)", t.Label, tunable.DefaultWord, t.VMParam, t.Key)
		}
		addBoundFlag(cmd, t.FlagName(), t.Text(d), "simulate."+t.Key, usage)
	}
}

// simulateOptions are what `gctune simulate` is asked besides the configuration (the
// parameters simulated are the configuration's simulate section).
type simulateOptions struct {
	// Ref is the workload or profile simulated.
	Ref string
	// Events, when set, is the CSV file the given run's event log goes to.
	Events string
	// JSON prints simulateDoc.
	JSON bool
	// Batch reads parameter sets as JSON lines from Stdin and answers one JSON line each
	// (runSimulateBatch); Events, JSON and Replicas are then unused.
	Batch bool
	Stdin io.Reader
	// Replicas, when above 0, also judges both configurations on this many perturbed replicas
	// of the run (the configuration's uncertainty model), drawn from ReplicaSeed.
	Replicas    int
	ReplicaSeed uint64
	// Scenario is the question the replicas answer: "like" or "again" (uncertainty.Scenario).
	Scenario string
	// Pretenure names allocation sites the given run allocates in old space (pretenureflag.go).
	Pretenure []string
}

// runSimulate simulates the workload o.Ref at the configured parameters and at the defaults
// (simulateOnce, or runSimulateBatch for parameter sets read from o.Stdin), writing the result to
// w and how the profile was read to ew.
func runSimulate(ctx context.Context, w, ew io.Writer, cfg Config, o simulateOptions) error {
	given, err := cfg.Simulate.Params()
	if err != nil {
		return asUsage(err)
	}
	open, err := cfg.openOptions()
	if err != nil {
		return err
	}
	cost, _, err := loadCostContext(ctx, cfg)
	if err != nil {
		return err
	}
	s := simulation{Ctx: ctx, Stderr: ew, Ref: o.Ref, Open: open,
		Given: given, Default: cfg.Simulate.VMFacts(), Cost: cost}
	if o.Batch {
		return runSimulateBatch(o.Stdin, w, s)
	}
	s.Events, s.JSON, s.Pretenure = o.Events, o.JSON, o.Pretenure
	if len(o.Pretenure) > 0 && o.Replicas > 0 {
		return usageErrorf("--pretenure with --replicas: judge pretenuring on replicas with optimize's advice (docs/sites.md)")
	}
	if o.Replicas < 0 || o.Replicas > uncertainty.MaxReplicas {
		return usageErrorf("--replicas %d: want 0 (none) to %d", o.Replicas, uncertainty.MaxReplicas)
	}
	if o.Replicas > 0 {
		m := cfg.Uncertainty.Effective()
		if cfg.Uncertainty.Off {
			m = uncertainty.Default()
		}
		if m, err = m.ForScenario(o.Replicas, uncertainty.Scenario(o.Scenario)); err != nil {
			return asUsage(err)
		}
		s.Replicas, s.ReplicaSeed = m, o.ReplicaSeed
	}
	return simulateOnce(w, s)
}

// simulation is what simulateOnce and runSimulateBatch simulate: the profile, how to read it, the
// parameters and the cost model.
type simulation struct {
	// Ctx, when set, gives up the wait for a FIFO profile's writer (nil: never).
	Ctx     context.Context
	Ref     string
	Open    source.Options
	Given   heapsim.Params
	Default heapsim.Params
	Cost    heapsim.Cost
	// Events, when set, is the CSV file the given run's event log goes to.
	Events string
	JSON   bool
	// Stderr receives the line about the profile read and its warnings (nil: discarded).
	Stderr io.Writer
	// Replicas, when on, also judges both configurations on its replicas drawn from
	// ReplicaSeed.
	Replicas    uncertainty.Model
	ReplicaSeed uint64
	// Pretenure names the sites the given run pretenures.
	Pretenure []string
}

// simulateDoc is `gctune simulate --json`.
type simulateDoc struct {
	Input   inputDoc       `json:"input"`
	Profile profileInfoDoc `json:"profile"`
	Records int            `json:"records"`
	Default runDoc         `json:"default"`
	Given   runDoc         `json:"given"`
	// Speedup is the default total time over the given total time.
	Speedup float64 `json:"speedup"`
	Events  string  `json:"events,omitempty"`
	// Replicas is the two configurations on perturbed replicas of the run (--replicas).
	Replicas *objective.Spread `json:"replicas,omitempty"`
	// Pretenured says which sites the given run pretenured (--pretenure).
	Pretenured *pretenureDoc `json:"pretenured,omitempty"`
}

// runDoc is one simulated run.
type runDoc struct {
	Params     heapsim.Params `json:"params"`
	Layout     heapsim.Layout `json:"layout"`
	Survivors  uint64         `json:"survivorsToKeep"`
	Proportion float64        `json:"tenuringProportion"`
	Stats      heapsim.Stats  `json:"stats"`
	// Error is set when the run failed (out of memory with a maximum old space).
	Error string `json:"error,omitempty"`
}

// simulateOnce simulates the given parameters and the defaults once each (and on o.Replicas)
// and writes simulateDoc, or its table (printSimulate), to w.
func simulateOnce(w io.Writer, o simulation) error {
	p, info, err := openProfile(o.Ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err)
	}
	doc := simulateDoc{Input: newInputDoc(info, o.Open), Profile: newProfileInfo(info, p), Records: p.Len()}
	given := p
	if len(o.Pretenure) > 0 {
		if given, doc.Pretenured, err = pretenuredProfile(p, o.Pretenure); err != nil {
			return err
		}
	}
	run := func(q *profile.Profile, params heapsim.Params, opts heapsim.Options) runDoc {
		st, err := heapsim.Run(q, params, o.Cost, opts)
		d := runDoc{Params: params, Layout: heapsim.ComputeLayout(params), Survivors: params.SurvivorsToKeep(),
			Proportion: params.TenuringProportion(), Stats: st}
		if err != nil {
			d.Error = err.Error()
		}
		return d
	}
	doc.Default = run(p, o.Default, heapsim.Options{})
	if o.Events != "" {
		err := writeOutput(o.Events, func(f io.Writer) error {
			log, err := eventlog.NewWriter(f)
			if err != nil {
				return err
			}
			doc.Given = run(given, o.Given, heapsim.Options{OnEvent: log.Add})
			return log.Flush()
		})
		if err != nil {
			return fmt.Errorf("--events: %w", err)
		}
		doc.Events = o.Events
	} else {
		doc.Given = run(given, o.Given, heapsim.Options{})
	}
	if doc.Default.Error == "" && doc.Given.Error == "" && doc.Given.Stats.TotalSeconds > 0 {
		doc.Speedup = doc.Default.Stats.TotalSeconds / doc.Given.Stats.TotalSeconds
	}
	if o.Replicas.Replicas > 0 {
		if doc.Replicas, err = objective.JudgeSpread(o.Ref, p, o.Cost, o.Default, o.Given, o.Replicas, o.ReplicaSeed); err != nil {
			return err
		}
	}
	if o.Stderr != nil {
		printProfileInfo(o.Stderr, doc.Profile)
	}
	if o.JSON {
		return writeJSON(w, doc)
	}
	return printSimulate(w, &doc)
}

func printSimulate(w io.Writer, d *simulateDoc) error {
	ew := errwriter.New(w)
	ew.Printf("%s: %s records\n", quoteName(d.Input.Ref), formatCount(uint64(d.Records)))
	if d.Pretenured != nil {
		ew.Printf("%s\n", d.Pretenured.line())
	}
	if d.Input.Rebuild != nil {
		ew.Printf("%s\n", d.Input.Rebuild)
	}
	ew.Printf("\n")
	var rows [][4]string
	row := func(label, a, b string) { rows = append(rows, [4]string{label, a, b, ""}) }
	pr := d.Profile.Profiled
	row("", "default", "given")
	if pr != nil {
		rows[0][3] = "profiled run"
	}
	p0, p1 := d.Default, d.Given
	size := func(n uint64) string { return units.FormatBytes(n) }
	for _, t := range tunable.All() {
		row(fmt.Sprintf("%s (param %d)", t.Label, t.VMParam), tunableCell(t, p0), tunableCell(t, p1))
	}
	row("", "", "")
	s0, s1 := p0.Stats, p1.Stats
	row("scavenges", strconv.Itoa(s0.Scavenges), strconv.Itoa(s1.Scavenges))
	fulls := func(s heapsim.Stats) string {
		return fmt.Sprintf("%d (ratio %d, large %d)", s.FullGCs, s.FullGCsRatio, s.FullGCsLargeAlloc)
	}
	row("full GCs", fulls(s0), fulls(s1))
	if pr != nil {
		rows[len(rows)-2][3] = strconv.Itoa(pr.Scavenges)
		rows[len(rows)-1][3] = strconv.Itoa(pr.FullGCs)
	}
	row("tenured", size(s0.TenuredBytes), size(s1.TenuredBytes))
	row("scavenge time", numfmt.SecondsText(s0.ScavengeSeconds), numfmt.SecondsText(s1.ScavengeSeconds))
	row("full GC time", numfmt.SecondsText(s0.FullGCSeconds), numfmt.SecondsText(s1.FullGCSeconds))
	row("GC time", numfmt.SecondsText(s0.GCSeconds), numfmt.SecondsText(s1.GCSeconds))
	row("total time", numfmt.SecondsText(s0.TotalSeconds), numfmt.SecondsText(s1.TotalSeconds))
	row("GC share", numfmt.PercentText(s0.GCShare), numfmt.PercentText(s1.GCShare))
	row("peak footprint", size(s0.PeakFootprintBytes), size(s1.PeakFootprintBytes))
	wid := columnWidths(rows)
	for _, r := range rows {
		line := fmt.Sprintf("%s  %s  %s", padRight(r[0], wid[0]), padLeft(r[1], wid[1]), padLeft(r[2], wid[2]))
		if pr != nil {
			line += "  " + padLeft(r[3], wid[3])
		}
		ew.Printf("%s\n", strings.TrimRight(line, " "))
	}
	if pr != nil {
		ew.Printf("\nprofiled run: %s\n", terminalSafe(pr.Source))
	}
	for _, r := range []struct {
		name string
		d    runDoc
	}{{"default", p0}, {"given", p1}} {
		if r.d.Error != "" {
			ew.Printf("\n%s run failed: %s\n", r.name, r.d.Error)
		}
	}
	if d.Speedup > 0 {
		ew.Printf("\nspeedup: %s (simulated; cost model calibrated on the published default runs, docs/calibration.md)\n", numfmt.Speedup(d.Speedup))
	}
	if r := d.Replicas; r != nil {
		ew.Printf("on %d perturbed replicas (seed %d): default %s (%s), given %s (%s); speedup %s of the means, %s across the replicas\n",
			len(r.Given), r.Seed, numfmt.SecondsText(r.MeanDefault), recommend.IntervalText(r.DefaultInterval, numfmt.SecondsText), numfmt.SecondsText(r.MeanGiven), recommend.IntervalText(r.GivenInterval, numfmt.SecondsText),
			numfmt.Speedup(r.MeanDefault/r.MeanGiven), numfmt.Range(slices.Min(r.Speedups), slices.Max(r.Speedups), numfmt.Speedup))
	}
	if d.Events != "" {
		ew.Printf("event log: %s\n", quoteName(d.Events))
	}
	return ew.Err()
}

func padLeft(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return strings.Repeat(" ", width-n) + s
	}
	return s
}

// batchParams is one line of --batch input: tunables by their keys in tunable.All, each a
// JSON number or a string as the configuration takes it ("64MiB", "pharo").
type batchParams map[string]json.RawMessage

// apply sets the line's tunables in p, each parsed as a configuration value is
// (tunable.Tunable.ParseAny); an unknown key or a bad value is an error naming it.
func (in batchParams) apply(p *heapsim.Params) error {
	for _, k := range slices.Sorted(maps.Keys(in)) {
		t, ok := tunable.ByKey(k)
		if !ok {
			return fmt.Errorf("unknown field %q (known: %s)", k, strings.Join(tunable.Keys(), ", "))
		}
		var raw any
		if err := json.Unmarshal(in[k], &raw); err != nil {
			return fmt.Errorf("%s %s: want a number or a string", k, in[k])
		}
		switch raw.(type) {
		case nil: // not given
			continue
		case float64, string:
		default:
			return fmt.Errorf("%s %s: want a number or a string", k, in[k])
		}
		v, err := t.ParseAny(raw)
		if err != nil {
			return fmt.Errorf("%s %s: %w", k, in[k], err)
		}
		v.Apply(p)
	}
	return nil
}

// batchResult is one line of --batch output.
type batchResult struct {
	Line    int             `json:"line"`
	Params  *heapsim.Params `json:"params,omitempty"`
	Stats   *heapsim.Stats  `json:"stats,omitempty"`
	Speedup float64         `json:"speedup,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// runSimulateBatch simulates one workload for many parameter sets read from r.
func runSimulateBatch(r io.Reader, w io.Writer, o simulation) error {
	p, info, err := openProfile(o.Ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err)
	}
	def, err := heapsim.Simulate(p, o.Default, o.Cost)
	if err != nil {
		return fmt.Errorf("simulate %s at the defaults: %w", o.Ref, err)
	}
	if o.Stderr != nil {
		printProfileInfo(o.Stderr, newProfileInfo(info, p))
	}
	br := bufio.NewReader(r)
	enc := json.NewEncoder(w)
	line := 0
	for {
		raw, tooLong, err := readBatchLine(br, maxBatchLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("batch input: %w", err)
		}
		if raw == nil && !tooLong && errors.Is(err, io.EOF) {
			break
		}
		line++
		text := strings.TrimSpace(string(raw))
		if text == "" && !tooLong {
			continue
		}
		res := batchResult{Line: line}
		var in batchParams
		params := o.Given
		if tooLong {
			res.Error = fmt.Sprintf("line %d: longer than %d bytes", line, maxBatchLineBytes)
		} else if err := duplicateKey(text); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else if err := json.Unmarshal([]byte(text), &in); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else if err := in.apply(&params); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else {
			st, err := heapsim.Simulate(p, params, o.Cost)
			if err != nil {
				res.Error = fmt.Sprintf("line %d: %v", line, err)
			} else {
				res.Params, res.Stats = &params, &st
				res.Speedup = def.TotalSeconds / st.TotalSeconds
			}
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return nil
}

// tunableCell writes a tunable's value in a run's parameters for the table: sizes in binary
// units, the ratio to 4 digits, survivors to keep as the VM's count with its proportion.
func tunableCell(t tunable.Tunable, r runDoc) string {
	if t.Unit == tunable.UnitProportion { // the count the VM keeps, beside its p
		return fmt.Sprintf("%d (%s)", r.Survivors, t.Format(r.Proportion))
	}
	return t.Format(t.FromParams(r.Params))
}
