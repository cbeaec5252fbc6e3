package diagnose

import (
	"fmt"
	"math"
	"slices"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/tunable"
)

// pathology is one kind of finding the diagnosis can make: how to tell the run shows it, what
// it cost, the evidence sentences and how the remedy counts it. pathologies is the one list of
// them; a new kind is one more row there (and its Kind constant in diagnosis.go).
type pathology struct {
	// kind is the Finding's Kind; title its Title.
	kind, title string
	// present reports whether the run shows the pathology at all (the evidence the finding
	// cites).
	present func(r runResult) bool
	// cost is what the pathology cost in the run, in seconds: continuous in the run's
	// behaviour, not a count of the events past a threshold, so that comparing runs measures a
	// real reduction.
	cost func(r runResult) float64
	// evidence returns the sentences showing it in the default run dr (def its point), which
	// it cost cost seconds.
	evidence func(dr runResult, def tunable.Point, cost float64) []string
	// count says how often the best run and the best with the fixing parameter put back show
	// it: " (3 such full GCs instead of 0)".
	count func(best, back runResult) string
}

// pathologies returns the pathology kinds in the order the findings are made.
func pathologies() []pathology {
	return []pathology{
		pathology{
			kind: KindLargeAllocBursts, title: "Full GCs forced by large allocations that do not fit the free old space",
			// A large-allocation full GC; their time.
			cost:     func(r runResult) float64 { return r.acc.largeSeconds },
			evidence: evidenceLargeAllocBursts,
		}.countedBy(func(r runResult) int { return r.acc.large }, "such full GC", "such full GCs"),
		pathology{
			kind: KindRatioLive, title: "Ratio-triggered full GCs that reclaim little because the data is live",
			// A ratio full GC that found less than lowYieldShare dead; the ratio-triggered full
			// GCs' time weighted by the share of old space they found live (time spent re-marking
			// live data).
			cost:     func(r runResult) float64 { return r.acc.ratioLiveSeconds },
			evidence: evidenceRatioLive,
		}.countedBy(func(r runResult) int { return r.acc.lowYield }, "low-yield ratio full GC", "low-yield ratio full GCs"),
		pathology{
			kind: KindRememberedSet, title: "Scavenges dominated by scanning the remembered set",
			// A scavenge dominated by the remembered set; the time spent scanning it.
			cost:     func(r runResult) float64 { return r.acc.rsSeconds },
			evidence: evidenceRememberedSet,
		}.countedBy(func(r runResult) int { return r.acc.rsDominated }, "dominated scavenge", "dominated scavenges"),
		{
			kind: KindPrematureTenuring, title: "Premature tenuring: objects promoted that die soon after",
			// Short-lived objects tenured; their share of the tenuring time.
			present:  func(r runResult) bool { return r.stats.TenuredShortLivedBytes > 0 },
			cost:     func(r runResult) float64 { return prematureSeconds(r.stats) },
			evidence: evidencePrematureTenuring,
			count: func(best, back runResult) string {
				return fmt.Sprintf(" (%s of short-lived objects tenured instead of %s)", units.FormatBytes(back.stats.TenuredShortLivedBytes), units.FormatBytes(best.stats.TenuredShortLivedBytes))
			},
		},
	}
}

// pathologyOf returns the pathology of kind.
func pathologyOf(kind string) (pathology, bool) {
	for _, p := range pathologies() {
		if p.kind == kind {
			return p, true
		}
	}
	return pathology{}, false
}

// cost returns what the pathology kind cost in the run, in seconds (0 for an unknown kind);
// see pathology.cost.
func (r runResult) cost(kind string) float64 {
	if p, ok := pathologyOf(kind); ok {
		return p.cost(r)
	}
	return 0
}

// present reports whether the run shows the pathology kind at all; see pathology.present.
func (r runResult) present(kind string) bool {
	p, ok := pathologyOf(kind)
	return ok && p.present(r)
}

// evidenceCount describes the pathology's count in the best run and in the run with the
// parameter put back ("" for an unknown kind).
func evidenceCount(kind string, best, back runResult) string {
	if p, ok := pathologyOf(kind); ok {
		return p.count(best, back)
	}
	return ""
}

// countedBy sets p's present and count for a pathology shown by a number of events, n of
// them in a run: one and many name an event and several.
func (p pathology) countedBy(n func(r runResult) int, one, many string) pathology {
	p.present = func(r runResult) bool { return n(r) > 0 }
	p.count = func(best, back runResult) string { return insteadOf(n(back), n(best), one, many) }
	return p
}

// insteadOf says " (3 such full GCs instead of 0)": back of them where the other run has n.
func insteadOf(back, n int, one, many string) string {
	return fmt.Sprintf(" (%s instead of %s)", numfmt.Plural(back, one, many), numfmt.Count(n))
}

// prematureSeconds estimates what premature tenuring cost: the short-lived objects' share of
// the tenuring time (promotion is linear in the bytes and objects tenured). It leaves out the
// full-GC work their garbage causes later, so it is a lower bound.
func prematureSeconds(st heapsim.Stats) float64 {
	if st.TenuredBytes == 0 {
		return 0
	}
	return st.TenureSeconds * float64(st.TenuredShortLivedBytes) / float64(st.TenuredBytes)
}

// evidenceLargeAllocBursts is the evidence of the large-allocation full GCs: how many, how
// they cluster, what they asked for.
func evidenceLargeAllocBursts(dr runResult, def tunable.Point, cost float64) []string {
	a := dr.acc
	st := dr.stats
	req := slices.Clone(a.largeRequests)
	slices.Sort(req)
	var total uint64
	for _, b := range req {
		total += b
	}
	return []string{
		fmt.Sprintf("%s full GCs (%s) ran because an object allocated straight in old space found no free chunk big enough (Pharo's Behavior>>handleFailingBasicNew: then runs a full GC, and grows old space when that frees too little).",
			ofThe(a.large, a.fullGCs), numfmt.PercentText(float64(a.large)/float64(a.fullGCs))),
		burstText(a),
		fmt.Sprintf("The objects asked for %s in all (median %s, largest %s), against a growth headroom of %s.",
			units.FormatBytes(total), units.FormatBytes(req[len(req)/2]), units.FormatBytes(req[len(req)-1]),
			units.FormatBytes(uint64(def.HeadroomBytes))),
		fmt.Sprintf("They cost %s, %s of the default run's GC time.", numfmt.SecondsText(cost), numfmt.PercentText(cost/st.GCSeconds)),
	}
}

// evidenceRatioLive is the evidence of the low-yield ratio-triggered full GCs: how many, what
// they marked and freed.
func evidenceRatioLive(dr runResult, def tunable.Point, cost float64) []string {
	a := dr.acc
	st := dr.stats
	return []string{
		fmt.Sprintf("%s full GCs triggered by the growth ratio (VM parameter 55, checked after each scavenge by SpurMemoryManager>>sufficientSpaceAfterGC:) found less than %s of old space dead.",
			ofThe(a.lowYield, a.ratio), numfmt.PercentText(lowYieldShare)),
		fmt.Sprintf("Together they marked %s of live old objects to free %s (%s of the old space they scanned).",
			units.FormatBytes(a.lowYieldLiveBytes), units.FormatBytes(a.lowYieldReclaimedBytes),
			numfmt.PercentText(float64(a.lowYieldReclaimedBytes)/float64(max(a.lowYieldUsedBytes, 1)))),
		fmt.Sprintf("They took %s; in all, ratio-triggered full GCs spent %s re-marking live data (their time weighted by the share of old space they found live), %s of the default run's GC time.",
			numfmt.SecondsText(a.lowYieldSeconds), numfmt.SecondsText(cost), numfmt.PercentText(cost/st.GCSeconds)),
	}
}

// evidenceRememberedSet is the evidence of the scavenges the remembered set dominated and of
// the set at its largest.
func evidenceRememberedSet(dr runResult, def tunable.Point, cost float64) []string {
	a := dr.acc
	st := dr.stats
	big := ""
	if a.maxRSEntries > 0 && float64(a.maxRSSlots)/a.maxRSEntries >= bigObjectSlots {
		big = ": big old objects that keep receiving young references, rescanned in full at every scavenge while in the set"
		if a.maxRSEntries < 1.5 {
			big = ": one big old object that keeps receiving young references, rescanned in full at every scavenge while in the set"
		}
	}
	return []string{
		fmt.Sprintf("In %s of the %s scavenges (%s), scanning the remembered set took more than half of the scavenge (SpurGenerationScavenger>>scavengeRememberedSetStartingAt:).",
			numfmt.Count(a.rsDominated), numfmt.Count(a.scavenges), numfmt.PercentText(float64(a.rsDominated)/float64(max(a.scavenges, 1)))),
		fmt.Sprintf("At its largest the set held %s with %s slots (%s of pointers)%s.",
			numfmt.Plural(int(math.Round(a.maxRSEntries)), "old object", "old objects"), numfmt.Count64(a.maxRSSlots), units.FormatBytes(a.maxRSSlots*8), big),
		fmt.Sprintf("Scanning it cost %s, %s of all scavenge time and %s of the default run's GC time.",
			numfmt.SecondsText(cost), numfmt.PercentText(cost/max(a.scavengeSeconds, 1e-300)), numfmt.PercentText(cost/st.GCSeconds)),
		rsMembershipText(a),
	}
}

// evidencePrematureTenuring is the evidence of the bytes tenured that died soon after, and of
// why they were tenured.
func evidencePrematureTenuring(dr runResult, def tunable.Point, cost float64) []string {
	st := dr.stats
	return []string{
		fmt.Sprintf("Scavenges tenured %s; %s of it (%s) died within %s of the run after being promoted: short-lived objects that the survivor spaces could not hold, which only a full GC can reclaim.",
			units.FormatBytes(st.TenuredBytes), units.FormatBytes(st.TenuredShortLivedBytes),
			numfmt.PercentText(float64(st.TenuredShortLivedBytes)/float64(max(st.TenuredBytes, 1))), numfmt.PercentText(profile.DefaultLongLivedThreshold)),
		fmt.Sprintf("%s of all tenured bytes overflowed the survivor space; %s were tenured by age (SpurGenerationScavenger>>shouldBeTenured:).",
			units.FormatBytes(st.TenuredBytes-min(st.TenuredByAgeBytes, st.TenuredBytes)), units.FormatBytes(st.TenuredByAgeBytes)),
		fmt.Sprintf("Promoting them cost about %s (their share of the %s spent tenuring), not counting the full-GC work to reclaim them.", numfmt.SecondsText(cost), numfmt.SecondsText(st.TenureSeconds)),
	}
}
