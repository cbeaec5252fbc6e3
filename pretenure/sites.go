package pretenure

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
)

// SitesTable is the sites table of `gctune lifetimes` (docs/sites.md): what each allocation
// site allocates, and the bytes the scavenger copied and then tenured, from one simulation at
// the VM's defaults.
type SitesTable struct {
	// Simulation says where TenuredBytes come from.
	Simulation string `json:"simulation"`
	// Sampled: the profile is a 1/N export, every figure an estimate with its 95 % interval.
	Sampled      bool                    `json:"sampled"`
	SamplingRate float64                 `json:"samplingRate"`
	Rows         []lifetimes.SiteSummary `json:"rows"`
}

// NewSitesTable builds the sites table of p (lifetimes.Sites), nil when p names no sites;
// sampled says p is a sampled export (its figures then get intervals). The bytes tenured by
// site come from heapsim at the VM's defaults: a lifetime rule alone ("older than an eden")
// misses what decides tenuring in Spur (survivor overflow, the tenuring threshold, the full
// GCs' inner scavenges), and the same statistic serves the advice at the tuned parameters.
func NewSitesTable(p *profile.Profile, sampled bool, longLivedThreshold float64) (*SitesTable, error) {
	if !p.HasSites() {
		return nil, nil
	}
	tenured := make([]uint64, len(p.SiteNames))
	fulls := make([]int, len(p.SiteNames))
	onEvent := func(e *heapsim.Event) {
		if e.Kind == heapsim.EventFullGC && e.Cause == heapsim.CauseLargeAlloc {
			if i := sort.Search(p.Len(), func(i int) bool { return p.Birth[i] > e.ClockBytes }) - 1; i >= 0 {
				fulls[p.Site[i]]++
			}
		}
	}
	opts := heapsim.Options{TenuredBytesBySite: tenured, OnEvent: onEvent}
	if _, err := heapsim.Run(p, heapsim.DefaultParams(), heapsim.DefaultCost(), opts); err != nil {
		return nil, fmt.Errorf("sites: the simulation at the defaults: %w", err)
	}
	rows, err := lifetimes.Sites(p, lifetimes.SiteOptions{LongLivedThreshold: longLivedThreshold, Sampled: sampled, TenuredBytes: tenured, LargeAllocFullGCs: fulls})
	if err != nil {
		return nil, err
	}
	return &SitesTable{Simulation: "heapsim at the VM defaults", Sampled: sampled, SamplingRate: p.Meta.SamplingRate, Rows: rows}, nil
}

// WriteText writes the table's first n rows (0: all) as gctune lifetimes prints them, each
// sampled figure with its interval; nothing for a nil table.
func (d *SitesTable) WriteText(w io.Writer, n int) error {
	if d == nil {
		return nil
	}
	rows := d.Rows
	if n > 0 && len(rows) > n {
		rows = rows[:n]
	}
	ew := errwriter.New(w)
	ew.Printf("\nallocation sites by full GCs forced, then bytes tenured by the scavenger, at the defaults (%d of %d)\n", len(rows), len(d.Rows))
	if d.Sampled {
		ew.Printf("  sampled at %g: ± is a 95 %% interval\n", d.SamplingRate)
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	tew := errwriter.New(tw)
	tew.Printf("  SITE\tALLOCATIONS\tBYTES\tAVG LIFETIME\tLONG-LIVED\tDIRECT OLD\tFULL GCS FORCED\tCOPIED THEN TENURED\n")
	pm := func(v, ci float64, f func(float64) string) string {
		if ci == 0 {
			return f(v)
		}
		return f(v) + " ± " + f(ci)
	}
	count := func(v float64) string { return units.FormatCount(uint64(v + 0.5)) }
	bytes := func(v float64) string { return units.FormatBytes(uint64(v + 0.5)) }
	for _, r := range rows {
		tew.Printf("  %s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", termtext.Quote(r.Site),
			pm(float64(r.Objects), r.ObjectsCI95, count), pm(float64(r.Bytes), r.BytesCI95, bytes),
			pm(r.AverageLifetime, r.AverageLifetimeCI95, numfmt.PercentText), pm(r.LongLivedShare, r.LongLivedShareCI95, numfmt.PercentText),
			units.FormatBytes(r.DirectOldBytes), r.LargeAllocFullGCs, pm(float64(r.TenuredBytes), r.TenuredBytesCI95, bytes))
	}
	if tew.Err() != nil {
		return tew.Err()
	}
	return tw.Flush()
}
