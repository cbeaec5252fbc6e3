package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// Recorder receives progress from the loop. Implementations must be safe for concurrent use.
type Recorder interface {
	// Start is called once with the trials to run now and the default configuration's value.
	Start(toRun int, defaultValue float64)
	// TrialDone is called after every trial, finished or failed.
	TrialDone(TrialReport)
}

// TrialReport describes one finished trial.
type TrialReport struct {
	Number   int               `json:"number"`
	Worker   int               `json:"worker"`
	Point    tunable.Point     `json:"point"`
	Value    float64           `json:"value"`
	Feasible bool              `json:"feasible"`
	Metrics  objective.Metrics `json:"metrics"`
	// Err is set when the trial failed.
	Err error `json:"-"`
}

// Settings configure one Optimize call on a study (gonum's optimize.Settings: each field's
// zero value means something sensible, said in its comment).
type Settings struct {
	// Trials is the number of trials the study should hold (finished, running or waiting;
	// trials reaped from dead workers, whose parameters are queued again, do not count). Zero
	// means no new trial: only waiting ones run.
	Trials int
	// Workers is the number of trials evaluated at once; zero means one.
	Workers int
	// Seed is the study seed; worker seeds derive from it (WorkerSeed). Zero is a seed like
	// any other.
	Seed uint64
	// Sampler names the sampler (see Samplers); "" means DefaultSampler.
	Sampler string
	// Space is the space to search (after the plan's constraints); the zero Space means
	// DefaultSpace().
	Space tunable.Space
	// Recorder, when set, receives progress; nil means none is reported.
	Recorder Recorder
	// OnTrialStart, when set, is called when a trial starts running and returns a function
	// called when it ends: the hook for heartbeats. Nil means no hook.
	OnTrialStart func(trialID int) (stop func())
}

// Validate checks the settings.
func (s Settings) Validate() error {
	switch {
	case s.Trials < 0:
		return fmt.Errorf("search: trials: %d must not be negative", s.Trials)
	case s.Workers < 0:
		return fmt.Errorf("search: workers: %d must not be negative", s.Workers)
	}
	if _, err := samplerFactory(s.Sampler); err != nil {
		return err
	}
	return s.space().Validate()
}

// workers is Workers with its zero value resolved.
func (s Settings) workers() int { return max(s.Workers, 1) }

// space is Space with its zero value resolved.
func (s Settings) space() tunable.Space {
	if s.Space == (tunable.Space{}) {
		return tunable.DefaultSpace()
	}
	return s.Space
}

// Status says why Optimize stopped.
type Status int

// Optimize's statuses.
const (
	// StatusBudgetReached: the study holds Settings.Trials trials and none is waiting.
	StatusBudgetReached Status = iota + 1
	// StatusInterrupted: the context was cancelled; the trials that were running finished
	// and were stored.
	StatusInterrupted
	// StatusFailed: a storage error stopped the loop; Optimize returns it.
	StatusFailed
)

func (s Status) String() string {
	switch s {
	case StatusBudgetReached:
		return "budget reached"
	case StatusInterrupted:
		return "interrupted"
	case StatusFailed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is what Optimize did and where the study stands after it.
type Result struct {
	// Best is the study's best trial (trialattr.Best: COMPLETE, feasible, finite), valid
	// when HasBest.
	Best    goptuna.FrozenTrial
	HasBest bool
	// Ran is the number of trials this call ran (finished or failed).
	Ran int
	// Finished is the number of finished trials the study holds that use up its budget
	// (Finished), the ones of other workers included.
	Finished int
	// Status says why the call stopped.
	Status Status
}

// Finished counts the finished trials that use up the study's budget: COMPLETE, PRUNED and
// FAIL trials, except failed trials a reaper re-queued (trialattr.IsReaped).
func Finished(trials []goptuna.FrozenTrial) int {
	n := 0
	for _, t := range trials {
		switch t.State {
		case goptuna.TrialStateComplete, goptuna.TrialStatePruned:
			n++
		case goptuna.TrialStateFail:
			if !trialattr.IsReaped(t) {
				n++
			}
		}
	}
	return n
}

// Counted counts the trials that hold a place in the study's budget: every trial but the
// failed ones a reaper re-queued (their parameters are in a new WAITING trial).
func Counted(trials []goptuna.FrozenTrial) int {
	n := 0
	for _, t := range trials {
		if trialattr.IsReaped(t) {
			continue
		}
		n++
	}
	return n
}

// WorkerSeed derives worker w's sampler seed from the study seed and how many trials the study
// held when the session began, so that a resumed session does not replay the first one's
// random draws and two workers never share a seed (splitmix64 mixing).
func WorkerSeed(studySeed uint64, worker, trialsAtStart int) uint64 {
	z := studySeed + 0x9e3779b97f4a7c15*uint64(worker+1) + 0xbf58476d1ce4e5b9*uint64(trialsAtStart)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// ProcessSeed derives a worker process's sampler seed from the study seed and what makes the
// process unique (process: its host and process ID; start: when it began): processes that join
// a study at the same moment must not draw the same configurations. WorkerSeed then gives each
// of the process's goroutines its own seed (FNV-1a of the process and the time, xored in).
func ProcessSeed(studySeed uint64, process string, start time.Time) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", process, start.UnixNano())
	return studySeed ^ h.Sum64()
}

// Enqueue adds the plan's seeds to the study as waiting trials. Call it once per study, when
// it is created.
func Enqueue(study *goptuna.Study, seeds []Seed) error {
	for _, s := range seeds {
		if err := study.EnqueueTrial(s.Point.Internal()); err != nil {
			return fmt.Errorf("search: enqueue seed %q: %w", s.Name, err)
		}
	}
	return nil
}

// Optimize runs trials on the study named studyName in storage until it holds s.Trials
// trials (finished, running or waiting, reaped ones aside) and none is waiting, or ctx is
// cancelled. The budget is counted in the database, so several processes working on one study
// share it. The workers of one call claim trials one at a time, so that one call never
// overshoots the budget; two processes that check at the same instant may overshoot it by one
// trial each. Each worker has its own goptuna.Study handle and its own sampler seeded by
// WorkerSeed. A trial's attributes and value are written before its state becomes COMPLETE,
// so a completed trial is always whole; a trial interrupted by a crash stays RUNNING until a
// reaper (package trialstore, driven by package session) fails it and re-queues its parameters.
//
// It returns what it did (Result) and where the study stands. A storage error stops the loop
// and is returned, with Status StatusFailed; an objective error fails that trial only.
func Optimize(ctx context.Context, storage goptuna.Storage, studyName string, problem *objective.Problem, s Settings) (Result, error) {
	failed := Result{Status: StatusFailed}
	if err := s.Validate(); err != nil {
		return failed, err
	}
	s.Space, s.Workers = s.space(), s.workers()
	newSampler, _ := samplerFactory(s.Sampler)
	studyID, err := storage.GetStudyIDFromName(studyName)
	if err != nil {
		return failed, fmt.Errorf("search: study %q: %w", studyName, err)
	}
	trials, err := storage.GetAllTrials(studyID)
	if err != nil {
		return failed, fmt.Errorf("search: study %q: %w", studyName, err)
	}
	toRun := max(s.Trials-Counted(trials), 0)
	for _, t := range trials {
		if t.State == goptuna.TrialStateWaiting {
			toRun++
		}
	}
	if s.Recorder != nil {
		s.Recorder.Start(toRun, problem.DefaultValue())
	}
	var ran atomic.Int64
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	var claimMu sync.Mutex
	workers := min(s.Workers, max(toRun, 1))
	for w := range workers {
		sampler, relative := newSampler(WorkerSeed(s.Seed, w, len(trials)), s.Workers > 1)
		opts := []goptuna.StudyOption{
			goptuna.StudyOptionStorage(storage),
			goptuna.StudyOptionLogger(nil),
			goptuna.StudyOptionSampler(sampler),
			goptuna.StudyOptionDefineSearchSpace(distributions(s.Space)),
		}
		if relative != nil {
			opts = append(opts, goptuna.StudyOptionRelativeSampler(relative))
		}
		study, err := goptuna.LoadStudy(studyName, opts...)
		if err != nil {
			cancel()
			wg.Wait()
			return Result{Ran: int(ran.Load()), Status: StatusFailed}, fmt.Errorf("search: load study %q: %w", studyName, err)
		}
		wg.Go(func() {
			for runCtx.Err() == nil {
				rep, more, err := runTrial(study, problem, s, w, &claimMu)
				if !more {
					return
				}
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					cancel()
					return
				}
				ran.Add(1)
				if s.Recorder != nil {
					s.Recorder.TrialDone(rep)
				}
			}
		})
	}
	wg.Wait()
	res := Result{Ran: int(ran.Load()), Status: StatusBudgetReached}
	if firstErr != nil {
		res.Status = StatusFailed
		return res, firstErr
	}
	if ctx.Err() != nil {
		res.Status = StatusInterrupted
	}
	trials, err = storage.GetAllTrials(studyID)
	if err != nil {
		res.Status = StatusFailed
		return res, fmt.Errorf("search: study %q: %w", studyName, err)
	}
	res.Finished = Finished(trials)
	res.Best, res.HasBest = trialattr.Best(trials)
	return res, nil
}

// runTrial runs one trial: a waiting (enqueued or re-queued) trial if there is one, else a new
// one while the budget allows; more is false when there is nothing left to run. Only storage
// failures are returned as errors. claimMu serialises the claims of one Optimize call.
func runTrial(study *goptuna.Study, problem *objective.Problem, s Settings, worker int, claimMu *sync.Mutex) (rep TrialReport, more bool, err error) {
	rep, err = runOneTrial(study, problem, s, worker, claimMu)
	if errors.Is(err, errBudgetReached) {
		return rep, false, nil
	}
	return rep, true, err
}

var errBudgetReached = errors.New("search: budget reached")

func runOneTrial(study *goptuna.Study, problem *objective.Problem, s Settings, worker int, claimMu *sync.Mutex) (TrialReport, error) {
	st := study.Storage
	claimMu.Lock()
	id, err := claimTrial(study, s.Trials)
	claimMu.Unlock()
	if err != nil {
		return TrialReport{}, err
	}
	if s.OnTrialStart != nil {
		stop := s.OnTrialStart(id)
		defer stop()
	}
	number, err := st.GetTrialNumberFromID(id)
	if err != nil {
		return TrialReport{}, fmt.Errorf("search: trial %d: %w", id, err)
	}
	rep := TrialReport{Number: number, Worker: worker}
	trial := goptuna.Trial{Study: study, ID: id}
	fail := func(cause error) (TrialReport, error) {
		rep.Err = cause
		if err := st.SetTrialSystemAttr(id, "fail_reason", cause.Error()); err != nil {
			return rep, fmt.Errorf("search: trial %d: %w", number, err)
		}
		if err := st.SetTrialState(id, goptuna.TrialStateFail); err != nil {
			return rep, fmt.Errorf("search: trial %d: %w", number, err)
		}
		return rep, nil
	}
	if err := trial.CallRelativeSampler(); err != nil {
		return fail(fmt.Errorf("search: sampler: %w", err))
	}
	point, err := suggest(s.Space, trial)
	if err != nil {
		return fail(err)
	}
	rep.Point = point
	res, err := problem.Evaluate(point.Params(problem.Base()))
	if err != nil {
		return fail(err)
	}
	if math.IsNaN(res.Value) || math.IsInf(res.Value, 0) {
		return fail(fmt.Errorf("search: objective value %v is not finite", res.Value))
	}
	rep.Value, rep.Feasible, rep.Metrics = res.Value, res.Feasible, res.Metrics
	slow, _ := json.Marshal(res.Slowdowns)
	attrs := [][2]string{
		{trialattr.Feasible, strconv.FormatBool(res.Feasible)},
		{trialattr.TotalSeconds, ftoa(res.Metrics.TotalSeconds)},
		{trialattr.GCSeconds, ftoa(res.Metrics.GCSeconds)},
		{trialattr.GCShare, ftoa(res.Metrics.GCShare)},
		{trialattr.Scavenges, strconv.Itoa(res.Metrics.Scavenges)},
		{trialattr.FullGCs, strconv.Itoa(res.Metrics.FullGCs)},
		{trialattr.Footprint, strconv.FormatUint(res.Metrics.PeakFootprintBytes, 10)},
		{trialattr.TenuredBytes, strconv.FormatUint(res.Metrics.TenuredBytes, 10)},
		{trialattr.Speedup, ftoa(res.Speedup)},
		{trialattr.Slowdowns, string(slow)},
		{trialattr.Worker, strconv.Itoa(worker)},
	}
	if !res.Feasible {
		attrs = append(attrs, [2]string{trialattr.Infeasibility, res.Infeasibility})
	}
	if res.Replicas != nil {
		reps, _ := json.Marshal(res.Replicas)
		attrs = append(attrs, [2]string{trialattr.Replicas, string(reps)})
	}
	if b, ok := st.(attrBatcher); ok {
		m := make(map[string]string, len(attrs))
		for _, a := range attrs {
			m[a[0]] = a[1]
		}
		if err := b.SetTrialUserAttrs(id, m); err != nil {
			return rep, fmt.Errorf("search: trial %d: %w", number, err)
		}
	} else {
		for _, a := range attrs {
			if err := st.SetTrialUserAttr(id, a[0], a[1]); err != nil {
				return rep, fmt.Errorf("search: trial %d: %w", number, err)
			}
		}
	}
	if err := st.SetTrialValue(id, res.Value); err != nil {
		return rep, fmt.Errorf("search: trial %d: %w", number, err)
	}
	if err := st.SetTrialState(id, goptuna.TrialStateComplete); err != nil {
		return rep, fmt.Errorf("search: trial %d: %w", number, err)
	}
	return rep, nil
}

// attrBatcher is a storage that writes several user attributes of a trial at once (package
// trialstore's caching storage does, in one statement).
type attrBatcher interface {
	SetTrialUserAttrs(trialID int, attrs map[string]string) error
}

// claimTrial claims a WAITING trial (enqueued seed or re-queued parameters) as goptuna's own
// popWaitingTrialID does (the state change from WAITING to RUNNING succeeds for one worker
// only), or else creates a new trial if the study holds fewer than budget trials. It returns
// errBudgetReached when neither is possible. The caller holds its Optimize call's claim lock,
// so that the trials it reads are not stale by the time it creates one.
func claimTrial(study *goptuna.Study, budget int) (int, error) {
	trials, err := study.Storage.GetAllTrials(study.ID)
	if err != nil && !errors.Is(err, goptuna.ErrTrialsPartiallyDeleted) {
		return -1, fmt.Errorf("search: read trials: %w", err)
	}
	for _, t := range trials {
		if t.State != goptuna.TrialStateWaiting {
			continue
		}
		err := study.Storage.SetTrialState(t.ID, goptuna.TrialStateRunning)
		if errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
			continue
		}
		if err != nil {
			return -1, fmt.Errorf("search: claim waiting trial: %w", err)
		}
		return t.ID, nil
	}
	if Counted(trials) >= budget {
		return -1, errBudgetReached
	}
	id, err := study.Storage.CreateNewTrial(study.ID)
	if err != nil {
		return -1, fmt.Errorf("search: create trial: %w", err)
	}
	return id, nil
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
