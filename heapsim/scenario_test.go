package heapsim

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile"
)

// TestScenarios runs the scenario files under testdata/scenarios. Each file builds small
// profiles and simulates them; the expected output is regenerated with
//
//	go test ./heapsim -run TestScenarios -rewrite
//
// and reviewed as a diff. The commands:
//
//	layout newspace=SIZE [pages=N] [page=SIZE]
//	    prints T, S, E, the scavenge threshold and param 6 as Pharo sets it.
//	profile [end=SIZE]
//	rec size=SIZE [w=N] [n=N] [life=SIZE|end] [old] [class=NAME]
//	    [container [until=SIZE] [imm=F] [after=K]] [into=K [from=F] [for=F] [at=SIZE]] [by=L]
//	loop N
//	  rec ...
//	endloop
//	    builds the profile: each rec line appends n records of w objects of size bytes, born
//	    one after another on the allocation clock; life is each object's lifetime (end = alive
//	    at the end); old forces old space; class names the class (default Object; byte
//	    classes such as ByteString are marked, not scanned). container makes the record a
//	    container receiving unlisted young stores from its birth until `until` (default: its
//	    death; until=0: none, only listed referents), imm is the share of its slots holding
//	    immediates, after=K makes it the successor of container K (0-based, in order).
//	    into=K stores each object into container K from `from` × its lifetime for `for` ×
//	    its lifetime (default 0 and the rest), or from the clock at=SIZE (Store.AtBytes) to
//	    its death. by=L states a young→young reference
//	    (Profile.HeldBy): each record is held by the newest record of rec line L (0-based,
//	    after loops are expanded; L < 0: the line −L lines before) added before it, or by
//	    that line's first record if none is.
//	sim [newspace=SIZE] [headroom=SIZE] [shrink=SIZE] [ratio=F] [p=F] [n=N] [maxold=SIZE]
//	    [image=SIZE] [firstheadroom=SIZE] [bug588] [complete] [events=(kind,...)] [detail]
//	    simulates the profile and prints Stats, and the events of the kinds listed; detail
//	    adds the compaction time and bytes moved and the remembered set's growth and
//	    TenureToShrinkRT scavenges.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var prof *profile.Profile
			datadriven.RunTest(t, f, func(t *testing.T, td *datadriven.TestData) string {
				switch td.Cmd {
				case "layout":
					return runLayout(t, td)
				case "profile":
					p, err := buildScenarioProfile(td)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					prof = p
					return fmt.Sprintf("records=%d objects=%.0f allocated=%d end=%d containers=%d\n",
						p.Len(), p.Objects(), uint64(p.WeightedBytes()), p.Meta.EndBytes, len(p.Containers))
				case "sim":
					if prof == nil {
						td.Fatalf(t, "sim before profile")
					}
					return runSim(t, td, prof)
				}
				td.Fatalf(t, "unknown command %q", td.Cmd)
				return ""
			})
		})
	}
}

func scanBytes(t *testing.T, td *datadriven.TestData, key string, dst *uint64) {
	if !td.HasArg(key) {
		return
	}
	var v string
	td.ScanArgs(t, key, &v)
	n, err := units.ParseBytes(v)
	if err != nil {
		td.Fatalf(t, "%s: %v", key, err)
	}
	*dst = n
}

func runLayout(t *testing.T, td *datadriven.TestData) string {
	p := DefaultParams()
	scanBytes(t, td, "newspace", &p.NewSpaceBytes)
	scanBytes(t, td, "page", &p.PageBytes)
	if td.HasArg("pages") {
		td.ScanArgs(t, "pages", &p.StackPages)
	}
	l := ComputeLayout(p)
	return fmt.Sprintf("R=%d T=%d S=%d E=%d threshold=%d\npharo-N=%d p=%.3f\n",
		l.ReserveBytes, l.NewSpaceBytes, l.SurvivorBytes, l.EdenBytes, l.ScavengeThresholdBytes,
		p.SurvivorsToKeep(), p.TenuringProportion())
}

type recSpec struct {
	size, weight, n, life uint64
	end, old, container   bool
	until, at             uint64
	hasUntil              bool
	class                 string
	imm, from, forF       float64
	after, into, by       int
	hasBy                 bool
}

func parseRec(line string) (recSpec, error) {
	r := recSpec{weight: 1, n: 1, class: "Object", after: -1, into: -1, by: -1}
	for _, f := range strings.Fields(line)[1:] {
		k, v, _ := strings.Cut(f, "=")
		var err error
		switch k {
		case "size":
			r.size, err = units.ParseBytes(v)
		case "w":
			r.weight, err = strconv.ParseUint(v, 10, 32)
		case "n":
			r.n, err = strconv.ParseUint(v, 10, 64)
		case "life":
			if v == "end" {
				r.end = true
			} else {
				r.life, err = units.ParseBytes(v)
			}
		case "old":
			r.old = true
		case "container":
			r.container = true
		case "until":
			r.until, err = units.ParseBytes(v)
			r.hasUntil = true
		case "class":
			r.class = v
		case "imm":
			r.imm, err = strconv.ParseFloat(v, 64)
		case "after":
			r.after, err = strconv.Atoi(v)
		case "into":
			r.into, err = strconv.Atoi(v)
		case "from":
			r.from, err = strconv.ParseFloat(v, 64)
		case "for":
			r.forF, err = strconv.ParseFloat(v, 64)
		case "at":
			r.at, err = units.ParseBytes(v)
		case "by":
			r.by, err = strconv.Atoi(v)
			r.hasBy = true
		default:
			err = fmt.Errorf("unknown key")
		}
		if err != nil {
			return r, fmt.Errorf("%q: %s: %v", line, k, err)
		}
	}
	return r, nil
}

func buildScenarioProfile(td *datadriven.TestData) (*profile.Profile, error) {
	var lines []string
	var loop []string
	loopN := 0
	for _, l := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "loop "):
			n, err := strconv.Atoi(strings.TrimPrefix(l, "loop "))
			if err != nil {
				return nil, err
			}
			loopN, loop = n, nil
		case l == "endloop":
			for range loopN {
				lines = append(lines, loop...)
			}
			loopN, loop = 0, nil
		case loopN > 0:
			loop = append(loop, l)
		default:
			lines = append(lines, l)
		}
	}
	specs := make([]recSpec, 0, len(lines))
	var clock uint64
	for _, l := range lines {
		r, err := parseRec(l)
		if err != nil {
			return nil, err
		}
		specs = append(specs, r)
		clock += r.n * r.weight * r.size
	}
	end := clock
	if td.HasArg("end") {
		var v string
		for _, a := range td.CmdArgs {
			if a.Key == "end" {
				v = a.Vals[0]
			}
		}
		e, err := units.ParseBytes(v)
		if err != nil {
			return nil, err
		}
		end = max(end, e)
	}
	var b profile.Builder
	clock = 0
	containers := 0
	stores := map[[4]float64]uint16{}
	lineRecs := make([][]int, len(specs))
	type heldBy struct{ rec, line, after int }
	var held []heldBy
	for li, r := range specs {
		cls := b.Class(r.class)
		for range r.n {
			death := min(clock+r.life, end)
			var flags uint8
			if r.end {
				death = end
				flags |= profile.FlagAliveAtEnd
			}
			if r.old {
				flags |= profile.FlagOldSpace
			}
			i := b.Add(cls, uint32(r.size), clock, death, uint32(r.weight), flags)
			lineRecs[li] = append(lineRecs[li], i)
			if r.hasBy {
				line := r.by
				if line < 0 {
					line += li // relative: by=-1 is the rec line before
				}
				if line < 0 || line >= len(specs) || line == li {
					return nil, fmt.Errorf("by=%d: no other rec line %d", r.by, line)
				}
				held = append(held, heldBy{rec: i, line: line, after: len(lineRecs[line])})
			}
			if r.container {
				until := death
				if r.hasUntil {
					until = max(r.until, clock)
				}
				if r.after >= 0 {
					b.SetSuccessor(r.after, containers)
				}
				b.AddContainer(profile.Container{Record: int32(i), StoresFromBytes: clock, StoresUntilBytes: until, ImmediateFraction: float32(r.imm)})
				containers++
			}
			if r.into >= 0 {
				forF := r.forF
				if forF == 0 {
					forF = 1 - r.from
				}
				key := [4]float64{float64(r.into), r.from, forF, float64(r.at)}
				v, ok := stores[key]
				if !ok {
					v = b.AddStore(profile.Store{Container: int32(r.into), FromFraction: float32(r.from), ForFraction: float32(forF), AtBytes: r.at})
					stores[key] = v
				}
				b.SetStoredIn(i, v)
			}
			clock += r.weight * r.size
		}
	}
	for _, h := range held {
		recs := lineRecs[h.line]
		if len(recs) == 0 {
			return nil, fmt.Errorf("by=%d: the line adds no record", h.line)
		}
		b.SetHeldBy(h.rec, recs[max(h.after-1, 0)])
	}
	return b.Build(profile.Meta{Source: "scenario", EndBytes: end})
}

func runSim(t *testing.T, td *datadriven.TestData, p *profile.Profile) string {
	params := DefaultParams()
	scanBytes(t, td, "newspace", &params.NewSpaceBytes)
	scanBytes(t, td, "headroom", &params.GrowthHeadroomBytes)
	scanBytes(t, td, "shrink", &params.ShrinkThresholdBytes)
	scanBytes(t, td, "maxold", &params.MaxOldSpaceBytes)
	scanBytes(t, td, "image", &params.ImageBytes)
	scanBytes(t, td, "firstheadroom", &params.InitialHeadroomBytes)
	if td.HasArg("ratio") {
		td.ScanArgs(t, "ratio", &params.FullGCRatio)
	}
	if td.HasArg("p") {
		params.Survivors.Mode = SurvivorsProportion
		td.ScanArgs(t, "p", &params.Survivors.Proportion)
	}
	if td.HasArg("n") {
		params.Survivors.Mode = SurvivorsCount
		td.ScanArgs(t, "n", &params.Survivors.Count)
	}
	params.Bug588 = td.HasArg("bug588")
	params.CompleteCompaction = td.HasArg("complete")
	kinds := map[string]bool{}
	for _, a := range td.CmdArgs {
		if a.Key == "events" {
			for _, v := range a.Vals {
				kinds[v] = true
			}
		}
	}
	var sb strings.Builder
	opts := Options{}
	if len(kinds) > 0 {
		opts.OnEvent = func(e *Event) {
			if !kinds[e.Kind.String()] {
				return
			}
			switch e.Kind {
			case EventScavenge:
				fmt.Fprintf(&sb, "  scavenge clock=%d eden=%d past=%d future=%d tenured=%d byage=%d threshold=%d rs=%.0f/%d kept=%.0f old=%d\n",
					e.ClockBytes, e.EdenUsedBytes, e.SurvivorBytesBefore, e.SurvivorBytesAfter, e.TenuredBytes, e.TenuredByAgeBytes, e.ThresholdBytes, e.RSEntries, e.RSSlots, e.RSRemainingEntries, e.OldUsedBytes)
			case EventFullGC:
				fmt.Fprintf(&sb, "  fullgc %s clock=%d old=%d live=%d footprint=%d holes=%d\n", e.Cause, e.ClockBytes, e.OldUsedBytes, e.OldLiveBytes, e.FootprintBytes, e.HoleBytes)
			case EventGrow, EventShrink:
				fmt.Fprintf(&sb, "  %s clock=%d segment=%d footprint=%d\n", e.Kind, e.ClockBytes, e.SegmentBytes, e.FootprintBytes)
			}
		}
	}
	st, err := Run(p, params, PriorCost(), opts)
	if err != nil {
		fmt.Fprintf(&sb, "error: %v\n", err)
	}
	head := fmt.Sprintf("scavenges=%d fullgcs=%d (ratio=%d large=%d) grows=%d shrinks=%d released=%d\n"+
		"copied=%d tenured=%d byage=%d garbage=%d direct-old=%d rs-slots=%d\n"+
		"old-peak=%d footprint-peak=%d footprint-final=%d\n",
		st.Scavenges, st.FullGCs, st.FullGCsRatio, st.FullGCsLargeAlloc, st.Grows, st.Shrinks, st.ReleasedSegments,
		st.CopiedBytes, st.TenuredBytes, st.TenuredByAgeBytes, st.TenuredGarbageBytes, st.DirectOldBytes, st.RSSlotsScanned,
		st.PeakOldUsedBytes, st.PeakFootprintBytes, st.FinalFootprintBytes)
	if td.HasArg("detail") {
		head += fmt.Sprintf("compact-seconds=%.6f moved=%d rs-growth-scavenges=%d shrinkrt-scavenges=%d max-rs=%.0f\n",
			st.CompactSeconds, st.MovedBytes, st.RSGrowthScavenges, st.ShrinkRTScavenges, st.MaxRSEntries)
	}
	return head + sb.String()
}
