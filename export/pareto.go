package export

import (
	"io"
	"sort"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// ParetoRow is one trial of the time-versus-footprint front (`gctune export --pareto`).
type ParetoRow struct {
	Trial              int           `json:"trial"`
	Value              float64       `json:"value"`
	Speedup            float64       `json:"speedup"`
	PeakFootprintBytes uint64        `json:"peakFootprintBytes"`
	Point              tunable.Point `json:"point"`
}

// Pareto is the front's trials (trialattr.ParetoFront) as rows, fastest first, each with its
// speedup over defaultValue and its configuration rounded as exported.
func Pareto(front []goptuna.FrozenTrial, defaultValue float64) []ParetoRow {
	rows := make([]ParetoRow, 0, len(front))
	for _, t := range front {
		raw, _ := tunable.PointFromParams(t.Params)
		rows = append(rows, ParetoRow{Trial: t.Number, Value: t.Value, Speedup: defaultValue / t.Value,
			PeakFootprintBytes: trialattr.TrialMetrics(t).PeakFootprintBytes, Point: raw.Rounded()})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Value < rows[j].Value })
	return rows
}

// WriteParetoText writes the front of study name as a table, with how to export one of its
// trials.
func WriteParetoText(w io.Writer, rows []ParetoRow, name string) error {
	ew := errwriter.New(w)
	ew.Printf("time-versus-footprint front: each trial is faster than every trial with a smaller footprint\n\n")
	ew.Printf("%6s  %9s  %14s  %s\n", "trial", "speedup", "peak footprint", "configuration")
	for _, r := range rows {
		ew.Printf("%6d  %8.2fx  %14s  %s\n", r.Trial, r.Speedup, units.FormatBytes(r.PeakFootprintBytes), recommend.DescribePoint(r.Point))
	}
	ew.Printf("\nexport one with: gctune export %s --trial N\n", ShellQuote(name))
	return ew.Err()
}
