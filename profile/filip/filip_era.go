package filip

import (
	"fmt"
	"slices"
	"strings"
)

// Names of the CSV layouts Read knows, as Report.Layout reports them. Every layout
// starts with the same six columns (finalizationTimeInMicroSeconds, sizeInBytes,
// initializationTimeInMicroSeconds, allocatedObjectClass, survivedScavenges, survivedFullGCs);
// the name says what follows. The exporter commit that introduced each is in filipEras.
const (
	// LayoutCurrent ends in textualAllocatorMethod, textualAllocatorMethodOffset (FiLiP,
	// since 2025-08-04, 9f1d62e).
	LayoutCurrent = "textualAllocatorMethod"
	// LayoutAllocatorMethod ends in allocatorMethod, allocatorMethodByte (Illimani v1.2,
	// since 2024-09-24, 29404af).
	LayoutAllocatorMethod = "allocatorMethod"
	// LayoutForcedFinalization ends in forcedFinalization (true/false): Illimani v1.0 and
	// v1.1, and before them with the 6th column spelt survivedFullGC (4ffe1bc).
	LayoutForcedFinalization = "forcedFinalization"
	// LayoutForcedAllocatorClassMethod ends in forcedFinalization, allocatorClass,
	// allocatorMethod (development, 2024-04-10, a2e61ff).
	LayoutForcedAllocatorClassMethod = "forcedFinalization,allocatorClass,allocatorMethod"
	// LayoutForcedAllocationSite ends in forcedFinalization, allocationSite (development,
	// 2024-08-21, 4dcd239, to 2024-09-12).
	LayoutForcedAllocationSite = "forcedFinalization,allocationSite"
	// LayoutForcedAllocatorMethod ends in forcedFinalization, allocatorMethod (development,
	// 2024-09-12, c5c46f5).
	LayoutForcedAllocatorMethod = "forcedFinalization,allocatorMethod"
	// LayoutForcedAllocatorMethodClassByte ends in forcedFinalization, allocatorMethod,
	// allocatorClass, allocatorMethodByte (development, 2024-09-16, 330a870).
	LayoutForcedAllocatorMethodClassByte = "forcedFinalization,allocatorMethod,allocatorClass,allocatorMethodByte"
	// LayoutForcedAllocatorMethodByte ends in forcedFinalization, allocatorMethod,
	// allocatorMethodByte (development, 2024-09-18, d1a591b).
	LayoutForcedAllocatorMethodByte = "forcedFinalization,allocatorMethod,allocatorMethodByte"
)

// Column indices in a row. Layouts with forcedFinalization have it at colSite; the allocation
// site columns (never parsed) follow.
const (
	colDeath = iota
	colSize
	colBirth
	colClass
	colScavenges
	colFullGCs
	colSite
	colSiteOffset
)

// filipLayout is one CSV layout: its header and how its rows split.
type filipLayout struct {
	name    string
	columns []string
	// forced: column 7 is forcedFinalization (true/false).
	forced bool
	// site is the number of allocation-site columns after the first six (and after
	// forcedFinalization). Exactly one of them, a method's printString, may hold commas (a
	// selector such as #, is not escaped): a row of this layout has at least site-1 commas
	// after column 6 (or column 7 with forcedFinalization), and exactly that many if site is 0.
	site int
}

// filipFirstColumns are the six columns every layout starts with, as the exporter spells them
// since v1.0.0; before (4ffe1bc), the sixth was survivedFullGC.
var filipFirstColumns = [...]string{"finalizationTimeInMicroSeconds", "sizeInBytes", "initializationTimeInMicroSeconds",
	"allocatedObjectClass", "survivedScavenges", "survivedFullGCs"}

// filipLayouts returns every layout Read reads, in the order the exporter introduced them
// (newest first).
func filipLayouts() []filipLayout {
	mk := func(name string, forced bool, rest ...string) filipLayout {
		cols := append(slices.Clone(filipFirstColumns[:]), rest...)
		site := len(rest)
		if forced {
			site--
		}
		return filipLayout{name: name, columns: cols, forced: forced, site: site}
	}
	return []filipLayout{
		mk(LayoutCurrent, false, "textualAllocatorMethod", "textualAllocatorMethodOffset"),
		mk(LayoutAllocatorMethod, false, "allocatorMethod", "allocatorMethodByte"),
		mk(LayoutForcedAllocatorMethodByte, true, "forcedFinalization", "allocatorMethod", "allocatorMethodByte"),
		mk(LayoutForcedAllocatorMethodClassByte, true, "forcedFinalization", "allocatorMethod", "allocatorClass", "allocatorMethodByte"),
		mk(LayoutForcedAllocatorMethod, true, "forcedFinalization", "allocatorMethod"),
		mk(LayoutForcedAllocationSite, true, "forcedFinalization", "allocationSite"),
		mk(LayoutForcedAllocatorClassMethod, true, "forcedFinalization", "allocatorClass", "allocatorMethod"),
		mk(LayoutForcedFinalization, true, "forcedFinalization"),
	}
}

// matchLayout finds the layout whose header is names (case-insensitive). oldSpelling reports
// that the sixth column is spelt survivedFullGC, as the exporter wrote it before v1.0.0.
func matchLayout(names []string) (l filipLayout, oldSpelling, ok bool) {
	for _, l := range filipLayouts() {
		if len(names) != len(l.columns) {
			continue
		}
		if slices.EqualFunc(names, l.columns, strings.EqualFold) {
			return l, false, true
		}
		if strings.EqualFold(names[colFullGCs], "survivedFullGC") && slices.EqualFunc(names[:colFullGCs], l.columns[:colFullGCs], strings.EqualFold) &&
			slices.EqualFunc(names[colFullGCs+1:], l.columns[colFullGCs+1:], strings.EqualFold) {
			return l, true, true
		}
	}
	return filipLayout{}, false, false
}

// filipEra is one period of the exporter's history with its own files: the layout it wrote,
// the profiler classes whose name the metadata carries, the clock of its timestamps and of
// totalExecutionTime, and the spelling of its sampling rate key. Read from the exporter's
// source, github.com/jordanmontt/illimani-memory-profiler (see docs/filip.md).
type filipEra struct {
	name        string   // as Report.Era reports it
	layout      string   // a Layout* name
	oldSpelling bool     // the sixth column is survivedFullGC
	profilers   []string // class names the metadata's profiler key holds
	clock       Clock
	sampligRate bool // the rate's key may be sampligRate (it was until e88d1d2, 2024-03-13)
}

// filipEras lists the eras, oldest first. Before 2024-08-27 (395d06e) the exporter stamped
// Time primUTCMicrosecondsClock (absolute microseconds since 1901); since, VM parameter 34
// (bytes allocated since the VM started) although the headers still say microseconds.
var filipEras = []filipEra{
	{name: "Illimani 2024-02 (4ffe1bc, survivedFullGC spelling)", layout: LayoutForcedFinalization, oldSpelling: true,
		profilers: []string{"IllFinalizationProfiler"}, clock: ClockMicros, sampligRate: true},
	{name: "Illimani v1.0-v1.1 (1a4a395, 2024-02-24 to 2024-08-21)", layout: LayoutForcedFinalization,
		profilers: []string{"IllFinalizationProfiler", "IllObjectLifetimesProfiler"}, clock: ClockMicros, sampligRate: true},
	{name: "Illimani development 2024-04-10 (a2e61ff)", layout: LayoutForcedAllocatorClassMethod,
		profilers: []string{"IllAllocationSitePlusFinalizationProfiler"}, clock: ClockMicros},
	{name: "Illimani development 2024-08-21 (4dcd239)", layout: LayoutForcedAllocationSite,
		profilers: []string{"IllObjectLifetimesProfiler"}, clock: ClockMicros},
	{name: "Illimani development 2024-08-21 (5f26563, before the bytes clock)", layout: LayoutForcedAllocationSite,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockMicros},
	{name: "Illimani development 2024-08-27 (395d06e, bytes clock)", layout: LayoutForcedAllocationSite,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockBytes},
	{name: "Illimani development 2024-09-12 (c5c46f5)", layout: LayoutForcedAllocatorMethod,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockBytes},
	{name: "Illimani development 2024-09-16 (330a870)", layout: LayoutForcedAllocatorMethodClassByte,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockBytes},
	{name: "Illimani development 2024-09-18 (d1a591b)", layout: LayoutForcedAllocatorMethodByte,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockBytes},
	{name: "Illimani v1.2 (29404af, 2024-09-24 to 2025-08-04)", layout: LayoutAllocatorMethod,
		profilers: []string{"IllMemoryProfiler"}, clock: ClockBytes},
	{name: "FiLiP (9f1d62e, since 2025-08-04)", layout: LayoutCurrent,
		profilers: []string{"FiLiP"}, clock: ClockBytes},
}

// Pharo's Time primUTCMicrosecondsClock counts microseconds since 1901-01-01 UTC: about
// 3.87 × 10^15 in 2024. Every microsecond era stamped that absolute clock, so its timestamps lie
// in [filipUTCMicrosMin, filipUTCMicrosMax] (the years 1996 to 2059); a bytes clock (parameter
// 34, bytes allocated since the VM started) would have to have counted 3 PB to get there.
const (
	filipUTCMicrosMin = 3.0e15
	filipUTCMicrosMax = 5.0e15
)

// eraEvidence is what the files say about their era.
type eraEvidence struct {
	layout      string
	oldSpelling bool
	profiler    string // the metadata's profiler, "" if absent
	sampligRate bool   // the metadata spells the rate sampligRate
	minTime     float64
	maxTime     float64 // over births and non-empty deaths
}

// eraDecision is detectEra's answer.
type eraDecision struct {
	era      string // the era, or the candidate eras joined by " or "
	clock    Clock
	reason   string
	warnings []string
}

// utcMicros reports whether every timestamp lies in the band of Pharo's absolute UTC
// microsecond clock.
func (ev eraEvidence) utcMicros() bool {
	return ev.minTime >= filipUTCMicrosMin && ev.maxTime <= filipUTCMicrosMax
}

// detectEra tells the era, and so the clock, from the evidence: the layout (with the sixth
// column's spelling) selects the eras that wrote it; the rate key's spelling and the profiler's
// class name narrow them. When the remaining eras share a clock, that is the clock. When they
// do not (the forcedFinalization,allocationSite layout written by IllMemoryProfiler, on the
// microsecond clock from 5f26563 and on the bytes clock from 395d06e), the timestamps decide:
// every microsecond era stamped Pharo's absolute UTC microsecond clock, so timestamps outside
// its band cannot be microseconds. totalExecutionTime is never evidence: it is on the same
// clock as the timestamps in every era.
func detectEra(ev eraEvidence) eraDecision {
	var cands []filipEra
	for _, e := range filipEras {
		if e.layout == ev.layout && e.oldSpelling == ev.oldSpelling {
			cands = append(cands, e)
		}
	}
	var d eraDecision
	var why []string
	why = append(why, fmt.Sprintf("layout %s", ev.layout))
	if ev.oldSpelling {
		why[0] += " with survivedFullGC"
	}
	if ev.sampligRate {
		var k []filipEra
		for _, e := range cands {
			if e.sampligRate {
				k = append(k, e)
			}
		}
		if len(k) > 0 {
			why = append(why, "metadata key sampligRate (until 2024-03-13)")
			cands = k
		} else {
			d.warnings = append(d.warnings, fmt.Sprintf("the metadata key sampligRate (written until 2024-03-13) does not go with layout %s (written later)", ev.layout))
		}
	}
	if ev.profiler != "" {
		var k []filipEra
		for _, e := range cands {
			if slices.Contains(e.profilers, ev.profiler) {
				k = append(k, e)
			}
		}
		if len(k) > 0 {
			why = append(why, "profiler "+ev.profiler)
			cands = k
		} else {
			d.warnings = append(d.warnings, fmt.Sprintf("profiler %q never wrote layout %s: the layout decides the era", ev.profiler, ev.layout))
		}
	}
	clocks := map[Clock]bool{}
	names := make([]string, len(cands))
	for i, e := range cands {
		clocks[e.clock] = true
		names[i] = e.name
	}
	d.era = strings.Join(names, " or ")
	switch {
	case len(clocks) == 1:
		d.clock = cands[0].clock
		d.reason = strings.Join(why, ", ") + ": " + eraClockWords(d.clock)
	case ev.utcMicros():
		d.clock = ClockMicros
		d.reason = strings.Join(why, ", ") + fmt.Sprintf(" were written on both clocks; the timestamps (%.4g to %.4g) lie in the band of Pharo's absolute UTC microsecond clock: microseconds", ev.minTime, ev.maxTime)
	default:
		d.clock = ClockBytes
		d.reason = strings.Join(why, ", ") + fmt.Sprintf(" were written on both clocks; the timestamps (%.4g to %.4g) are not Pharo's absolute UTC microsecond clock (about 3.9e15), which every microsecond era stamped: bytes", ev.minTime, ev.maxTime)
	}
	if len(clocks) > 1 {
		names = names[:0]
		for _, e := range cands {
			if e.clock == d.clock {
				names = append(names, e.name)
			}
		}
		d.era = strings.Join(names, " or ")
	}
	if len(clocks) == 1 && ev.maxTime > 0 {
		switch {
		case d.clock == ClockMicros && !ev.utcMicros():
			d.warnings = append(d.warnings, fmt.Sprintf("the timestamps (%.4g to %.4g) are not Pharo's absolute UTC microsecond clock, which this era stamped: edited? --clock bytes if they count bytes", ev.minTime, ev.maxTime))
		case d.clock == ClockBytes && ev.utcMicros():
			d.warnings = append(d.warnings, fmt.Sprintf("the timestamps (%.4g to %.4g) look like Pharo's absolute UTC microsecond clock, although this era stamps bytes allocated: --clock us if they are microseconds", ev.minTime, ev.maxTime))
		}
	}
	return d
}

func eraClockWords(c Clock) string {
	if c == ClockMicros {
		return "microseconds (Time primUTCMicrosecondsClock, before 2024-08-27)"
	}
	return "bytes allocated (VM parameter 34, since 2024-08-27, 395d06e; the header still says microseconds)"
}
