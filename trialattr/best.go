package trialattr

import (
	"math"
	"sort"
	"strconv"

	"github.com/c-bata/goptuna"
)

// feasibleValue reports whether t counts for Best and ParetoFront: COMPLETE, a finite
// positive value (ValidValue), and not marked infeasible.
func feasibleValue(t goptuna.FrozenTrial) bool { return FeasibleValue(t) }

// FeasibleValue reports whether t can be a study's answer: COMPLETE, a finite positive value
// (ValidValue), and not marked infeasible. Best, ParetoFront, the recommendation's candidates
// and resume's fastest trial all ask this one question.
func FeasibleValue(t goptuna.FrozenTrial) bool {
	return t.State == goptuna.TrialStateComplete && ValidValue(t.Value) && !Infeasible(t)
}

// ValidValue reports whether v can be a trial's value: finite and positive. gctune's
// objectives are run times in seconds or slowdowns against the defaults, never 0 or less; a
// trial with such a value was tampered with or broken, and as the best it would give an
// infinite speedup ("+Infx faster") that JSON cannot even encode.
func ValidValue(v float64) bool {
	return v > 0 && !math.IsInf(v, 0) // NaN > 0 is false
}

// Best returns the trial with the lowest value among the COMPLETE trials whose value is
// finite and positive and whose user attribute Feasible is not "false" (ties go to the lower
// number), and false when there is none. Unlike goptuna's GetBestValue, which answers 0 when no trial
// is complete, it never invents a best.
func Best(trials []goptuna.FrozenTrial) (goptuna.FrozenTrial, bool) {
	return BestDirection(trials, goptuna.StudyDirectionMinimize)
}

// BestDirection is Best for a study of the given direction.
func BestDirection(trials []goptuna.FrozenTrial, direction goptuna.StudyDirection) (goptuna.FrozenTrial, bool) {
	var best goptuna.FrozenTrial
	found := false
	for _, t := range trials {
		if !feasibleValue(t) {
			continue
		}
		if !found || Better(t.Value, t.Number, best.Value, best.Number, direction) {
			best, found = t, true
		}
	}
	return best, found
}

// ParetoFront returns the trials not dominated on (value, footprint), both minimised, where
// footprint is the number in the trial user attribute footprintAttr (for example
// Footprint). Only COMPLETE, feasible trials (as for Best) with a finite
// value and a footprint that parses as a finite number take part. A trial is dominated when
// another is no worse on both and better on one; trials with equal points are all kept. The
// front is sorted by value, then footprint, then number.
func ParetoFront(trials []goptuna.FrozenTrial, footprintAttr string) []goptuna.FrozenTrial {
	type point struct {
		t         goptuna.FrozenTrial
		value, fp float64
	}
	var pts []point
	for _, t := range trials {
		if !feasibleValue(t) {
			continue
		}
		fp, err := strconv.ParseFloat(t.UserAttrs[footprintAttr], 64)
		if err != nil || math.IsNaN(fp) || math.IsInf(fp, 0) {
			continue
		}
		pts = append(pts, point{t, t.Value, fp})
	}
	sort.Slice(pts, func(i, j int) bool {
		a, b := pts[i], pts[j]
		if a.value != b.value {
			return a.value < b.value
		}
		if a.fp != b.fp {
			return a.fp < b.fp
		}
		return a.t.Number < b.t.Number
	})
	// Sweep by increasing value: a point is on the front when its footprint is below every
	// footprint seen at a strictly lower value, and not above the best at its own value.
	var front []goptuna.FrozenTrial
	bestBelow := math.Inf(1) // lowest footprint among strictly smaller values
	for i := 0; i < len(pts); {
		j := i
		for j < len(pts) && pts[j].value == pts[i].value {
			j++
		}
		groupMin := pts[i].fp // the group is sorted by footprint
		if groupMin < bestBelow {
			for k := i; k < j && pts[k].fp == groupMin; k++ {
				front = append(front, pts[k].t)
			}
			bestBelow = groupMin
		}
		i = j
	}
	return front
}

// Better reports whether value v of trial number n beats the best so far, value best of trial
// number bestN, in a study of direction dir: ties go to the lower number.
func Better(v float64, n int, best float64, bestN int, dir goptuna.StudyDirection) bool {
	if v == best {
		return n < bestN
	}
	if dir == goptuna.StudyDirectionMaximize {
		return v > best
	}
	return v < best
}
