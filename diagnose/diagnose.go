package diagnose

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
)

// Thresholds of the diagnosis. Each is a judgement, documented in docs/report.md.
const (
	// minFindingShare: a pathology is reported when it cost at least this share of the
	// default run's GC time. Below 2 % no parameter change could buy much by removing it.
	minFindingShare = 0.02
	// lowYieldShare: a ratio-triggered full GC "reclaims little" when marking finds less than
	// this share of old space dead: at 25 % the full GC marked three live bytes per byte freed.
	lowYieldShare = 0.25
	// rsDominatedShare: a scavenge is "dominated" by the remembered set when scanning it takes
	// more than this share of the scavenge's time.
	rsDominatedShare = 0.5
	// burstGapShare: two large-allocation full GCs belong to one burst when at most this share
	// of the run's allocation separates them.
	burstGapShare = 0.01
	// bigObjectSlots: remembered objects averaging this many slots (512 KiB of pointers) are
	// called big in the evidence.
	bigObjectSlots = 65536
	// removedShare: the best configuration removes a pathology when it costs less than this
	// share of what it cost in the default run; a parameter is the one that removes it when
	// putting that parameter back alone brings back at least this share of what was removed.
	removedShare = 0.5
	// goneShare: a pathology is said to be removed (not only reduced) when the best
	// configuration pays at most this share of its default cost for it.
	goneShare = 0.01
)

// accumulator collects, from one run's event log, the evidence of the four pathologies.
type accumulator struct {
	burstGapBytes uint64

	scavenges                  int
	scavengeSeconds            float64
	rsSeconds                  float64
	rsDominated                int
	maxRSEntries               float64 // at the scavenge with the most remembered slots
	maxRSSlots                 uint64
	rsScans                    int // scavenges that scanned a non-empty remembered set
	rsKept                     int // … after which an entry stayed: it still referred to a young object
	fullGCs                    int
	large                      int
	largeSeconds               float64
	largeRequests              []uint64
	bursts, maxBurst, curBurst int
	lastLargeClock             uint64
	ratio                      int
	ratioLiveSeconds           float64 // ratio full GCs' seconds × the share of old space found live
	lowYield                   int
	lowYieldSeconds            float64
	lowYieldReclaimedBytes     uint64
	lowYieldUsedBytes          uint64
	lowYieldLiveBytes          uint64
}

func newAccumulator(endBytes uint64) *accumulator {
	return &accumulator{burstGapBytes: uint64(burstGapShare * float64(endBytes))}
}

func (a *accumulator) add(e *heapsim.Event) {
	if a == nil {
		return
	}
	switch e.Kind {
	case heapsim.EventScavenge:
		a.scavenges++
		a.scavengeSeconds += e.Seconds
		a.rsSeconds += e.RSSeconds
		if e.RSSlots > a.maxRSSlots || (e.RSSlots == a.maxRSSlots && e.RSEntries > a.maxRSEntries) {
			a.maxRSSlots, a.maxRSEntries = e.RSSlots, e.RSEntries
		}
		if e.RSEntries > 0 {
			a.rsScans++
			if e.RSRemainingEntries > 0 {
				a.rsKept++
			}
		}
		if e.Seconds > 0 && e.RSSeconds > rsDominatedShare*e.Seconds {
			a.rsDominated++
		}
	case heapsim.EventFullGC:
		a.fullGCs++
		switch e.Cause {
		case heapsim.CauseLargeAlloc:
			if a.large > 0 && e.ClockBytes-a.lastLargeClock <= a.burstGapBytes {
				a.curBurst++
			} else {
				a.closeBurst()
				a.curBurst = 1
			}
			a.large++
			a.largeSeconds += e.Seconds
			a.largeRequests = append(a.largeRequests, e.RequestBytes)
			a.lastLargeClock = e.ClockBytes
		case heapsim.CauseRatio:
			a.ratio++
			if e.OldUsedBeforeBytes > 0 {
				a.ratioLiveSeconds += e.Seconds * float64(e.OldUsedBeforeBytes-e.OldReclaimedBytes) / float64(e.OldUsedBeforeBytes)
			}
			if float64(e.OldReclaimedBytes) < lowYieldShare*float64(e.OldUsedBeforeBytes) {
				a.lowYield++
				a.lowYieldSeconds += e.Seconds
				a.lowYieldReclaimedBytes += e.OldReclaimedBytes
				a.lowYieldUsedBytes += e.OldUsedBeforeBytes
				a.lowYieldLiveBytes += e.OldUsedBeforeBytes - e.OldReclaimedBytes
			}
		}
	}
}

func (a *accumulator) closeBurst() {
	if a.curBurst >= 2 {
		a.bursts++
	}
	a.maxBurst = max(a.maxBurst, a.curBurst)
	a.curBurst = 0
}

// runResult is one simulated run with its accumulated evidence; oom reports that it ran out of
// memory (its figures then stop at the failure).
type runResult struct {
	stats heapsim.Stats
	acc   *accumulator
	oom   bool
}

// Diagnose compares the problem's default configuration with best on every workload: where
// the GC time went, which pathologies the default run shows and what each cost, and which
// parameter change of best removes each, confirmed by simulating best with that one parameter
// put back to its default. workers bounds the simulations run at once (0: GOMAXPROCS).
func Diagnose(ctx context.Context, prob *objective.Problem, best tunable.Point, workers int) (*Diagnosis, error) {
	if prob == nil {
		return nil, errors.New("diagnose: no problem")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	d, _, err := diagnose(ctx, prob, best, ValueLabel(prob), NewPool(workers, nil), false, nil)
	return d, err
}

// DefaultRuns are the default configuration's runs of every workload, simulated (by
// StartDefaultRuns) while the recommendation is chosen: they do not depend on it.
type DefaultRuns struct {
	done    chan struct{}
	results []runResult
	logs    [][]heapsim.Event
	err     error
}

// StartDefaultRuns simulates the default configuration on every workload in the background on
// p, with event logs, for DiagnoseRuns. Wait for them before p's context is gone.
func StartDefaultRuns(ctx context.Context, prob *objective.Problem, p *Pool) *DefaultRuns {
	return startDefaultRuns(ctx, prob, p, true)
}

// startDefaultRuns is StartDefaultRuns with event logs when events is true.
func startDefaultRuns(ctx context.Context, prob *objective.Problem, p *Pool, events bool) *DefaultRuns {
	ws := prob.Workloads()
	dr := &DefaultRuns{done: make(chan struct{}), results: make([]runResult, len(ws)), logs: make([][]heapsim.Event, len(ws))}
	go func() {
		defer close(dr.done)
		dr.err = p.run(ctx, len(ws), func(w int) error {
			var err error
			dr.results[w], dr.logs[w], err = simulateRun(ws[w], prob.Base(), prob.Cost(), events)
			return err
		})
	}()
	return dr
}

// Wait waits for the runs and returns their error.
func (dr *DefaultRuns) Wait() error {
	_, _, err := dr.wait()
	return err
}

// wait returns the runs once simulated.
func (dr *DefaultRuns) wait() ([]runResult, [][]heapsim.Event, error) {
	<-dr.done
	return dr.results, dr.logs, dr.err
}

// simulateRun simulates one workload under params with the diagnosis's accumulator, and its
// event log when events is true; running out of memory is a result, not an error.
func simulateRun(w objective.Workload, params heapsim.Params, cost heapsim.Cost, events bool) (runResult, []heapsim.Event, error) {
	acc := newAccumulator(w.Profile.Meta.EndBytes)
	st, log, err := simulate(w.Profile, params, cost, events, acc)
	oom := errors.Is(err, heapsim.ErrOutOfMemory)
	if err != nil && !oom {
		return runResult{}, nil, fmt.Errorf("diagnose: workload %s: %w", w.Name, err)
	}
	acc.closeBurst()
	return runResult{stats: st, acc: acc, oom: oom}, log, nil
}

// DiagnoseRuns is Diagnose on p, the objective named valueLabel, that also returns each
// workload's default and best runs with their event logs. defaults, when not nil, are the
// default runs already under way (StartDefaultRuns).
func DiagnoseRuns(ctx context.Context, prob *objective.Problem, best tunable.Point, valueLabel string, p *Pool, defaults *DefaultRuns) (*Diagnosis, [][2]Run, error) {
	return diagnose(ctx, prob, best, valueLabel, p, true, defaults)
}

// diagnose is Diagnose on p; with events it also returns each workload's default and best runs
// with their event logs. defaults, when not nil, are the default runs already under way
// (startDefaultRuns, with the same events).
func diagnose(ctx context.Context, prob *objective.Problem, best tunable.Point, valueLabel string, p *Pool, events bool, defaults *DefaultRuns) (*Diagnosis, [][2]Run, error) {
	base := prob.Base()
	best = best.Rounded()
	def := tunable.DefaultPoint(base).Rounded()
	bestParams := best.Params(base)

	// The changed parameters and, for each, the best with it put back. A parameter at its
	// (rounded) default is the VM default itself, as the recommendation exports it: nothing set.
	var changed []int
	for i, pi := range tunable.All() {
		if pi.Get(best) != pi.Get(def) {
			changed = append(changed, i)
		} else {
			bestParams = putBack(bestParams, base, i)
		}
	}
	bestRes, err := p.evaluate(prob, bestParams)
	if err != nil {
		return nil, nil, fmt.Errorf("diagnose: best configuration: %w", err)
	}
	d := &Diagnosis{ValueLabel: valueLabel, DefaultObjective: prob.NominalDefaultValue(),
		BestObjective: measured(prob, bestRes), BestFeasible: bestRes.Feasible, BestInfeasibility: bestRes.Infeasibility}
	// Put back means the VM default itself (base's field), not its rounded point: the ratio
	// 0.333333, Pharo's own survivors formula.
	reverted := func(i int) heapsim.Params { return putBack(bestParams, base, i) }
	ws := prob.Workloads()
	// Jobs: per workload, default, best, then one per changed parameter; then one objective
	// evaluation per changed parameter.
	perW := 2 + len(changed)
	results := make([]runResult, len(ws)*perW)
	logs := make([][]heapsim.Event, len(ws)*perW)
	revertRes := make([]objective.Result, len(changed))
	// The jobs' indices: the runs of results but the default ones when defaults has them, then
	// the evaluations.
	var jobs []int
	for j := range len(results) + len(changed) {
		if defaults == nil || j >= len(results) || j%perW != 0 {
			jobs = append(jobs, j)
		}
	}
	err = p.run(ctx, len(jobs), func(i int) error {
		j := jobs[i]
		if j >= len(results) {
			k := j - len(results)
			res, err := p.evaluate(prob, reverted(changed[k]))
			if err != nil {
				return fmt.Errorf("diagnose: best with %s put back: %w", tunable.All()[changed[k]].Label, err)
			}
			revertRes[k] = res
			return nil
		}
		w, k := j/perW, j%perW
		var params heapsim.Params
		switch k {
		case 0:
			params = base
		case 1:
			params = bestParams
		default:
			params = reverted(changed[k-2])
		}
		var err error
		results[j], logs[j], err = simulateRun(ws[w], params, prob.Cost(), events && k < 2)
		return err
	})
	if defaults != nil {
		rs, ls, derr := defaults.wait()
		if err == nil {
			err = derr
		}
		if derr == nil {
			for w := range ws {
				results[w*perW], logs[w*perW] = rs[w], ls[w]
			}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	for k, i := range changed {
		pi := tunable.All()[i]
		d.Changes = append(d.Changes, Change{Param: pi.Name, Label: pi.Label, Bytes: pi.IsBytes(),
			DefaultValue: pi.Get(def), BestValue: pi.Get(best),
			RevertedObjective: measured(prob, revertRes[k]), RevertedFeasible: revertRes[k].Feasible,
			RevertedInfeasibility: revertRes[k].Infeasibility})
	}
	sort.SliceStable(d.Changes, func(a, b int) bool { return d.Changes[a].RevertedObjective > d.Changes[b].RevertedObjective })

	runs := make([][2]Run, len(ws))
	for w := range ws {
		rs := results[w*perW : (w+1)*perW]
		wd := workloadDiagnosis(ws[w].Name, rs[0], rs[1])
		for _, pk := range pathologies() {
			if f, ok := finding(pk.kind, rs, changed, best, def); ok {
				wd.Findings = append(wd.Findings, f)
			}
		}
		sort.SliceStable(wd.Findings, func(a, b int) bool { return wd.Findings[a].CostSeconds > wd.Findings[b].CostSeconds })
		d.Workloads = append(d.Workloads, wd)
		runs[w] = [2]Run{
			{Label: "default", Params: base, Stats: rs[0].stats, Events: logs[w*perW]},
			{Label: "best", Params: bestParams, Stats: rs[1].stats, Events: logs[w*perW+1]},
		}
	}
	return d, runs, nil
}

// putBack returns p with tunable i put back to the VM default itself: base's field, read and
// written through the tunable table. The survivors to keep are base's own Survivors (Pharo's
// formula when base has it), not a proportion read from it.
func putBack(p, base heapsim.Params, i int) heapsim.Params {
	tunable.All()[i].Reset(&p, base)
	return p
}

// measured is a result's objective without the infeasibility penalty: the run time (or
// slowdown) the simulation measured, up to the failure for a run out of memory.
func measured(prob *objective.Problem, res objective.Result) float64 {
	if res.Feasible || res.Speedup <= 0 {
		return res.Value
	}
	return prob.NominalDefaultValue() / res.Speedup
}

// workloadDiagnosis fills the totals and the breakdown of where the GC time went.
func workloadDiagnosis(name string, def, best runResult) WorkloadDiagnosis {
	wd := WorkloadDiagnosis{Workload: name,
		DefaultSeconds: def.stats.TotalSeconds, BestSeconds: best.stats.TotalSeconds,
		DefaultGCSeconds: def.stats.GCSeconds, BestGCSeconds: best.stats.GCSeconds}
	items := []struct {
		name string
		get  func(heapsim.Stats) float64
	}{
		{"copying survivors in scavenges", func(s heapsim.Stats) float64 { return s.CopySeconds }},
		{"tenuring in scavenges", func(s heapsim.Stats) float64 { return s.TenureSeconds }},
		{"remembered-set scanning in scavenges", func(s heapsim.Stats) float64 { return s.RSScanSeconds }},
		{"fixed cost of scavenges", func(s heapsim.Stats) float64 {
			return max(s.ScavengeSeconds-s.CopySeconds-s.TenureSeconds-s.RSScanSeconds, 0)
		}},
		{"full-GC marking", func(s heapsim.Stats) float64 { return s.MarkSeconds }},
		{"full-GC compaction", func(s heapsim.Stats) float64 { return s.CompactSeconds }},
		{"full-GC inner scavenges and fixed cost", func(s heapsim.Stats) float64 {
			return max(s.FullGCSeconds-s.MarkSeconds-s.CompactSeconds, 0)
		}},
		{"growing and shrinking old space", func(s heapsim.Stats) float64 { return s.GrowSeconds + s.ShrinkSeconds }},
	}
	for _, it := range items {
		wd.Breakdown = append(wd.Breakdown, TimeItem{Name: it.name, DefaultSeconds: it.get(def.stats), BestSeconds: it.get(best.stats)})
	}
	return wd
}

// finding builds the finding of one pathology kind from a workload's runs (default, best, then
// the best with each changed parameter put back), or false when the default run does not show
// it at a cost worth reporting.
func finding(kind string, rs []runResult, changed []int, best, def tunable.Point) (Finding, bool) {
	dr, br := rs[0], rs[1]
	cost := dr.cost(kind)
	if !dr.present(kind) || cost <= 0 || cost < minFindingShare*dr.stats.GCSeconds {
		return Finding{}, false
	}
	f := Finding{Kind: kind, CostSeconds: cost, BestCostSeconds: br.cost(kind)}
	pk, _ := pathologyOf(kind)
	f.Title = pk.title
	f.Evidence = pk.evidence(dr, def, cost)
	f.Remedy = remedy(&f, kind, rs, changed, best, def)
	return f, true
}

// rsMembershipText says why the set stayed populated: after how many of its scans an entry
// stayed because it still referred to a young object (a referent parked in the survivor
// space, docs/spur-model.md §3.1), against entries that left and came back at their next young store (§3.6).
func rsMembershipText(a *accumulator) string {
	const stays = "because it still referred to a young object, one parked in the survivor space " +
		"(SpurGenerationScavenger>>scavengeRememberedSetStartingAt: keeps an entry iff it still refers to a young object once its referents are scavenged)"
	switch a.rsKept {
	case 0:
		return fmt.Sprintf("After each of the %s scans every entry left the set, none referring to a young object any more, "+
			"and the write barrier added it again at its next young store (SpurMemoryManager>>storePointer:ofObject:withValue:): the stores between scavenges bring it back.", numfmt.Count(a.rsScans))
	case a.rsScans:
		return fmt.Sprintf("After each of the %s scans an entry stayed in the set %s.", numfmt.Count(a.rsScans), stays)
	}
	return fmt.Sprintf("After %s of the %s scans an entry stayed in the set %s; after the others every entry left, "+
		"to be added again by the write barrier at its next young store (SpurMemoryManager>>storePointer:ofObject:withValue:).", numfmt.Count(a.rsKept), numfmt.Count(a.rsScans), stays)
}

// ofThe says "12 of the 15" or "All 15" (capitalised, to open a sentence).
func ofThe(n, of int) string {
	if n == of {
		if n == 1 {
			return "The only one of the"
		}
		return "All " + numfmt.Count(n) + " of the"
	}
	return numfmt.Count(n) + " of the " + numfmt.Count(of)
}

// burstText describes how the large-allocation full GCs cluster.
func burstText(a *accumulator) string {
	gap := numfmt.PercentText(burstGapShare)
	switch {
	case a.bursts == 0:
		return fmt.Sprintf("They came one at a time: no two within %s of the run of each other.", gap)
	case a.bursts == 1 && a.maxBurst == a.large:
		return fmt.Sprintf("They came in one burst, each at most %s of the run after the one before.", gap)
	case a.bursts == 1:
		return fmt.Sprintf("%s of them came in one burst, each at most %s of the run after the one before.", numfmt.Count(a.maxBurst), gap)
	}
	return fmt.Sprintf("They came in %s bursts (full GCs at most %s of the run apart), the largest of %s full GCs.",
		numfmt.Count(a.bursts), gap, numfmt.Count(a.maxBurst))
}

// remedy names the change of the best configuration that removes the pathology, confirmed by
// the best run with that parameter put back; it fills FixedBy.
func remedy(f *Finding, kind string, rs []runResult, changed []int, best, def tunable.Point) string {
	if f.BestCostSeconds >= removedShare*f.CostSeconds {
		return fmt.Sprintf("The best configuration does not remove it: it still costs %s there (default %s).",
			numfmt.SecondsText(f.BestCostSeconds), numfmt.SecondsText(f.CostSeconds))
	}
	removed := f.CostSeconds - f.BestCostSeconds
	// "removes" only when the cost is gone; otherwise the change reduces it (300 full GCs → 17).
	verb := "reduces"
	if f.Removed() {
		verb = "removes"
	}
	bestK, bestBack := -1, 0.0
	for k := range changed {
		if rs[2+k].oom {
			continue // its figures stop at the failure: no evidence either way
		}
		back := rs[2+k].cost(kind) - f.BestCostSeconds
		if back > bestBack {
			bestK, bestBack = k, back
		}
	}
	if bestK < 0 || bestBack < removedShare*removed {
		s := fmt.Sprintf("The best configuration %s it (%s instead of %s), but no single parameter put back to its default brings it back",
			verb, numfmt.SecondsText(f.BestCostSeconds), numfmt.SecondsText(f.CostSeconds))
		if bestK >= 0 {
			pi := tunable.All()[changed[bestK]]
			s += fmt.Sprintf(": the most, %s at %s, brings back %s of it; it takes the changes together.",
				pi.Label, ParamValue(pi, pi.Get(def)), numfmt.PercentText(bestBack/removed))
		} else {
			return s + ": it takes the changes together."
		}
		return s
	}
	pi := tunable.All()[changed[bestK]]
	f.FixedBy, f.FixedByLabel = pi.Name, pi.Label
	f.RevertedCostSeconds = rs[2+bestK].cost(kind)
	what := evidenceCount(kind, rs[1], rs[2+bestK])
	return fmt.Sprintf("Changing the %s from %s to %s "+verb+" it: the best configuration spends %s on it. Confirmed by simulation: the best with only the %s put back to %s spends %s on it again%s.",
		pi.Label, ParamValue(pi, pi.Get(def)), ParamValue(pi, pi.Get(best)), numfmt.SecondsText(f.BestCostSeconds),
		pi.Label, ParamValue(pi, pi.Get(def)), numfmt.SecondsText(f.RevertedCostSeconds), what)
}

// ParamValue formats a value of parameter pi for people, as explain writes it: "741 MiB",
// "p = 0.9", "0.333".
func ParamValue(pi tunable.Tunable, v float64) string { return pi.Format(v) }
