package study

import (
	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// Best is a study's best trial as the session's document (session.Report) and `studies show --json` (ShowDoc) state it.
type Best struct {
	Number   int               `json:"number"`
	Value    float64           `json:"value"`
	Speedup  float64           `json:"speedup"`
	Point    tunable.Point     `json:"point"`
	Metrics  map[string]string `json:"metrics"`
	Feasible bool              `json:"feasible"`
}

// NewBest describes trial t, its speedup over the defaults' value defaultValue, its
// configuration rounded as the search's space rounds it.
func NewBest(t goptuna.FrozenTrial, defaultValue float64) *Best {
	raw, _ := tunable.PointFromParams(t.Params)
	return &Best{Number: t.Number, Value: t.Value, Speedup: defaultValue / t.Value, Point: raw.Rounded(),
		Metrics: t.UserAttrs, Feasible: !trialattr.Infeasible(t)}
}
