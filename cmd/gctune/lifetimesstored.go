package main

import (
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/study"
)

// storedHypothesisDoc is what `lifetimes` says of the second hypothesis optimize searches a
// sampled export under (the large objects the sample missed living to the end and holding the
// long-lived small objects), so that its containers agree with optimize's seeds.
type storedHypothesisDoc struct {
	// Hypothesis says it in words.
	Hypothesis string                   `json:"hypothesis"`
	Rebuild    *filip.RebuildReport     `json:"rebuild"`
	Containers lifetimes.ContainerStats `json:"containers"`
}

// storedHypothesis opens the profile again under the stored hypothesis when optimize would
// (a sampled export rebuilt in auto mode with large objects inferred: openWorkloads), and
// summarises its containers; nil otherwise.
func storedHypothesis(o lifetimesOptions, info *source.Info) (*storedHypothesisDoc, error) {
	if !study.SearchesStored(o.Open.Rebuild, info.Rebuild) {
		return nil, nil
	}
	// A pipe or FIFO cannot be read twice (and optimize refuses one): the estimate only.
	for _, f := range profileFiles(o.Ref, o.Open) {
		if infile.IsStream(f) {
			return nil, nil
		}
	}
	opts := o.Open
	opts.Rebuild = filip.HypothesisStored
	p, sinfo, err := openProfile(o.Ctx, o.Ref, opts)
	if err != nil {
		return nil, inputError(err)
	}
	sum, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{LongLivedThreshold: o.Analysis.LongLivedThreshold, TopObjects: -1})
	if err != nil {
		return nil, err
	}
	return &storedHypothesisDoc{Hypothesis: study.HypothesisWords(filip.HypothesisStored.String()), Rebuild: sinfo.Rebuild, Containers: sum.Containers}, nil
}
