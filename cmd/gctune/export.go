package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/studies"
)

// Export formats.
const (
	formatST    = "st"
	formatJSON  = "json"
	formatYAML  = "yaml"
	formatFlags = "flags"
)

// NewExportCmd returns `gctune export`.
func NewExportCmd(ro *rootOptions) *cobra.Command {
	var (
		format string
		trial  int
		pareto bool
		output string
	)
	cmd := &cobra.Command{
		Use:   "export STUDY",
		Short: "Write a study's best configuration, ready to apply in Pharo",
		Long: `Write the best feasible configuration of a study (or --trial N) in one of four formats:

  st     a Pharo startup script: the --edenSize= launch flag (the new-space size only takes
         effect at launch) and Smalltalk vm parameterAt: 25/24/55/6 put: ... for the rest,
         each line saying what it does and its VM parameter number
  json   the parameters, the predicted speedup and footprint, and the study's provenance
  yaml   the same as a gctune configuration file: gctune simulate WORKLOAD --config FILE
  flags  gctune's own flags, to check the prediction with gctune simulate

--pareto lists the trials on the time-versus-footprint front instead.`,
		Example: `  gctune export dataframe-3.1gb --format st > gc.st
  pharo --headless --edenSize=64m My.image st gc.st
  gctune export dataframe-3.1gb --format yaml -o best.yaml && gctune simulate dataframe-3.1gb --config best.yaml
  gctune export dataframe-3.1gb --pareto`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd, ro.configFile)
			if err != nil {
				return err
			}
			if ro.json && !pareto {
				format = formatJSON
			}
			switch format {
			case formatST, formatJSON, formatYAML, formatFlags:
			default:
				return usageErrorf("--format %q: want st, json, yaml or flags", format)
			}
			trialSet := cmd.Flags().Changed("trial")
			return runExport(cmd, cfg, args[0], format, trial, trialSet, pareto, output, ro.json)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", formatST, "st, json, yaml or flags")
	f.IntVar(&trial, "trial", 0, "export this trial number instead of the best")
	f.BoolVar(&pareto, "pareto", false, "list the time-versus-footprint Pareto front")
	f.StringVarP(&output, "output", "o", "", "write to FILE instead of standard output (written whole or not at all)")
	f.String("storage", defaultConfig().Storage, "study database (storage, GCTUNE_STORAGE)")
	bindFlag(cmd, "storage", "storage")
	return cmd
}

// exportDoc is the json format (and the data behind every format).
type exportDoc struct {
	Study        string           `json:"study"`
	Trial        int              `json:"trial"`
	Workloads    []string         `json:"workloads"`
	Parameters   exportParams     `json:"parameters"`
	VMParameters map[string]any   `json:"vmParameters"`
	Predicted    exportPrediction `json:"predicted"`
	Provenance   exportProvenance `json:"provenance"`
}

type exportParams struct {
	EdenBytes           uint64  `json:"edenBytes"`
	HeadroomBytes       uint64  `json:"headroomBytes"`
	ShrinkBytes         uint64  `json:"shrinkBytes"`
	FullGCRatio         float64 `json:"fullGCRatio"`
	SurvivorsProportion float64 `json:"survivorsProportion"`
	SurvivorsToKeep     uint64  `json:"survivorsToKeep"`
}

type exportPrediction struct {
	Speedup            float64 `json:"speedup"`
	Value              float64 `json:"value"`
	DefaultValue       float64 `json:"defaultValue"`
	TotalSeconds       float64 `json:"totalSeconds"`
	GCShare            float64 `json:"gcShare"`
	PeakFootprintBytes uint64  `json:"peakFootprintBytes"`
	Feasible           bool    `json:"feasible"`
}

type exportProvenance struct {
	Storage       string            `json:"storage"`
	Created       string            `json:"created,omitempty"`
	StudyVersion  string            `json:"studyGctuneVersion"`
	ExportVersion string            `json:"exportGctuneVersion"`
	Seed          uint64            `json:"seed"`
	Sampler       string            `json:"sampler"`
	Fingerprints  map[string]string `json:"fingerprints"`
	Note          string            `json:"note"`
}

func runExport(cmd *cobra.Command, cfg Config, name, format string, trialNumber int, trialSet, pareto bool, output string, asJSON bool) error {
	ctx := cmd.Context()
	store, err := openStoreReadOnly(ctx, cfg.Storage)
	if err != nil {
		return err
	}
	defer store.Close()
	id, sp, err := loadProblem(store, name)
	if err != nil {
		return err
	}
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return err
	}
	write := func(fn func(io.Writer) error) error {
		if output == "" {
			return fn(cmd.OutOrStdout())
		}
		return writeOutput(output, fn)
	}
	if pareto {
		front := studies.ParetoFront(trials, search.AttrFootprint)
		if len(front) == 0 {
			return usageErrorf("study %q has no completed feasible trial yet", name)
		}
		return write(func(w io.Writer) error { return printPareto(w, front, sp, asJSON) })
	}
	var t goptuna.FrozenTrial
	if trialSet {
		found := false
		for _, tr := range trials {
			if tr.Number == trialNumber {
				t, found = tr, true
			}
		}
		if !found {
			return usageErrorf("study %q has no trial %d", name, trialNumber)
		}
		if t.State != goptuna.TrialStateComplete {
			return usageErrorf("trial %d of study %q is %s, not complete", trialNumber, name, strings.ToLower(t.State.String()))
		}
	} else {
		var ok bool
		if t, ok = studies.BestTrial(trials); !ok {
			return usageErrorf("study %q has no completed feasible trial yet", name)
		}
	}
	doc, err := newExportDoc(store, id, name, t, sp)
	if err != nil {
		return err
	}
	return write(func(w io.Writer) error {
		switch format {
		case formatJSON:
			return writeJSON(w, doc)
		case formatYAML:
			return writeExportYAML(w, doc, sp)
		case formatFlags:
			return writeExportFlags(w, doc)
		}
		return writeExportST(w, doc, sp)
	})
}

func newExportDoc(store *studies.Store, id int, name string, t goptuna.FrozenTrial, sp *studyProblem) (*exportDoc, error) {
	raw, err := search.PointFromParams(t.Params)
	if err != nil {
		return nil, err
	}
	p := raw.Rounded()
	params := p.Params(sp.VM)
	attrs, _ := store.Storage().GetStudySystemAttrs(id)
	num := func(k string) float64 { v, _ := strconv.ParseFloat(t.UserAttrs[k], 64); return v }
	d := &exportDoc{
		Study: name, Trial: t.Number,
		Parameters: exportParams{
			EdenBytes: params.NewSpaceBytes, HeadroomBytes: params.GrowthHeadroomBytes, ShrinkBytes: params.ShrinkThresholdBytes,
			FullGCRatio: params.FullGCRatio, SurvivorsProportion: p.Proportion, SurvivorsToKeep: params.SurvivorsToKeep(),
		},
		Predicted: exportPrediction{
			Speedup: sp.DefaultValue / t.Value, Value: t.Value, DefaultValue: sp.DefaultValue,
			TotalSeconds: num(search.AttrTotalSeconds), GCShare: num(search.AttrGCShare),
			PeakFootprintBytes: uint64(num(search.AttrFootprint)), Feasible: t.UserAttrs[search.AttrFeasible] != "false",
		},
		Provenance: exportProvenance{
			Storage: store.URL(), Created: attrs[studies.AttrCreated], StudyVersion: sp.Version, ExportVersion: version,
			Seed: sp.Seed, Sampler: sp.Sampler, Fingerprints: map[string]string{},
			Note: "predicted by gctune's Spur simulator (docs/simulator.md, docs/calibration.md); measure it on the real application",
		},
	}
	d.VMParameters = map[string]any{
		"45": d.Parameters.EdenBytes, "25": d.Parameters.HeadroomBytes, "24": d.Parameters.ShrinkBytes,
		"55": d.Parameters.FullGCRatio, "6": d.Parameters.SurvivorsToKeep,
	}
	for _, w := range sp.Workloads {
		d.Workloads = append(d.Workloads, w.Ref)
		d.Provenance.Fingerprints[w.Ref] = w.Fingerprint
	}
	return d, nil
}

// edenFlag writes the size for the VM's --edenSize= flag, which accepts k/m/g suffixes.
func edenFlag(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%dm", n>>20)
	}
	return strconv.FormatUint(n, 10)
}

// smalltalkFloat writes a float as a Smalltalk literal (always with a decimal point).
func smalltalkFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// writeExportST writes the Pharo startup script.
func writeExportST(w io.Writer, d *exportDoc, sp *studyProblem) error {
	ew := &errWriter{w: w}
	p := d.Parameters
	keep := fmt.Sprintf("tenure by age the oldest %.0f %% of the survivor space once it fills past 90 %%", 100*(1-math.Min(p.SurvivorsProportion, 1)))
	if p.SurvivorsProportion >= 1 {
		keep = "keep all survivors: tenure only what overflows the survivor space"
	}
	ew.printf("\"gctune: GC parameters for %s (study %s, trial %d).\n", strings.Join(d.Workloads, ", "), d.Study, d.Trial)
	ew.printf(" Predicted (simulated): %.2fx faster than the defaults, GC share %.1f %%, peak footprint %s.\n",
		d.Predicted.Speedup, 100*d.Predicted.GCShare, units.FormatBytes(d.Predicted.PeakFootprintBytes))
	ew.printf("\n The new-space (eden) size, VM parameter 45, only takes effect when the VM starts:\n")
	ew.printf(" launch the image with the flag --edenSize=%s, for example\n", edenFlag(p.EdenBytes))
	ew.printf("     pharo --headless --edenSize=%s My.image st this-script.st\n", edenFlag(p.EdenBytes))
	ew.printf(" (or make it permanent: Smalltalk vm parameterAt: 45 put: %d, save the image, restart).\n", p.EdenBytes)
	ew.printf("\n The lines below set the other parameters. Run them after the session has started (as\n")
	ew.printf(" an st script on the command line, or from a startup action): Pharo rewrites parameter 6\n")
	ew.printf(" at every session start and image save, so run them again after saving the image.\"\n\n")
	ew.printf("Smalltalk vm parameterAt: 25 put: %d. \"growth headroom in bytes (VM parameter 25): free old space kept after a scavenge, and the smallest segment added: %s\"\n",
		p.HeadroomBytes, units.FormatBytes(p.HeadroomBytes))
	ew.printf("Smalltalk vm parameterAt: 24 put: %d. \"shrink threshold in bytes (VM parameter 24): return empty segments to the OS when more than %s is free\"\n",
		p.ShrinkBytes, units.FormatBytes(p.ShrinkBytes))
	ew.printf("Smalltalk vm parameterAt: 55 put: %s. \"full GC ratio (VM parameter 55): run a full GC after a scavenge once old space grew by %.0f %% since the last one\"\n",
		smalltalkFloat(p.FullGCRatio), 100*p.FullGCRatio)
	ew.printf("Smalltalk vm parameterAt: 6 put: %d. \"survivors to keep (VM parameter 6), in 64-byte units of the %s survivor space: %s\"\n",
		p.SurvivorsToKeep, units.FormatBytes(heapsim.ComputeLayout(search.Point{NewSpaceBytes: float64(p.EdenBytes)}.Params(sp.VM)).SurvivorBytes), keep)
	return ew.err
}

// writeExportYAML writes a gctune configuration file holding the parameters and provenance.
func writeExportYAML(w io.Writer, d *exportDoc, sp *studyProblem) error {
	sim := simulateConfigFrom(sp.VM)
	sim.Eden = units.Bytes(d.Parameters.EdenBytes)
	sim.Headroom = units.Bytes(d.Parameters.HeadroomBytes)
	sim.Shrink = units.Bytes(d.Parameters.ShrinkBytes)
	sim.Ratio = d.Parameters.FullGCRatio
	sim.SurvivorsProportion = strconv.FormatFloat(d.Parameters.SurvivorsProportion, 'g', -1, 64)
	doc := map[string]any{
		"simulate": map[string]any{
			"eden": mibString(uint64(sim.Eden)), "headroom": mibString(uint64(sim.Headroom)), "shrink": mibString(uint64(sim.Shrink)), "ratio": sim.Ratio,
			"survivors_proportion": sim.SurvivorsProportion, "stack_pages": sim.StackPages, "page_size": uint64(sim.PageSize),
			"max_old_space": uint64(sim.MaxOldSpace), "image_size": uint64(sim.ImageSize), "bug588": sim.Bug588,
		},
		"provenance": map[string]any{
			"study": d.Study, "trial": d.Trial, "workloads": strings.Join(d.Workloads, ", "),
			"predicted_speedup": d.Predicted.Speedup, "peak_footprint": units.FormatBytes(d.Predicted.PeakFootprintBytes),
			"gctune_version": version,
		},
	}
	ew := &errWriter{w: w}
	ew.printf("# gctune configuration exported from study %s, trial %d (%s).\n", d.Study, d.Trial, d.Provenance.Storage)
	ew.printf("# Load it with: gctune simulate %s --config FILE\n", strings.Join(d.Workloads, " "))
	if ew.err != nil {
		return ew.err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}

// writeExportFlags writes gctune simulate's flags for the configuration.
func writeExportFlags(w io.Writer, d *exportDoc) error {
	p := d.Parameters
	_, err := fmt.Fprintf(w, "--eden %s --headroom %s --shrink %s --ratio %s --survivors-proportion %s\n",
		mibString(p.EdenBytes), mibString(p.HeadroomBytes), mibString(p.ShrinkBytes), strconv.FormatFloat(p.FullGCRatio, 'g', -1, 64),
		strconv.FormatFloat(p.SurvivorsProportion, 'g', -1, 64))
	return err
}

// mibString writes a byte count as whole MiB when it is one ("710MiB"), else as bytes.
func mibString(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return strconv.FormatUint(n, 10)
}

// paretoRow is one trial of the front.
type paretoRow struct {
	Trial              int          `json:"trial"`
	Value              float64      `json:"value"`
	Speedup            float64      `json:"speedup"`
	PeakFootprintBytes uint64       `json:"peakFootprintBytes"`
	Point              search.Point `json:"point"`
}

func printPareto(w io.Writer, front []goptuna.FrozenTrial, sp *studyProblem, asJSON bool) error {
	rows := make([]paretoRow, 0, len(front))
	for _, t := range front {
		raw, _ := search.PointFromParams(t.Params)
		p := raw.Rounded()
		fp, _ := strconv.ParseUint(t.UserAttrs[search.AttrFootprint], 10, 64)
		rows = append(rows, paretoRow{Trial: t.Number, Value: t.Value, Speedup: sp.DefaultValue / t.Value, PeakFootprintBytes: fp, Point: p})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Value < rows[j].Value })
	if asJSON {
		return writeJSON(w, rows)
	}
	ew := &errWriter{w: w}
	ew.printf("time-versus-footprint front: each trial is faster than every trial with a smaller footprint\n\n")
	ew.printf("%6s  %9s  %14s  %s\n", "trial", "speedup", "peak footprint", "configuration")
	for _, r := range rows {
		ew.printf("%6d  %8.2fx  %14s  %s\n", r.Trial, r.Speedup, units.FormatBytes(r.PeakFootprintBytes), describePoint(r.Point))
	}
	ew.printf("\nexport one with: gctune export STUDY --trial N\n")
	return ew.err
}
