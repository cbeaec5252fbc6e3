package study

import (
	"context"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
)

// New plans the search from the opened workloads' lifetime profiles (search.PlanSearch) and
// returns the problem a new study stores, with its objective. settings holds the problem's
// settings (the objective's, the space as configured, the search's, the VM facts, the cost
// model, the uncertainty model, the version); New fills in the workloads, the plan, the notes,
// how each profile was read and the default configuration's value.
func New(lw *Workloads, settings Problem) (*Problem, *objective.Problem, error) {
	plan, err := search.PlanSearch(lw.Summaries, settings.VM, settings.ConfiguredSpace, search.PlanOptions{
		NoSeed: settings.NoSeed, NoConstrain: settings.NoConstrain})
	if err != nil {
		return nil, nil, asInput(err)
	}
	p := settings
	p.Workloads, p.Plan, p.Notes = lw.Refs, plan, lw.Notes
	prob, err := p.Objective(lw)
	if err != nil {
		return nil, nil, err
	}
	p.DefaultValue = prob.DefaultValue()
	p.Opened = lw.Opened
	return &p, prob, nil
}

// Create creates the study name in store with problem p (its version, p.Version, is the
// study's trialstore.AttrVersion) and enqueues the plan's seeds. Only
// the process whose creation wins enqueues them: a study created twice at once gives the
// other an error matching trialstore.ErrStudyExists.
func Create(ctx context.Context, store *trialstore.Store, name string, p *Problem) (*goptuna.Study, error) {
	attrs, err := problemCodec.encode(p)
	if err != nil {
		return nil, err
	}
	st, err := trialstore.CreateStudy(ctx, store, name, trialstore.NewStudy{Direction: goptuna.StudyDirectionMinimize,
		Version: p.Version, Kind: problemKind, Attrs: attrs})
	if err != nil {
		return nil, err
	}
	if err := search.Enqueue(st, p.Plan.Seeds); err != nil {
		return nil, err
	}
	return st, nil
}
