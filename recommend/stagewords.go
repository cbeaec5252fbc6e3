package recommend

import "github.com/gctune/gctune/internal/numfmt"

// StepWords names a step of the recommendation (the names Settings.Stage is called with) for
// a stage line on standard error, tol being Settings.Tolerance: "" for "done", the end. A
// step it does not know is named as it is.
func StepWords(step string, tol float64) string {
	switch step {
	case "rejudge":
		return "recommendation: judging again the trials within " + numfmt.PercentText(tol) + " of the fastest on the decision runs"
	case "attempt":
		return "recommendation: putting back the changes that cost less than " + numfmt.PercentText(tol)
	case "settle":
		return "recommendation: moving kept parameters off cliffs"
	case "fallback":
		return "recommendation: trying the next trial (no flat place found)"
	case "margins":
		return "recommendation: measuring each kept parameter's margin"
	case "statement":
		return "recommendation: its forecast for inputs like this one"
	case "again":
		return "recommendation: its forecast for this input again"
	case "restate":
		return "recommendation: the kept changes' costs after a move"
	case "done":
		return ""
	}
	return "recommendation: " + step
}
