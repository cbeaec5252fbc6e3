package verify

import (
	"fmt"

	"github.com/gctune/gctune/internal/numfmt"
)

// Verdict says where the configuration's measured speedup lies against the interval its
// prediction states, in one sentence without the configuration's name: "the measured speedup,
// 1.20×, lies in the predicted 1.10-1.40× (95 % of runs; 1.25× expected)"; "" when there is no
// comparison. gctune verify and the report both state this sentence.
func (c ConfigSummary) Verdict() string {
	cmp := c.Comparison
	if cmp == nil || c.Speedup == nil {
		return ""
	}
	iv := cmp.Predicted
	pred := fmt.Sprintf("the predicted %s (%s of runs; %s expected)", numfmt.Range(iv.Lo, iv.Hi, numfmt.Speedup),
		numfmt.PercentText(iv.Coverage), numfmt.Speedup(c.PredictedSpeedup))
	s := fmt.Sprintf("the measured speedup, %s, ", numfmt.Speedup(c.Speedup.Estimate))
	switch cmp.Side {
	case "inside":
		s += "lies in " + pred
	case "below":
		s += "is below " + pred + ": the real application gains less than the model of its runs says"
	default:
		s += "is above " + pred + ": the real application gains more than the model of its runs says"
	}
	switch {
	case !c.Speedup.HasInterval():
		s += " (one round: no measured interval)"
	case cmp.Side != "inside" && cmp.Overlaps:
		s += fmt.Sprintf("; its 95 %% interval [%s] meets it", numfmt.Range(c.Speedup.Low, c.Speedup.High, numfmt.Speedup))
	case cmp.Side != "inside":
		s += fmt.Sprintf("; even its 95 %% interval [%s] lies outside", numfmt.Range(c.Speedup.Low, c.Speedup.High, numfmt.Speedup))
	}
	return s
}
