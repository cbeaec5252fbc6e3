package search

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/tunable"
)

// Thresholds of the lifetime-informed rules. Each rule's doc says why.
const (
	// longLivedShareForRatio: from this long-lived share of allocated bytes on, ratio-triggered
	// full GCs mostly re-mark data that is still live ([IWST23-P] §6.1: "these full GCs free
	// little: the data is live").
	longLivedShareForRatio = 0.2
	// longLivedShareForRatioFloor: from this share on, ratios below the default are ruled out.
	longLivedShareForRatioFloor = 0.5
	// ratioFullGCsWhileGrowing is how many ratio-triggered full GCs the informed seed allows
	// while the live data grows from the image to its peak.
	ratioFullGCsWhileGrowing = 3
	// largeObjectsPerSegment: the informed headroom makes a new segment hold at least this many
	// of the largest direct-to-old objects (Paper §4.2: full GCs fall as more objects fit in
	// one headroom-sized growth).
	largeObjectsPerSegment = 2
	// directOldGrowths: the informed headroom also lets all direct-to-old bytes arrive in about
	// this many growths.
	directOldGrowths = 16
	// containerNewSpaceFactor: with containers, the informed seed uses a new space this many
	// times the default, so the remembered set is rescanned that many times less often.
	containerNewSpaceFactor = 4
)

// Rule is one seeding or constraining decision taken from the lifetime profile, with its
// reason and the numbers behind it. Plan prints them at the start of a run.
type Rule struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"` // "seed" or "constraint"
	Reason string `json:"reason"`
}

// Seed is a configuration enqueued before the sampler takes over.
type Seed struct {
	Name  string        `json:"name"`
	Point tunable.Point `json:"point"`
}

// Plan is what the profile says about the search: the (possibly narrowed) space, the seeds,
// and the rules that produced them.
type Plan struct {
	Space tunable.Space `json:"space"`
	Seeds []Seed        `json:"seeds"`
	Rules []Rule        `json:"rules"`
}

// PlanOptions turn the two halves of the plan off.
type PlanOptions struct {
	// NoSeed enqueues nothing (--no-seed).
	NoSeed bool
	// NoConstrain keeps the configured space as it is (--no-constrain).
	NoConstrain bool
}

// PlanSearch derives seeds and constraints from the workloads' lifetime summaries (several
// workloads: the most demanding figure of each). base holds the default parameters.
func PlanSearch(summaries []*lifetimes.Summary, base heapsim.Params, space tunable.Space, opts PlanOptions) (Plan, error) {
	if err := space.Validate(); err != nil {
		return Plan{}, err
	}
	var f, largest, directOld, peakLive float64
	var containerSlots uint64
	for _, s := range summaries {
		f = math.Max(f, s.LongLivedByteShare)
		for _, o := range s.Largest {
			if o.OldSpace {
				largest = math.Max(largest, float64(o.SizeBytes))
			}
		}
		directOld = math.Max(directOld, float64(s.DirectToOld.Bytes))
		peakLive = math.Max(peakLive, float64(s.PeakLiveBytes))
		containerSlots += s.Containers.TotalSlots
	}
	plan := Plan{Space: space}
	mib := func(b float64) string { return fmt.Sprintf("%.0f MiB", b/float64(heapsim.MiB)) }

	if !opts.NoConstrain {
		sp := &plan.Space
		if largest > sp.HeadroomBytes.Low && largest < sp.HeadroomBytes.High {
			sp.HeadroomBytes.Low = largest
			plan.Rules = append(plan.Rules, Rule{Name: "headroom-above-largest-old-allocation", Kind: "constraint",
				Reason: fmt.Sprintf("the largest object allocated straight in old space is %s; a smaller headroom makes each such allocation that does not fit cost a full GC and a growth (docs/spur-model.md §2.3), so headroom ≥ %s", mib(largest), mib(largest))})
		}
		if f >= longLivedShareForRatioFloor && base.FullGCRatio > sp.Ratio.Low && base.FullGCRatio < sp.Ratio.High {
			sp.Ratio.Low = base.FullGCRatio
			plan.Rules = append(plan.Rules, Rule{Name: "ratio-not-below-default", Kind: "constraint",
				Reason: fmt.Sprintf("%.0f %% of allocated bytes are long-lived: a ratio below the default %.3f only adds full GCs that re-mark live data, so ratio ≥ %.3f", 100*f, base.FullGCRatio, base.FullGCRatio)})
		}
	}
	if opts.NoSeed {
		return plan, nil
	}
	def := tunable.DefaultPoint(base)
	reason := "the published default run (16 MiB new space and headroom, 32 MiB shrink threshold, ratio 0.333, Pharo's survivors): the baseline every speedup is measured against"
	if c := plan.Space.Clamp(def); c != def {
		reason += "; moved into the constrained space, so it is the nearest allowed configuration (the speedup is still measured against the real defaults)"
	}
	plan.Seeds = append(plan.Seeds, Seed{Name: "vm-defaults", Point: plan.Space.Clamp(def)})
	plan.Rules = append(plan.Rules, Rule{Name: "vm-defaults", Kind: "seed", Reason: reason})

	in := def
	var why []string
	if f >= longLivedShareForRatio && peakLive > float64(base.ImageBytes) {
		growth := (float64(base.ImageBytes) + peakLive) / float64(base.ImageBytes)
		r := math.Pow(growth, 1.0/ratioFullGCsWhileGrowing) - 1
		in.Ratio = math.Max(r, base.FullGCRatio)
		why = append(why, fmt.Sprintf("ratio %.2f: %.0f %% of allocated bytes are long-lived and live data grows %.0f× over the image, so at most %d ratio-triggered full GCs while it grows", in.Ratio, 100*f, growth, ratioFullGCsWhileGrowing))
	}
	if largest > 0 || directOld > 0 {
		h := math.Max(float64(base.GrowthHeadroomBytes), largeObjectsPerSegment*float64(nextPow2(uint64(largest)+32)))
		h = math.Max(h, directOld/directOldGrowths)
		if h > in.HeadroomBytes {
			in.HeadroomBytes = h
			why = append(why, fmt.Sprintf("headroom %s: holds %d of the largest old-space objects (%s) and takes the %s allocated straight in old space in about %d growths", mib(h), largeObjectsPerSegment, mib(largest), mib(directOld), directOldGrowths))
		}
	}
	if containerSlots > 0 {
		in.Proportion = 1
		in.NewSpaceBytes = containerNewSpaceFactor * float64(base.NewSpaceBytes)
		why = append(why, fmt.Sprintf("keep all survivors and a %s new space: containers with %d slots stay in the remembered set and are rescanned at every scavenge (docs/spur-model.md §3.6; [IWST23-P] §6.2-6.3)", mib(in.NewSpaceBytes), containerSlots))
	}
	if s := 2 * in.HeadroomBytes; s > in.ShrinkBytes {
		in.ShrinkBytes = s
		why = append(why, fmt.Sprintf("shrink threshold %s: twice the headroom, so a shrink does not drop free space below the headroom and force a growth at the next scavenge (SpurMemoryManager>>attemptToShrink, docs/spur-model.md §4.5)", mib(s)))
	}
	if len(why) > 0 {
		in = plan.Space.Clamp(in)
		plan.Seeds = append(plan.Seeds, Seed{Name: "lifetime-informed", Point: in})
		for _, w := range why {
			plan.Rules = append(plan.Rules, Rule{Name: "lifetime-informed", Kind: "seed", Reason: w})
		}
	}
	return plan, nil
}

func nextPow2(n uint64) uint64 {
	p := uint64(1)
	for p < n {
		p <<= 1
	}
	return p
}
