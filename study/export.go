package study

import (
	"context"
	"slices"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialstore"
)

// exportNote is what every export says of its prediction.
const exportNote = "predicted by gctune's Spur simulator (docs/simulator.md, docs/calibration.md); measure it on the real application"

// ExportMeta is what an export of study name (id in store, problem sp) states besides the
// configuration: the study, its workloads and files, the VM facts and the provenance (the
// database's URL with its password masked, when the study was made and by which gctune, the
// seed, the sampler, each workload's fingerprint); version is the exporting gctune's.
func ExportMeta(store *trialstore.Store, id int, name string, sp *Problem, version string) export.Meta {
	attrs, _ := store.Storage().GetStudySystemAttrs(id)
	meta := export.Meta{Study: name, VM: sp.VM, DefaultValue: sp.DefaultValue, Provenance: export.Provenance{
		Storage: store.URL(), Created: attrs[trialstore.AttrCreated], StudyVersion: sp.Version, ExportVersion: version,
		Seed: sp.Seed, Sampler: sp.Sampler, Fingerprints: map[string]string{}, Note: exportNote,
	}}
	// By name: a rebuilt sampled export is two workloads of one file (two hypotheses), each
	// with its own fingerprint.
	for i, n := range Names(sp.Workloads) {
		meta.Workloads = append(meta.Workloads, n)
		meta.Provenance.Fingerprints[n] = sp.Workloads[i].Fingerprint
		if !slices.Contains(meta.Files, sp.Workloads[i].Ref) {
			meta.Files = append(meta.Files, sp.Workloads[i].Ref)
		}
	}
	return meta
}

// ExportAnswer is study name's answer to c as export writes it, with meta (ExportMeta): trial
// c.Trial as the search stored it (FindTrial; prob is not used and may be nil), or the
// study's recommendation (AnswerFor).
func ExportAnswer(ctx context.Context, store *trialstore.Store, id int, name string, prob *objective.Problem,
	trials []goptuna.FrozenTrial, c Choice, s RecommendationSettings, meta export.Meta) (*export.Config, error) {
	if c.HasTrial {
		t, err := FindTrial(trials, name, c.Trial)
		if err != nil {
			return nil, err
		}
		return export.FromTrial(meta, t)
	}
	ans, err := AnswerFor(ctx, store, id, name, prob, trials, c, s)
	if err != nil {
		return nil, err
	}
	return export.FromRecommendation(meta, ans.Recommendation), nil
}
