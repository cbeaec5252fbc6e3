package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/recommend"
)

// siteCostDoc attributes the GC cost of one workload's run at the defaults to its allocation
// sites (docs/sites.md): who forced the full GCs that allocation failures ran, whose objects
// the scavenger copied and then tenured, and which containers the remembered set scanned.
type siteCostDoc struct {
	Workload string          `json:"workload"`
	Sites    []siteCostEntry `json:"sites"`
	// RSScanSeconds is the run's remembered-set scanning, which the containers cause.
	RSScanSeconds float64 `json:"rsScanSeconds"`
}

// siteCostEntry is one site's share of the cost, with the evidence.
type siteCostEntry struct {
	Site string `json:"site"`
	// LargeAllocFullGCs are the full GCs run because one of its objects, allocated straight
	// into old space, found no free chunk (heapsim's CauseLargeAlloc events, by the record
	// allocating at the event's clock).
	LargeAllocFullGCs int `json:"largeAllocFullGCs"`
	// DirectOldBytes are its bytes allocated straight into old space; TenuredBytes those the
	// scavenger copied and then tenured.
	DirectOldBytes uint64 `json:"directOldBytes"`
	TenuredBytes   uint64 `json:"tenuredBytes"`
	// OldShare is its share of all the bytes that entered old space (direct and tenured):
	// what the full-GC ratio counts.
	OldShare float64 `json:"oldShare"`
	// ContainerSlots are the slots of its containers (Profile.Containers), which the
	// remembered set scans while they hold young objects.
	ContainerSlots uint64 `json:"containerSlots,omitempty"`
}

// siteCosts simulates each workload of prob that names sites at the defaults and attributes
// the cost by site; nil when none does.
func siteCosts(prob *objective.Problem) ([]siteCostDoc, error) {
	var out []siteCostDoc
	for _, w := range prob.Workloads() {
		p := w.Profile
		if !p.HasSites() {
			continue
		}
		tenured := make([]uint64, len(p.SiteNames))
		fulls := make([]int, len(p.SiteNames))
		onEvent := func(e *heapsim.Event) {
			if e.Kind != heapsim.EventFullGC || e.Cause != heapsim.CauseLargeAlloc {
				return
			}
			i := sort.Search(p.Len(), func(i int) bool { return p.Birth[i] > e.ClockBytes }) - 1
			if i >= 0 {
				fulls[p.Site[i]]++
			}
		}
		st, err := heapsim.Run(p, prob.Base(), prob.Cost(), heapsim.Options{OnEvent: onEvent, TenuredBytesBySite: tenured})
		if err != nil {
			return nil, fmt.Errorf("sites: workload %q at the defaults: %w", w.Name, err)
		}
		entries := make([]siteCostEntry, len(p.SiteNames))
		var old float64
		for i := range p.Len() {
			e := &entries[p.Site[i]]
			if profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]) {
				b := uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
				e.DirectOldBytes += b
				old += float64(b)
			}
		}
		for _, c := range p.Containers {
			entries[p.Site[c.Record]].ContainerSlots += uint64(profile.SlotsOf(p.SizeBytes[c.Record]))
		}
		for s := range entries {
			entries[s].Site = p.SiteNames[s]
			entries[s].TenuredBytes = tenured[s]
			entries[s].LargeAllocFullGCs = fulls[s]
			old += float64(tenured[s])
		}
		d := siteCostDoc{Workload: w.Name, RSScanSeconds: st.RSScanSeconds}
		for _, e := range entries {
			if old > 0 {
				e.OldShare = (float64(e.DirectOldBytes) + float64(e.TenuredBytes)) / old
			}
			if e.LargeAllocFullGCs > 0 || e.OldShare >= 0.01 || e.ContainerSlots > 0 {
				d.Sites = append(d.Sites, e)
			}
		}
		slices.SortStableFunc(d.Sites, func(a, b siteCostEntry) int {
			if c := cmp.Compare(b.LargeAllocFullGCs, a.LargeAllocFullGCs); c != 0 {
				return c
			}
			return cmp.Compare(b.OldShare, a.OldShare)
		})
		out = append(out, d)
	}
	return out, nil
}

// writeSiteCosts writes the attribution and the pretenuring advice (nil: none) as text.
func writeSiteCosts(w io.Writer, docs []siteCostDoc, adv *pretenure.Advice) error {
	if len(docs) == 0 {
		return nil
	}
	ew := errwriter.New(w)
	for _, d := range docs {
		ew.Printf("\nWhere the GC cost comes from at the defaults, by allocation site (%s):\n", quoteName(d.Workload))
		for _, e := range d.Sites {
			ew.Printf("  %s:", quoteName(e.Site))
			if e.LargeAllocFullGCs > 0 {
				ew.Printf(" forces %d full GCs (its objects go straight to old space and find no free chunk);", e.LargeAllocFullGCs)
			}
			if e.TenuredBytes > 0 {
				ew.Printf(" %s copied by the scavenger then tenured;", units.FormatBytes(e.TenuredBytes))
			}
			if e.DirectOldBytes > 0 {
				ew.Printf(" %s straight into old space;", units.FormatBytes(e.DirectOldBytes))
			}
			ew.Printf(" %s of what enters old space, which the full-GC ratio counts", formatPercent(e.OldShare))
			if e.ContainerSlots > 0 {
				ew.Printf("; its containers (%s slots) stay in the remembered set while they hold young objects (remembered-set scans %.3g s in all)",
					formatCount(e.ContainerSlots), d.RSScanSeconds)
			}
			ew.Printf("\n")
		}
	}
	if adv == nil || ew.Err() != nil {
		return ew.Err()
	}
	ew.Printf("\nPretenuring on top of the recommendation (%s):\n", pretenure.Note)
	advised := adv.Advised()
	if len(advised) == 0 {
		for _, c := range adv.Candidates {
			ew.Printf("  %s: %.3fx (%.3fx to %.3fx), not above the %s tolerance\n", quoteName(c.Sites[0]), c.Gain, c.Interval.Lo, c.Interval.Hi, formatPercent(adv.Tolerance))
		}
		ew.Printf("  no change advised\n")
		return ew.Err()
	}
	for _, c := range advised {
		ew.Printf("  %.3fx faster (%.3fx to %.3fx over %d replicas; full GCs %d → %d): %s\n", c.Gain, c.Interval.Lo, c.Interval.Hi,
			len(c.Gains), c.FullGCs, c.FullGCsPretenured, c.Change)
	}
	return ew.Err()
}

// explainSites is what explain adds for a study whose workloads name sites: the attribution at
// the defaults and, with a recommendation, the pretenuring advice on top of it (judged on the
// study's own replicas). Both nil when no workload names sites.
func explainSites(prob *objective.Problem, rec *recommend.Recommendation) ([]siteCostDoc, *pretenure.Advice, error) {
	docs, err := siteCosts(prob)
	if err != nil || len(docs) == 0 {
		return nil, nil, err
	}
	if rec == nil {
		return docs, nil, nil
	}
	adv, err := pretenure.Advise(prob, rec.Point.Params(prob.Base()), pretenure.Options{})
	if err != nil {
		return nil, nil, err
	}
	return docs, adv, nil
}
