package pretenure

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
)

// WorkloadSites attributes the GC cost of one workload's run at the defaults to its
// allocation sites (docs/sites.md): who forced the full GCs that allocation failures ran,
// whose objects the scavenger copied and then tenured, and which containers the remembered set
// scanned.
type WorkloadSites struct {
	Workload string     `json:"workload"`
	Sites    []SiteCost `json:"sites"`
	// RSScanSeconds is the run's remembered-set scanning, which the containers cause.
	RSScanSeconds float64 `json:"rsScanSeconds"`
}

// SiteCost is one site's share of the cost, with the evidence.
type SiteCost struct {
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

// Attribute simulates each workload of prob that names sites at the defaults (prob.Base())
// and attributes the cost by site: the sites that forced full GCs first, then by their share
// of what entered old space; sites below 1 % of it that forced none and hold no container are
// left out. Nil when no workload names sites.
func Attribute(prob *objective.Problem) ([]WorkloadSites, error) {
	var out []WorkloadSites
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
			if i := sort.Search(p.Len(), func(i int) bool { return p.Birth[i] > e.ClockBytes }) - 1; i >= 0 {
				fulls[p.Site[i]]++
			}
		}
		st, err := heapsim.Run(p, prob.Base(), prob.Cost(), heapsim.Options{OnEvent: onEvent, TenuredBytesBySite: tenured})
		if err != nil {
			return nil, fmt.Errorf("pretenure: workload %q at the defaults: %w", w.Name, err)
		}
		entries := make([]SiteCost, len(p.SiteNames))
		var old float64
		for i := range p.Len() {
			if profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]) {
				b := uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
				entries[p.Site[i]].DirectOldBytes += b
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
		d := WorkloadSites{Workload: w.Name, RSScanSeconds: st.RSScanSeconds}
		for _, e := range entries {
			if old > 0 {
				e.OldShare = (float64(e.DirectOldBytes) + float64(e.TenuredBytes)) / old
			}
			if e.LargeAllocFullGCs > 0 || e.OldShare >= 0.01 || e.ContainerSlots > 0 {
				d.Sites = append(d.Sites, e)
			}
		}
		slices.SortStableFunc(d.Sites, func(a, b SiteCost) int {
			if c := cmp.Compare(b.LargeAllocFullGCs, a.LargeAllocFullGCs); c != 0 {
				return c
			}
			return cmp.Compare(b.OldShare, a.OldShare)
		})
		out = append(out, d)
	}
	return out, nil
}
