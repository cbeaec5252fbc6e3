package simulate

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// WriteText writes the report as the papers' table: the tunables and the figures of the
// default and given runs side by side (and the profiled run's GC counts where the profile
// reports them), then the failures, the speedup, the replicas and the event log.
func (d *Report) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	ew.Printf("%s: %s records\n", termtext.Quote(d.Input.Ref), units.FormatCount(uint64(d.Records)))
	if d.Pretenured != nil {
		ew.Printf("%s\n", d.Pretenured.Line())
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
		row(fmt.Sprintf("%s (param %d)", t.Label, t.VMParam), TunableCell(t, p0), TunableCell(t, p1))
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
	var wid [4]int
	for _, r := range rows {
		for i, c := range r {
			wid[i] = max(wid[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%s  %s  %s", termtext.PadRight(r[0], wid[0]), termtext.PadLeft(r[1], wid[1]), termtext.PadLeft(r[2], wid[2]))
		if pr != nil {
			line += "  " + termtext.PadLeft(r[3], wid[3])
		}
		ew.Printf("%s\n", strings.TrimRight(line, " "))
	}
	if pr != nil {
		ew.Printf("\nprofiled run: %s\n", termtext.Safe(pr.Source))
	}
	for _, r := range []struct {
		name string
		d    Run
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
		ew.Printf("event log: %s\n", termtext.Quote(d.Events))
	}
	return ew.Err()
}

// TunableCell writes a tunable's value in a run's parameters for the table: sizes in binary
// units, the ratio to 4 digits, survivors to keep as the VM's count with its proportion.
func TunableCell(t tunable.Tunable, r Run) string {
	if t.Unit == tunable.UnitProportion { // the count the VM keeps, beside its p
		return fmt.Sprintf("%d (%s)", r.Survivors, t.Format(r.Proportion))
	}
	return t.Format(t.FromParams(r.Params))
}
