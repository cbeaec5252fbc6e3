package study

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// ProfileInfo says how a profile was read: for a FiLiP export the exporter's era, the
// layout, the clock and why, the sampling rate and the GC counts its metadata reported. Every
// command that reads a profile prints its Line (on standard error beside text output) and
// carries it in its --json document.
type ProfileInfo struct {
	Ref          string  `json:"ref"`
	Kind         string  `json:"kind"`
	Era          string  `json:"era,omitempty"`
	Layout       string  `json:"layout,omitempty"`
	Clock        string  `json:"clock"`
	ClockReason  string  `json:"clockReason"`
	SamplingRate float64 `json:"samplingRate"`
	// Profiled are the GC counts of the profiled run as the profile reports them, nil when it
	// does not.
	Profiled *ProfiledRun `json:"profiledRun,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`
	// SimulatedDefault is the simulated run at the VM defaults, where a command simulated it.
	SimulatedDefault *heapsim.Stats `json:"simulatedDefault,omitempty"`
	// Line is the one-line description printed (FormatLine).
	Line string `json:"line"`
}

// ProfiledRun are the GC counts of the run the profile was taken from.
type ProfiledRun struct {
	Scavenges int `json:"scavenges"`
	FullGCs   int `json:"fullGCs"`
	// Source says where they come from and what they are worth.
	Source string `json:"source"`
}

// ProfiledByFiLiP is the Source of counts from FiLiP metadata.
const ProfiledByFiLiP = "FiLiP metadata (totalScavenges, totalFullGCs): the profiled run, slowed and perturbed by the profiler"

// NewProfileInfo describes a profile opened by source.Open, with its Line.
func NewProfileInfo(info *source.Info, p *profile.Profile) ProfileInfo {
	d := ProfileInfo{Ref: info.Ref, Kind: info.Kind, Clock: filip.ClockBytes.String(), SamplingRate: p.Meta.SamplingRate}
	switch info.Kind {
	case source.KindWorkload, source.KindSpec:
		d.ClockReason = "generated on the bytes clock"
		if p.Meta.ReportedScavenges > 0 || p.Meta.ReportedFullGCs > 0 {
			d.Profiled = &ProfiledRun{Scavenges: p.Meta.ReportedScavenges, FullGCs: p.Meta.ReportedFullGCs,
				Source: "the spec's reported run"}
		}
	case source.KindGCProf:
		d.ClockReason = "gctune profiles are on the bytes clock"
	}
	if r := info.FiLiP; r != nil {
		d.Era, d.Layout, d.Clock, d.ClockReason = r.Era, r.Layout, r.Clock.String(), r.ClockReason
		d.SamplingRate = r.SamplingRate
		d.Warnings = r.Warnings
		if c := r.GCCounts; c != nil {
			d.Profiled = &ProfiledRun{Scavenges: c.Scavenges, FullGCs: c.FullGCs, Source: ProfiledByFiLiP}
		}
	}
	d.Line = d.FormatLine()
	return d
}

// FormatLine is the one line every command prints about a profile it read (d.Line, written
// again after a field changed):
//
//	profile run.csv: FiLiP export, era FiLiP (9f1d62e, since 2025-08-04), layout textualAllocatorMethod; clock bytes (...); sampling rate 0.01
func (d ProfileInfo) FormatLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s: ", termtext.Quote(d.Ref))
	switch d.Kind {
	case source.KindFiLiP:
		fmt.Fprintf(&b, "FiLiP export, era %s, layout %s; ", d.Era, d.Layout)
	case source.KindWorkload:
		b.WriteString("bundled workload; ")
	case source.KindSpec:
		b.WriteString("workload spec; ")
	case source.KindGCProf:
		b.WriteString("gctune profile; ")
	}
	fmt.Fprintf(&b, "clock %s (%s); sampling rate %s", d.Clock, d.ClockReason, FormatRate(d.SamplingRate))
	return b.String()
}

// FormatRate writes a sampling rate as 1/N when it is one (0.01 → "1/100"; 1 → "1 (every
// allocation)"), else as a number.
func FormatRate(r float64) string {
	if r <= 0 || r > 1 {
		return fmt.Sprintf("%g", r)
	}
	n := 1 / r
	if k := float64(int64(n + 0.5)); k >= 1 && (n-k)/k < 1e-9 && (k-n)/k < 1e-9 {
		if k == 1 {
			return "1 (every allocation)"
		}
		return fmt.Sprintf("1/%d", int64(k))
	}
	return fmt.Sprintf("%g", r)
}

// WriteText writes the profile's line and then its warnings, one line each, escaped for a
// terminal.
func (d ProfileInfo) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, d.Line); err != nil {
		return err
	}
	for _, m := range d.Warnings {
		if _, err := fmt.Fprintf(w, "warning: %s: %s\n", termtext.Quote(d.Ref), termtext.Safe(m)); err != nil {
			return err
		}
	}
	return nil
}

// WriteProfileInfos writes each profile's line and warnings (WriteText). A sampled export
// searched under two hypotheses is one file read once: its line and warnings are the same,
// and said once.
func WriteProfileInfos(w io.Writer, ds []ProfileInfo) error {
	for i, d := range ds {
		if i > 0 && d.Line == ds[i-1].Line && slices.Equal(d.Warnings, ds[i-1].Warnings) {
			continue
		}
		if err := d.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// WithDefaultRuns returns the profiles with the objective's simulated default runs beside
// them (the problem's workloads are in the same order).
func WithDefaultRuns(ds []ProfileInfo, prob *objective.Problem) []ProfileInfo {
	out := make([]ProfileInfo, len(ds))
	for i, d := range ds {
		if i < len(prob.Workloads()) {
			st := prob.Baseline(i)
			d.SimulatedDefault = &st
		}
		out[i] = d
	}
	return out
}

// ProfiledBeside says how the simulated default run's GC counts compare with the profiled
// run's, for the line beside the default run; "" when the profile reports none.
func ProfiledBeside(d *ProfiledRun, sim *heapsim.Stats) string {
	if d == nil || sim == nil {
		return ""
	}
	return fmt.Sprintf("simulated default run: %d scavenges, %d full GCs; %s: %d scavenges, %d full GCs",
		sim.Scavenges, sim.FullGCs, d.Source, d.Scavenges, d.FullGCs)
}
