package trialattr

import (
	"math"
	"strconv"
	"testing"

	"github.com/c-bata/goptuna"
)

// tr makes a trial for the query tests; fp < 0 means no footprint attribute.
func tr(number int, state goptuna.TrialState, value, fp float64, feasible string) goptuna.FrozenTrial {
	t := goptuna.FrozenTrial{ID: number + 1, Number: number, State: state, Value: value, UserAttrs: map[string]string{}}
	if fp >= 0 {
		t.UserAttrs["peak_footprint_bytes"] = strconv.FormatFloat(fp, 'g', -1, 64)
	}
	if feasible != "" {
		t.UserAttrs[Feasible] = feasible
	}
	return t
}

func numbers(trials []goptuna.FrozenTrial) []int {
	out := make([]int, len(trials))
	for i, t := range trials {
		out[i] = t.Number
	}
	return out
}

func TestBest(t *testing.T) {
	const C, F, R = goptuna.TrialStateComplete, goptuna.TrialStateFail, goptuna.TrialStateRunning
	if _, ok := Best(nil); ok {
		t.Error("best of no trials")
	}
	if _, ok := Best([]goptuna.FrozenTrial{tr(0, F, 0, -1, ""), tr(1, R, 0, -1, "")}); ok {
		t.Error("best of no COMPLETE trial (goptuna would say 0)")
	}
	trials := []goptuna.FrozenTrial{
		tr(0, C, 5, -1, ""),
		tr(1, C, math.NaN(), -1, ""),
		tr(2, C, math.Inf(-1), -1, ""),
		tr(3, C, 1, -1, "false"),
		tr(4, F, 0, -1, ""),
		tr(5, C, 3, -1, "true"),
		tr(6, C, 3, -1, ""),
		tr(7, goptuna.TrialStatePruned, 2, -1, ""),
	}
	if best, ok := Best(trials); !ok || best.Number != 5 {
		t.Errorf("Best = %d, %v; want 5 (lowest finite feasible value, lower number on ties)", best.Number, ok)
	}
	if best, ok := BestDirection(trials, goptuna.StudyDirectionMaximize); !ok || best.Number != 0 {
		t.Errorf("BestDirection(maximize) = %d, %v; want 0", best.Number, ok)
	}
}

func TestParetoFront(t *testing.T) {
	const C = goptuna.TrialStateComplete
	trials := []goptuna.FrozenTrial{
		tr(0, C, 10, 100, ""),
		tr(1, C, 5, 300, ""),
		tr(2, C, 7, 200, ""),
		tr(3, C, 8, 250, ""),  // dominated by 2
		tr(4, C, 5, 300, ""),  // equal to 1: kept
		tr(5, C, 5, 350, ""),  // dominated by 1
		tr(6, C, 12, 100, ""), // dominated by 0
		tr(7, C, 1, 50, "false"),
		tr(8, goptuna.TrialStateFail, 1, 50, ""),
		tr(9, C, 2, -1, ""),           // no footprint
		tr(10, C, math.NaN(), 10, ""), // no value
		tr(11, C, 20, 90, ""),
	}
	got := numbers(ParetoFront(trials, "peak_footprint_bytes"))
	want := []int{1, 4, 2, 0, 11}
	if len(got) != len(want) {
		t.Fatalf("front %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("front %v, want %v", got, want)
		}
	}
	if f := ParetoFront(trials, "no_such_attr"); len(f) != 0 {
		t.Errorf("front without the attribute: %v", numbers(f))
	}
}
