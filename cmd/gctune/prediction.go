package main

import "github.com/gctune/gctune/recommend"

// predictionDoc is a robust recommendation's prediction as explain, studies show and verify
// state it (--json): recommend.Prediction.
type predictionDoc = recommend.Prediction

// newPredictionDoc is rec's prediction (recommend.Recommendation.Prediction); nil when rec is
// nil or was judged on the single simulation.
func newPredictionDoc(rec *recommend.Recommendation, seconds bool) *predictionDoc {
	return rec.Prediction(seconds)
}
