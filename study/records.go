package study

import (
	"fmt"
	"reflect"

	"github.com/gctune/gctune/trialstore"
)

// The records gctune keeps with a study, as study system attributes beside goptuna's own:
// the problem (Problem, under problemCodec's names, kept as they were so that every stored
// study still reads) and named documents (SaveDoc: the recommendation). Both go through one
// docCodec, so a damaged one reads as damaged alike.

// problemCodec stores the study's problem. Studies stored before the count and the checksum
// have neither (lenient).
var problemCodec = docCodec{key: "gctune:problem", countKey: "gctune:problem_chunks",
	sumKey: "gctune:problem_sha256", what: "problem", lenient: true}

// problemKind is what a study's trialstore.AttrProblemKind says it holds: a Problem.
var problemKind = reflect.TypeOf((*Problem)(nil)).String()

// SaveProblem stores p as the problem of study id, replacing the one stored before, in one
// transaction.
func SaveProblem(store *trialstore.Store, id int, p *Problem) error {
	attrs, err := problemCodec.encode(p)
	if err != nil {
		return err
	}
	attrs = append(attrs, [2]string{trialstore.AttrProblemKind, problemKind})
	if err := store.ReplaceStudyAttrs(id, problemCodec.stale(), attrs); err != nil {
		return fmt.Errorf("study: save the problem of study %d: %w", id, err)
	}
	return nil
}

// loadProblem reads the problem of study id into p: an error matching ErrNoDoc when it has
// none, trialstore.ErrDamagedStudy when it does not decode.
func loadProblem(store *trialstore.Store, id int, p *Problem) error {
	return loadRecord(store, id, problemCodec, p)
}

// SaveDoc stores v, JSON-encoded, as study id's document named key (a study system attribute
// prefix such as RecommendationDoc), replacing the one stored before in one transaction: a
// reader sees the old document or the new one, never a mix.
func SaveDoc(store *trialstore.Store, id int, key string, v any) error {
	c := newDocCodec(key)
	attrs, err := c.encode(v)
	if err != nil {
		return err
	}
	if err := store.ReplaceStudyAttrs(id, c.stale(), attrs); err != nil {
		return fmt.Errorf("study: save %s of study %d: %w", key, id, err)
	}
	return nil
}

// LoadDoc decodes study id's document named key into v. A study without one gives an error
// matching ErrNoDoc; a damaged one (a chunk missing, a bad count, a checksum or JSON that does
// not match) an error matching trialstore.ErrDamagedStudy saying so.
func LoadDoc(store *trialstore.Store, id int, key string, v any) error {
	return loadRecord(store, id, newDocCodec(key), v)
}

// loadRecord reads the record c stores from study id into v.
func loadRecord(store *trialstore.Store, id int, c docCodec, v any) error {
	attrs, err := store.RawStorage().GetStudySystemAttrs(id)
	if err != nil {
		return fmt.Errorf("study: load the %s of study %d: %w", c.what, id, err)
	}
	if err := c.decode(attrs, v); err != nil {
		return fmt.Errorf("study %d in %s: %w", id, store.URL(), err)
	}
	return nil
}
